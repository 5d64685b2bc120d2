"""Issue 29 item 21: security headers on every response, and HEAD /api/health."""

from fastapi.testclient import TestClient

from gamelab.web.app import create_app


def test_21_security_headers_and_head_health():
    client = TestClient(create_app(), raise_server_exceptions=False)  # no pool needed
    for r in (client.get("/api/health"), client.get("/"), client.get("/no-such-page")):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    head = client.head("/api/health")
    assert head.status_code == 200 and head.content == b""
