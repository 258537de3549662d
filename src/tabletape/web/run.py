"""Runs a web application on a listening socket (uvicorn), its logs escaped."""

from __future__ import annotations

import logging
import socket

import uvicorn
from starlette.applications import Starlette

from tabletape.tape.events import visible

SHUTDOWN = 1  # seconds given to the requests under way when the server stops


class _Escaped(logging.Filter):
    """Escapes what uvicorn logs (a request's path, a peer's bytes) at the one door."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = visible(record.getMessage()), None
        return True


def _escape_logs() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(_Escaped())


def run(app: Starlette, sock: socket.socket) -> None:
    """Serves `app` on `sock` until interrupted (Ctrl-C); closes the socket."""
    # a page's stream (serve --play) never ends by itself: on Ctrl-C the server waits this
    # long for the requests under way, then closes the streams (each page reconnects)
    config = uvicorn.Config(app, log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=SHUTDOWN)
    _escape_logs()
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
