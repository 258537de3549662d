"""`tabletape serve`: the viewer as a local web page that follows the log as it grows.

Two read-only routes: `/`, the viewer page with the log as it is now, and
`/data?v=VERSION`, which the page polls every half second: 204 while the log is
unchanged, else the new data. The log is only ever read (GET routes only; nothing is
written, not even a checkpoint index). Each version's page and data are encoded once
(app.live) and sent from that one copy to every client, a piece at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tabletape.app import live
from tabletape.web.guard import Guard, host_check, sent, takes_gzip


def app_for(path: str, allowed: Callable[[str], bool] | None = None,
            told: Callable[[str], None] | None = None,
            follower: live.Follower | None = None) -> Starlette:
    """Returns the web application that shows the log at `path`.

    `allowed` tests a request's Host (default: `localhost`, 127.0.0.1 and [::1], any
    port); `told` hears what the console should: the log's changes, refused hosts.
    """
    follower = follower or live.Follower(path, told)
    looking = asyncio.Lock()  # one look at a time; the others then find it done

    async def shown() -> live.Shown:
        async with looking:
            return await run_in_threadpool(follower.look)

    async def page(request: Request) -> Response:
        now = await shown()
        encoded = await run_in_threadpool(now.encoded)
        return sent(encoded.page, "text/html; charset=utf-8", {})

    async def data(request: Request) -> Response:
        now = await shown()
        if request.query_params.get("v") == now.version:
            return Response(status_code=204, headers={"Cache-Control": "no-store"})
        encoded = await run_in_threadpool(now.encoded)
        if takes_gzip(request):
            return sent(encoded.data_gz, "application/json",
                         {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return sent(await run_in_threadpool(encoded.data), "application/json",
                     {"Vary": "Accept-Encoding"})

    def refused(host: str) -> None:
        if told is not None:
            told(f"refused a request for Host {host!r}: not a name of this server")

    return Starlette(routes=[Route("/", page), Route("/data", data)],
                     middleware=[Middleware(Guard, allowed=allowed or host_check("localhost"),
                                            refused=refused)])
