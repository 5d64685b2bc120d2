"""Issue 29 item 21: the content security policy allows scripts only from the server's files,
and no page (nor /api/docs) needs more: every page loads and runs with no violation.

(The ``page`` fixture also fails any browser test whose page the policy refused something.)"""

import pytest

from gamelab.web.app import CONTENT_SECURITY_POLICY

PAGES = ["/", "/voltorb", "/wordle", "/lattice", "/oware", "/yatzy"]

RECORD_VIOLATIONS = (
    "window.__csp = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
)


def test_21_the_policy_refuses_inline_scripts():
    script_src = CONTENT_SECURITY_POLICY.split("script-src")[1].split(";")[0]
    assert script_src.strip() == "'self'"
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("path", PAGES)
def test_21_every_page_runs_under_the_policy(page, path):
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(path)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)  # the page's module has run its start-up
    assert page.evaluate("window.__csp") == []


def test_21_api_docs_run_under_the_policy(page):
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto("/api/docs")
    page.locator(".swagger-ui .opblock-tag", has_text="wordle").first.wait_for(timeout=30_000)
    assert page.evaluate("window.__csp") == []


def test_21_the_policy_is_in_force(browser, live_server):
    """An injected inline script does not run (the header is obeyed, not only sent)."""
    context = browser.new_context(base_url=live_server)
    try:
        pg = context.new_page()
        pg.add_init_script(RECORD_VIOLATIONS)
        pg.goto("/")
        pg.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.__inline = 1'; document.body.append(s); }"
        )
        assert pg.evaluate("window.__inline === undefined")
        assert any(v.startswith("script-src") for v in pg.evaluate("window.__csp"))
    finally:
        context.close()
