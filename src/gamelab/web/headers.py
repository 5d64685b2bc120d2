"""The headers every answer of the web app carries (also those of :mod:`.starting`)."""

from __future__ import annotations

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS"]

#: The content security policy: scripts only from this server's own files (the pages are
#: ES modules and /api/docs starts Swagger UI from a static file: no inline script anywhere),
#: everything else from the same origin; inline styles are allowed (the boards are SVG whose
#: sizes the scripts set). A browser test fails on any violation the pages cause.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
)

#: Sent with every response: no MIME sniffing, no framing by other sites, no plugins, no
#: script that the server did not serve as a file.
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"referrer-policy", b"same-origin"),
]
