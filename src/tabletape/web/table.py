"""`tabletape serve FILE --play`: each seat's page at `/p/TOKEN`, the shared page at `/`,
and the writes the pages make (POST `/p/TOKEN/event`, `note`, `undo`, `rematch`).

What a seat is shown and what a write does are app.play's (a `Table`); here they are
routes, and its refusals are status codes (STATUS). A write's body is read here: JSON,
small, from this server's own page (its `Origin`).

Pushed, not polled: each page opens one stream of server-sent events (`/p/TOKEN/events`,
`/events` for the shared page) and is sent its own page data whenever the table's version
changes. Server-sent events rather than a WebSocket: the push is one-way (a page writes
with its ordinary POSTs, which carry the Origin check), it is plain HTTP through the same
Guard, Host check and CSP (`connect-src 'self'`), and the browser's EventSource reconnects
by itself. One watcher (`Hub`) follows the file for every stream: a stat of the one file
every POLL seconds while at least one stream is open, woken at once by the server's own
writes; with no page open nothing runs, and no page has a timer of its own on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from tabletape.app import live, play
from tabletape.web import play_page
from tabletape.web.guard import Guard, host_check

POLL = 0.2  # seconds between two stats of the log while a stream is open
PING = 30.0  # seconds between two comments on every stream (a proxy keeps it open)
KEPT = 32  # pages kept (per seat and version): the last versions' pages

# each domain refusal's HTTP status
STATUS: dict[type[play.Refused], int] = {
    play.Malformed: 400, play.NotYours: 403, play.Conflict: 409, play.TooMany: 429,
}


class Unsent(Exception):
    """A body no page of ours sends (not JSON, too big, not one object): its status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _origin_ok(request: Request) -> bool:
    """Returns True when a write comes from this server's own page: its `Origin` names the
    `Host` the request was sent to (which the Guard checked), over http."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is not None and origin == f"http://{host}"


async def _body(request: Request) -> dict[str, Any]:
    """Returns a write's JSON object, or raises Unsent (400, 413, 415)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Unsent(415, "a write is JSON (Content-Type: application/json)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > play.MAX_BODY:
            raise Unsent(413, f"a write is at most {play.MAX_BODY} bytes")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Unsent(400, "a write is one JSON object") from None
    except RecursionError:  # a body nested past the parser's depth: hostile, never a 500
        raise Unsent(400, "a write is one JSON object, nested a few levels at most") from None
    if not isinstance(body, dict):
        raise Unsent(400, "a write is one JSON object")
    return body


class Hub:
    """The one watcher of the log and the streams that wait on it.

    `watch` runs while at least one stream is open: a stat of the file every POLL seconds
    (no read while it is unchanged), a look at the table when it changed or when `poke`d
    (after a write of this server's), and every waiting stream woken when the table's
    version moves. It stops with the last stream.
    """

    def __init__(self, table: play.Table, poll: float = POLL):
        self.table, self.poll = table, poll
        self.version = ""  # the table's version as last seen
        self.streams = 0
        self._waiting: set[asyncio.Future[str]] = set()
        self._poked: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Asks the watcher to look now (a write of this server's, an undo asked)."""
        if self._poked is not None:
            self._poked.set()

    async def changed(self, seen: str) -> str:
        """Returns the table's version once it is not `seen` (at once if it is not now)."""
        if self.version and self.version != seen:
            return self.version
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._waiting.add(future)
        try:
            return await future
        finally:
            self._waiting.discard(future)

    @contextlib.asynccontextmanager
    async def joined(self) -> AsyncIterator[None]:
        """Counts a stream in for its life; the first starts the watcher, the last stops it."""
        self.streams += 1
        if self._task is None or self._task.done():
            self._poked = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._watch())
        try:
            yield
        finally:
            self.streams -= 1
            if self.streams == 0 and self._task is not None:
                self._task.cancel()
                self._task = None

    def _tell(self, version: str) -> None:
        self.version = version
        for future in list(self._waiting):
            if not future.done():
                future.set_result(version)

    async def _watch(self) -> None:
        stamp = None
        quiet = 0.0
        poked = self._poked
        assert poked is not None
        while True:
            try:
                now = live.stat(self.table.path)
            except OSError:
                now = None
            if now != stamp or poked.is_set() or not self.version or \
                    (now is not None and not live.settled(now)):
                poked.clear()
                stamp = now
                moment = await run_in_threadpool(self.table.now)
                if moment.version != self.version:
                    self._tell(moment.version)
            quiet += self.poll
            if quiet >= PING:
                quiet = 0.0
                self._tell(self.version)  # a comment on every stream: a dead one is found
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(poked.wait(), self.poll)


