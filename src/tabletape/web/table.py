"""`tabletape serve FILE --play`: each seat's page at `/p/TOKEN`, the shared page at `/`,
and the writes the pages make (POST `/p/TOKEN/event`, `note`, `undo`).

What a seat is shown and what a write does are app.play's (a `Table`); here they are
routes, and its refusals are status codes (STATUS). A write's body is read here: JSON,
small, from this server's own page (its `Origin`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tabletape.app import live, play
from tabletape.web import play_page
from tabletape.web.guard import Guard, host_check

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


def play_app(table: play.Table, seats: play.Seats, allowed: Callable[[str], bool] | None = None,
             told: Callable[[str], None] | None = None) -> Starlette:
    """Returns the web application of `serve --play`: the shared page at `/`, each seat's
    page at `/p/TOKEN`, and its writes (POST `/p/TOKEN/event`, `note`, `undo`).

    `table` is a `play.Table`, `seats` its `play.Seats`. An unknown token is a 404 and
    writes nothing; a write from another origin is a 403.
    """
    page_bytes = play_page.PAGE.encode()
    cached: dict[tuple[play.Seat, str], tuple[str, bytes]] = {}  # (seat, log stamp) -> data
    guard = threading.Lock()

    def shown(seat: play.Seat) -> tuple[str, bytes]:
        try:
            stamp = live.stat(table.path)
            key = (seat, f"{stamp}-{table.asked}")  # the seat itself: the umpire is no name
        except OSError:
            key = None
        with guard:
            if key is not None and key in cached:
                return cached[key]
        data = table.shown(seat)
        out = (data.version, msgspec.json.encode(data))
        if key is not None and (time.time_ns() - stamp.ctime_ns) >= live.SETTLE_NS:
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
              Route("/p/{token}/undo", write(play.Table.undo), methods=["POST"]),
              Route("/p/{token}/setup", write(play.Table.setup), methods=["POST"])]
    return Starlette(routes=routes,
                     middleware=[Middleware(Guard, allowed=allowed or host_check("localhost"),
                                            refused=host_refused, page=play_page.PAGE)])
