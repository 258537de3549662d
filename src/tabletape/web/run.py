"""Runs a web application on a listening socket (uvicorn), its logs escaped."""

from __future__ import annotations

import logging
import socket

import uvicorn
from starlette.applications import Starlette

from tabletape.tape.events import visible


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
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    _escape_logs()
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
