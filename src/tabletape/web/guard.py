"""What every page this server sends shares: its security headers and its Host check.

A server is reachable by mistake: only requests whose `Host` names this server are
answered (a page elsewhere that rebinds its DNS name to 127.0.0.1 gets a 400), and every
response carries a Content-Security-Policy that lets the page run its own script only.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
from collections.abc import AsyncIterator, Callable, Iterable

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tabletape.app import viewer_page

PIECE = 1 << 16  # what a response sends at a time: a stalled client holds this, not the page


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy(page: str | None = None) -> str:
    """Returns the page's Content-Security-Policy: its own inline script and style by hash,
    `data` from this server, nothing else (no frames, forms, plug-ins or base URL).

    `page` is the page served (default: the viewer's; `serve --play` serves its own)."""
    if page is None:
        page = viewer_page.PAGE
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)  # the inline scripts that run
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert scripts and "{{" not in "".join(scripts + styles)  # the same bytes on every page
    return "; ".join([
        "default-src 'none'",
        "script-src " + " ".join(map(_sha256, scripts)),
        "style-src " + " ".join(map(_sha256, styles)),
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ])


def _headers(page: str | None = None) -> list[tuple[bytes, bytes]]:
    return [(k.encode(), v.encode()) for k, v in (
        ("content-security-policy", policy(page)),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-resource-policy", "same-origin"),
        ("cross-origin-opener-policy", "same-origin"),
    )]


class Guard:
    """ASGI middleware: answers only requests whose `Host` is this server, and adds the
    security headers to every response."""

    def __init__(self, app: ASGIApp, allowed: Callable[[str], bool],
                 refused: Callable[[str], None] | None = None, page: str | None = None):
        self.app, self.allowed, self.refused = app, allowed, refused
        self.headers = _headers(page)
        self.told: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        extra = self.headers

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        host = Headers(scope=scope).get("host", "")
        if not self.allowed(host):
            if self.refused is not None and host not in self.told and len(self.told) < 64:
                self.told.add(host)  # once per name: a page polls twice a second
                self.refused(host)
            response = PlainTextResponse("Invalid host header", status_code=400)
            return await response(scope, receive, send_guarded)
        await self.app(scope, receive, send_guarded)


_HOST = re.compile(r"(?P<name>\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?")


def host_check(bound: str, port: int | None = None, named: Iterable[str] = ()
               ) -> Callable[[str], bool]:
    """Returns the test of a `Host` header for a server listening on `bound`:`port`.

    Accepted: the bound address, `localhost` (when it is a loopback address), and the
    names in `named` (the `--host` given), each with or without the port (any port when
    `port` is None). On a wildcard
    address (0.0.0.0, ::) the machine's every address is bound: any IP literal is
    accepted (a DNS name rebound to an address never is one), and the machine's name.
    """
    names = {n.lower() for n in named}
    wildcard = False
    try:
        ip = ipaddress.ip_address(bound.strip("[]"))
    except ValueError:
        names.add(bound.lower())
    else:
        wildcard = ip.is_unspecified
        names.add(f"[{ip}]" if ip.version == 6 else str(ip))
        if ip.is_loopback or wildcard:
            names.add("localhost")
        if wildcard:  # and this machine's own name, as the local network may know it
            me = socket.gethostname().lower()
            names.update(("127.0.0.1", "[::1]", me, f"{me}.local"))
    if bound == "localhost":
        names.update(("127.0.0.1", "[::1]"))

    def allowed(host: str) -> bool:
        m = _HOST.fullmatch(host)
        if m is None or (m["port"] is not None and port is not None and int(m["port"]) != port):
            return False
        name = m["name"].lower()
        if name in names:
            return True
        if wildcard:
            try:
                ipaddress.ip_address(name.strip("[]"))
                return name.startswith("[") == (":" in name)  # v6 in brackets only
            except ValueError:
                return False
        return False

    return allowed


def takes_gzip(request: Request) -> bool:
    return any(c.split(";")[0].strip() in ("gzip", "*")
               for c in request.headers.get("accept-encoding", "").split(","))


def sent(body: bytes, media_type: str, headers: dict[str, str]) -> Response:
    """Returns a response that sends `body` a piece at a time (the server waits for a slow
    client before the next piece), from the one copy every client shares."""
    async def pieces() -> AsyncIterator[bytes]:
        view = memoryview(body)
        for at in range(0, len(body), PIECE):
            yield bytes(view[at:at + PIECE])

    return StreamingResponse(pieces(), media_type=media_type, headers={
        "Content-Length": str(len(body)), "Cache-Control": "no-store", **headers})
