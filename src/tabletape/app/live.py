"""`tabletape serve`: the viewer as a local web page that follows the log as it grows.

A Starlette application (the `view` extra) with two read-only routes: `/`, the
viewer page with the log as it is now, and `/data?v=VERSION`, which the page polls
every half second: 204 while the log is unchanged, else the new data. The log is
only ever read (GET routes only; nothing is written, not even a checkpoint index).

The log's state follows the file as the index's custody does: its stamp (device,
inode, size, mtime, ctime) taken once the file system's clock has passed its last
change, and its last bytes re-read and compared. A log that can no longer be read
(deleted, emptied, its header broken) is shown as such, never as the state last read.
Each version's page and data are encoded and compressed once, off the event loop, and
sent from that one copy to every client, a piece at a time.

A server is reachable by mistake: only requests whose `Host` names this server are
answered (a page elsewhere that rebinds its DNS name to 127.0.0.1 gets a 400), and every
response carries a Content-Security-Policy that lets the page run its own script only.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import ipaddress
import json
import os
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tabletape.app import viewer
from tabletape.tape.errors import TapeError
from tabletape.tape.log import Stamp

# level 6, measured on a 10,000-event log (17.3 MB of JSON): 0.09 s and 616 kB, where
# level 9 took 0.25 s for 561 kB and level 1 0.05 s for 1.19 MB
GZIP_LEVEL = 6
PIECE = 1 << 16  # what a response sends at a time: a stalled client holds this, not the page
TAIL = 1 << 14  # the last bytes of the log re-read on every look (its head line and more)
SETTLE_NS = 30_000_000  # a file system's clock ticks every 1-10 ms: a stamp this old is final


# -- the log as the page shows it --------------------------------------------------------

@dataclass
class Encoded:
    """One version's page and data, encoded once for every client."""

    page: bytes  # the viewer page, HTML
    data_gz: bytes  # the data, JSON, gzipped (sent as is to every client that takes gzip)
    _data: bytes | None = None

    def data(self) -> bytes:
        """Returns the data as plain JSON (for a client that does not take gzip; kept)."""
        if self._data is None:
            self._data = gzip.decompress(self.data_gz)
        return self._data


@dataclass
class Shown:
    """What the page shows of the log now: its Book and what the file was when read."""

    book: viewer.Book
    stamp: Stamp | None = None  # None: there was no file to stamp
    settled: bool = True  # the stamp was final: any later change gives another one
    tail: bytes = b""  # the log's last bytes when the stamp was taken
    error: Exception | None = None  # why the log cannot be read, if it cannot
    _encoded: Encoded | None = field(default=None, repr=False)
    _encoding: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def version(self) -> str:
        return self.book.version

    def encoded(self) -> Encoded:
        """Returns the page and data of this version, encoded by the first caller only
        (the others wait for it). Slow on a long log: call it off the event loop."""
        with self._encoding:
            if self._encoded is None:
                data = viewer.data_json(self.book, live=True)
                gz = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
                self._encoded = Encoded(viewer.html_packed(self.book, gz).encode(), gz)
        return self._encoded


def unreadable(path: str, why: str) -> viewer.Book:
    """Returns the Book of a log that cannot be read: no events, and why."""
    return viewer.Book(path, ok=False, verdict=f"unreadable: {why}")


def _why(e: Exception) -> str:
    if isinstance(e, FileNotFoundError):
        return "the file is gone (deleted or moved)"
    if isinstance(e, TapeError):
        return f"line {e.line}: {e.reason}" if e.line is not None else e.reason
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return f"{type(e).__name__}: {e}"


def _stat(path: str) -> Stamp:
    return Stamp.of(os.stat(path))


def _stamp(path: str) -> tuple[Stamp, bool]:
    """Returns the log's stamp, waited for (briefly) until the file system's clock has
    passed its last change, and whether it has: then any later change shows in it."""
    for _ in range(10):
        stamp = _stat(path)
        age = time.time_ns() - stamp.ctime_ns
        if age >= SETTLE_NS:
            return stamp, True
        if age < 0:  # a ctime ahead of our clock (a remote file system): never final
            return stamp, False
        time.sleep((SETTLE_NS - age) / 1e9)
    return stamp, False