def play_app(table: play.Table, seats: play.Seats, allowed: Callable[[str], bool] | None = None,
             told: Callable[[str], None] | None = None, base: str | None = None,
             show_codes: bool = False) -> Starlette:
    """Returns the web application of `serve --play`: the shared page at `/`, each seat's
    page at `/p/TOKEN`, and its writes (POST `/p/TOKEN/event`, `note`, `undo`).

    `table` is a `play.Table`, `seats` its `play.Seats`. An unknown token is a 404 and
    writes nothing; a write from another origin is a 403. With `base` (the address the
    links were printed with) the umpire's page carries every seat's join link and QR code,
    and the shared page too with `show_codes`.
    """
    page_bytes = play_page.PAGE.encode()
    hub = Hub(table)
    codes = play.join_codes(seats, base) if base is not None else []
    cached: dict[tuple[play.Seat, str], bytes] = {}  # (seat, version) -> its page data
    guard = threading.Lock()

    def shown(seat: play.Seat) -> tuple[str, bytes]:
        """Returns the table's version now and `seat`'s page data at it, built once per
        seat and version (every seat's page from the table's one Moment)."""
        moment = table.now()
        key = (seat, moment.version)  # the seat itself: the umpire is no name
        with guard:
            if key in cached:
                return moment.version, cached[key]
        page = table.shown(seat, moment)
        if codes and (seat.umpire or (show_codes and seat is play.PUBLIC)):
            page = msgspec.structs.replace(page, codes=codes)
        body = msgspec.json.encode(page)
        with guard:
            if len(cached) >= KEPT:
                for old in [k for k in cached if k[1] != moment.version]:
                    del cached[old]
            cached[key] = body
        return moment.version, body

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

    async def events(request: Request) -> Response:
        """The seat's stream: its page data now, then again each time the table moves."""
        seat = seat_of(request)
        if seat is None:
            return PlainTextResponse("no such seat", status_code=404)
        seen = request.query_params.get("v", "")

        async def sent() -> AsyncIterator[bytes]:
            nonlocal seen
            async with hub.joined():
                yield b"retry: 2000\n\n"
                while True:
                    version = await hub.changed(seen)
                    if version == seen:
                        yield b": ping\n\n"
                        continue
                    try:
                        seen, body = await run_in_threadpool(shown, seat)
                    except Exception as e:  # a fault of ours: said, and the stream ends
                        yield b"event: fault\ndata: " + json.dumps(
                            f"tabletape failed to draw the table ({type(e).__name__})").encode() \
                            + b"\n\n"
                        return
                    yield b"event: page\ndata: " + body + b"\n\n"

        return StreamingResponse(sent(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    def write(act: Callable[[play.Table, play.Seat, dict[str, Any]], str]
              ) -> Callable[[Request], Awaitable[Response]]:
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
            except Unsent as e:
                return refused(e.status, e.message)
            except play.Refused as e:
                return refused(STATUS[type(e)], e.message, e.rule)
            except Exception as e:  # a fault of ours: said, never a traceback to the page
                return refused(500, f"tabletape failed ({type(e).__name__}); nothing may "
                                    "have been written: reload the page")
            hub.poke()  # every stream hears of it now, not at the next stat
            if told is not None:  # the seq, not the sentence: a drawn card is the player's
                told(f"{'the umpire' if seat.umpire else seat.name}: {said.partition(':')[0]}")
            return JSONResponse({"message": said}, headers={"Cache-Control": "no-store"})
        return endpoint

    def host_refused(host: str) -> None:
        if told is not None:
            told(f"refused a request for Host {host!r}: not a name of this server")

    routes = [Route("/", page), Route("/state", state), Route("/events", events),
              Route("/p/{token}", page), Route("/p/{token}/", page),
              Route("/p/{token}/state", state), Route("/p/{token}/events", events),
              Route("/p/{token}/event", write(play.Table.enter), methods=["POST"]),
              Route("/p/{token}/note", write(play.Table.note), methods=["POST"]),
              Route("/p/{token}/undo", write(play.Table.undo), methods=["POST"]),
              Route("/p/{token}/rematch", write(play.Table.rematch), methods=["POST"]),
              Route("/p/{token}/setup", write(play.Table.setup), methods=["POST"])]
    app = Starlette(routes=routes,
                    middleware=[Middleware(Guard, allowed=allowed or host_check("localhost"),
                                           refused=host_refused, page=play_page.PAGE)])
    app.state.hub = hub  # for the bench and the tests: its streams, its version
    return app
