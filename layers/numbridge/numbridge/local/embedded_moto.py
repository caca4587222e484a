"""moto's server in-process, with DynamoDB's requests taken one at a time.

DynamoDB applies each request (a transaction included) atomically; moto's
backend checks a transaction's conditions and then writes without a lock, so
two handler threads could interleave inside it and both win a conditional
write. Serialising DynamoDB's requests restores the guarantee the handlers'
conditional writes rely on. SQS requests still run concurrently.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from moto.server import ThreadedMotoServer
from werkzeug.serving import make_server

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def one_dynamodb_request_at_a_time(app: Wsgi) -> Wsgi:
    lock = threading.Lock()

    def serialised(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not str(environ.get("HTTP_X_AMZ_TARGET", "")).startswith("DynamoDB"):
            return app(environ, start_response)
        with lock:
            return list(app(environ, start_response))  # the whole answer, inside the lock

    return serialised


class EmbeddedMoto(ThreadedMotoServer):
    """``ThreadedMotoServer`` whose app serialises DynamoDB requests."""

    def _server_entry(self) -> None:
        app = one_dynamodb_request_at_a_time(DomainDispatcherApplication(create_backend_app))
        self._server = make_server(
            self._ip_address, self._port, app, True, request_handler=MotoRequestHandler
        )
        self._server_ready_event.set()
        self._server.serve_forever()