def _tail(path: str, size: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(max(0, size - TAIL))
        return f.read(TAIL)


class Follower:
    """The log's latest state, rebuilt (drawing only new seqs) when the file changes.

    `look` is blocking (a stat and a small read, or a fold of the log): call it off the
    event loop. `told` hears each change of the log's state, one line, for the console.
    """

    def __init__(self, path: str, told: Callable[[str], None] | None = None,
                 rules: str | None = None):
        self.path = path
        self.rules = rules  # the rules version judging (None: the recorded one)
        self.told = told
        self.shown: Shown | None = None
        self.drawn: viewer.Book | None = None  # the last book read: its drawings are reused
        self._lock = threading.Lock()

    def look(self) -> Shown:
        """Returns the log's state now (as last read, when the file is as it was then)."""
        with self._lock:
            shown = self.shown
            if shown is None or not self._same(shown):
                shown = self._read()
                if self.told is not None and (self.shown is None
                                              or shown.book.verdict != self.shown.book.verdict):
                    self.told(self._news(shown))  # valid, broken, unreadable: not every append
                self.shown = shown
            return shown

    def _same(self, shown: Shown) -> bool:
        """Returns True when the file is the one `shown` was read from, unchanged."""
        if not shown.settled:
            return False
        try:
            stamp = _stat(self.path)
            return stamp == shown.stamp and _tail(self.path, stamp.size) == shown.tail
        except OSError:
            return shown.stamp is None  # gone, as it was

    def _read(self) -> Shown:
        path = self.path
        try:
            stamp, settled = _stamp(path)
            tail = _tail(path, stamp.size)
        except OSError as e:
            return Shown(unreadable(path, _why(e)), error=e)
        try:
            book = viewer.build(path, self.drawn, self.rules)
        except (TapeError, OSError, RecursionError, ValueError) as e:
            # a broken header, an empty file, or a file that is not a log: shown as such
            return Shown(unreadable(path, _why(e)), stamp, settled, tail, e)
        except Exception as e:  # a fault of ours: said on the page, never a 500
            why = f"tabletape failed to read it ({type(e).__name__}: {e}); please report this"
            return Shown(unreadable(path, why), stamp, settled, tail, e)
        self.drawn = book
        return Shown(book, stamp, settled, tail)

    def _news(self, shown: Shown) -> str:
        book = shown.book
        if not book.events:
            return f"{self.path}: {book.verdict}"
        return f"{self.path}: {book.events} lines (seq 0-{book.events - 1}), {book.verdict}"


# -- the web application ------------------------------------------------------------------

def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy(page: str | None = None) -> str:
    """Returns the page's Content-Security-Policy: its own inline script and style by hash,
    `data` from this server, nothing else (no frames, forms, plug-ins or base URL).

    `page` is the page served (default: the viewer's; `serve --play` serves its own)."""
    if page is None:
        from tabletape.app.viewer_page import PAGE
        page = PAGE
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


def _takes_gzip(request: Request) -> bool:
    return any(c.split(";")[0].strip() in ("gzip", "*")
               for c in request.headers.get("accept-encoding", "").split(","))


def _sent(body: bytes, media_type: str, headers: dict[str, str]) -> Response:
    """Returns a response that sends `body` a piece at a time (the server waits for a slow
    client before the next piece), from the one copy every client shares."""
    async def pieces() -> AsyncIterator[bytes]:
        view = memoryview(body)
        for at in range(0, len(body), PIECE):
            yield bytes(view[at:at + PIECE])

    return StreamingResponse(pieces(), media_type=media_type, headers={
        "Content-Length": str(len(body)), "Cache-Control": "no-store", **headers})


def app_for(path: str, allowed: Callable[[str], bool] | None = None,
            told: Callable[[str], None] | None = None,
            follower: Follower | None = None) -> Starlette:
    """Returns the web application that shows the log at `path`.

    `allowed` tests a request's Host (default: `localhost`, 127.0.0.1 and [::1], any
    port); `told` hears what the console should: the log's changes, refused hosts.
    """
    follower = follower or Follower(path, told)
    looking = asyncio.Lock()  # one look at a time; the others then find it done

    async def shown() -> Shown:
        async with looking:
            return await run_in_threadpool(follower.look)

    async def page(request: Request) -> Response:
        now = await shown()
        encoded = await run_in_threadpool(now.encoded)
        return _sent(encoded.page, "text/html; charset=utf-8", {})

    async def data(request: Request) -> Response:
        now = await shown()
        if request.query_params.get("v") == now.version:
            return Response(status_code=204, headers={"Cache-Control": "no-store"})
        encoded = await run_in_threadpool(now.encoded)
        if _takes_gzip(request):
            return _sent(encoded.data_gz, "application/json",
                         {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return _sent(await run_in_threadpool(encoded.data), "application/json",
                     {"Vary": "Accept-Encoding"})

    def refused(host: str) -> None:
        if told is not None:
            told(f"refused a request for Host {host!r}: not a name of this server")

    return Starlette(routes=[Route("/", page), Route("/data", data)],
                     middleware=[Middleware(Guard, allowed=allowed or host_check("localhost"),
                                            refused=refused)])


# -- `serve --play`: each seat's page and its writes -------------------------------------

def _origin_ok(request: Request) -> bool:
    """Returns True when a write comes from this server's own page: its `Origin` names the
    `Host` the request was sent to (which the Guard checked), over http."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is not None and origin == f"http://{host}"


async def _body(request: Request) -> dict:
    """Returns a write's JSON object, or raises play.Refused (400, 413, 415)."""
    from tabletape.app.play import MAX_BODY, Refused
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, "a write is JSON (Content-Type: application/json)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(413, f"a write is at most {MAX_BODY} bytes")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "a write is one JSON object") from None
    except RecursionError:  # a body nested past the parser's depth: hostile, never a 500
        raise Refused(400, "a write is one JSON object, nested a few levels at most") from None
    if not isinstance(body, dict):
        raise Refused(400, "a write is one JSON object")
    return body


def play_app(table: Any, seats: Any, allowed: Callable[[str], bool] | None = None,
             told: Callable[[str], None] | None = None) -> Starlette:
    """Returns the web application of `serve --play`: the shared page at `/`, each seat's
    page at `/p/TOKEN`, and its writes (POST `/p/TOKEN/event`, `note`, `undo`).

    `table` is a `play.Table`, `seats` its `play.Seats`. An unknown token is a 404 and
    writes nothing; a write from another origin is a 403.
    """
    from tabletape.app import play, play_page

    page_bytes = play_page.PAGE.encode()
    cached: dict[tuple[Any, str], tuple[str, bytes]] = {}  # (seat, log stamp) -> data
    guard = threading.Lock()

    def shown(seat: play.Seat) -> tuple[str, bytes]:
        try:
            stamp = _stat(table.path)
            key = (seat, f"{stamp}-{table.asked}")  # the seat itself: the umpire is no name
        except OSError:
            key = None
        with guard:
            if key is not None and key in cached:
                return cached[key]
        data = table.shown(seat)
        out = (data["version"], json.dumps(data).encode())
        if key is not None and (time.time_ns() - stamp.ctime_ns) >= SETTLE_NS:
            with guard:
                if len(cached) > 64:
                    cached.clear()
                cached[key] = out
        return out

    def seat_of(request: Request) -> play.Seat | None:
        token = request.path_params.get("token")
        if token is None:
            return play.PUBLIC
        return seats.find(token)

    def refused(status: int, message: str, rule: str | None = None) -> Response:
        return JSONResponse({"message": message, "rule": rule}, status_code=status,
                            headers={"Cache-Control": "no-store"})

    async def page(request: Request) -> Response:
        if seat_of(request) is None:
            return PlainTextResponse("no such seat", status_code=404)
        return Response(page_bytes, media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return PlainTextResponse("no such seat", status_code=404)
        try:
            version, body = await run_in_threadpool(shown, seat)
        except Exception as e:  # a fault of ours: said on the page, never a traceback
            return refused(500, f"tabletape failed to draw the table ({type(e).__name__}); "
                                "please report this")
        if request.query_params.get("v") == version:
            return Response(status_code=204, headers={"Cache-Control": "no-store"})
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    def write(act: Callable[[play.Table, play.Seat, dict], str]) -> Callable:
        async def endpoint(request: Request) -> Response:
            seat = seat_of(request)
            if seat is None or seat is play.PUBLIC:
                return refused(404, "no such seat; nothing was written")
            if not _origin_ok(request):
                return refused(403, "a write must come from this server's own page "
                                    "(Origin); nothing was written")
            try:
                table.limit(seat)
                body = await _body(request)
                said = await run_in_threadpool(act, table, seat, body)
            except play.Refused as e:
                return refused(e.status, e.message, e.rule)
            except Exception as e:  # a fault of ours: said, never a traceback to the page
                return refused(500, f"tabletape failed ({type(e).__name__}); nothing may "
                                    "have been written: reload the page")
            if told is not None:  # the seq, not the sentence: a drawn card is the player's
                told(f"{'the umpire' if seat.umpire else seat.name}: {said.partition(':')[0]}")
            return JSONResponse({"message": said}, headers={"Cache-Control": "no-store"})
        return endpoint

    def host_refused(host: str) -> None:
        if told is not None:
            told(f"refused a request for Host {host!r}: not a name of this server")

    routes = [Route("/", page), Route("/state", state),
              Route("/p/{token}", page), Route("/p/{token}/", page),
              Route("/p/{token}/state", state),
              Route("/p/{token}/event", write(play.Table.enter), methods=["POST"]),
              Route("/p/{token}/note", write(play.Table.note), methods=["POST"]),
              Route("/p/{token}/undo", write(play.Table.undo), methods=["POST"])]
    return Starlette(routes=routes,
                     middleware=[Middleware(Guard, allowed=allowed or host_check("localhost"),
                                            refused=host_refused, page=play_page.PAGE)])
