"""`tabletape serve`: the viewer as a local web page that follows the log as it grows.

A Starlette application (the `view` extra) with two read-only routes: `/`, the
viewer page with the log as it is now, and `/data?v=VERSION`, which the page polls
every half second: 204 while the log is unchanged, else the new data. The log is
only ever read (GET routes only; nothing is written, not even a checkpoint index).
"""

from __future__ import annotations

import asyncio
import os

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tabletape.app import viewer
from tabletape.tape.errors import TapeError


class Follower:
    """The log's latest Book, rebuilt (drawing only new seqs) when the file changes."""

    def __init__(self, path: str):
        self.path = path
        self.book: viewer.Book | None = None
        self.key: tuple[int, int] | None = None
        self.lock = asyncio.Lock()

    async def current(self) -> viewer.Book:
        async with self.lock:
            try:
                st = os.stat(self.path)
                key = (st.st_size, st.st_mtime_ns)
                if key != self.key or self.book is None:
                    self.book = await asyncio.to_thread(viewer.build, self.path, self.book)
                    self.key = key
            except (TapeError, OSError):
                if self.book is None:
                    raise
            return self.book


def app_for(path: str) -> Starlette:
    """Returns the web application that shows the log at `path`."""
    follower = Follower(path)

    async def page(request: Request) -> Response:
        return HTMLResponse(viewer.html(await follower.current(), live=True),
                            headers={"Cache-Control": "no-store"})

    async def data(request: Request) -> Response:
        book = await follower.current()
        if request.query_params.get("v") == book.version:
            return Response(status_code=204)
        return Response(viewer.data_json(book, live=True), media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    return Starlette(routes=[Route("/", page), Route("/data", data)])
