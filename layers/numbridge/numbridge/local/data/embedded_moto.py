"""moto's server in-process, with DynamoDB's requests taken one at a time.

DynamoDB applies each request (a transaction included) atomically; moto's
backend checks a transaction's conditions and then writes without a lock, so
two handler threads could interleave inside it and both win a conditional
write. Serialising DynamoDB's requests restores the guarantee the handlers'
conditional writes rely on. SQS requests still run concurrently.

It answers this machine only, and no page: it listens on 127.0.0.1, takes only
requests whose ``Host`` is a loopback name (a DNS-rebinding page names its own
host), and runs without moto's global CORS, which would let a page of any
origin read and write the club.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from moto.moto_server import werkzeug_app
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from moto.server import ThreadedMotoServer
from werkzeug.serving import make_server

from numbridge.local.apigateway.origins import ServerNames
from numbridge.local.data import moto_scaled

# MOTO_DISABLE_GLOBAL_CORS, read once when moto is imported; the app reads this copy
# each time it builds a service's backend app.
setattr(werkzeug_app, "DISABLE_GLOBAL_CORS", True)  # noqa: B010 (not exported)
LOOPBACK = ServerNames("127.0.0.1")
moto_scaled.install()

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def one_dynamodb_request_at_a_time(app: Wsgi) -> Wsgi:
    lock = threading.Lock()

    def serialised(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not str(environ.get("HTTP_X_AMZ_TARGET", "")).startswith("DynamoDB"):
            return app(environ, start_response)
        with lock:
            return list(app(environ, start_response))  # the whole answer, inside the lock

    return serialised


def loopback_hosts_only(app: Wsgi) -> Wsgi:
    def checked(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not LOOPBACK.host_ok(environ.get("HTTP_HOST"), None):
            start_response("421 Misdirected Request", [("Content-Type", "text/plain")])
            return [b"Misdirected Request\n"]
        return app(environ, start_response)

    return checked


class EmbeddedMoto(ThreadedMotoServer):
    """``ThreadedMotoServer`` whose app serialises DynamoDB requests, for this machine only."""

    def _server_entry(self) -> None:
        app = loopback_hosts_only(one_dynamodb_request_at_a_time(
            DomainDispatcherApplication(create_backend_app)))
        self._server = make_server(
            self._ip_address, self._port, app, True, request_handler=MotoRequestHandler
        )
        self._server_ready_event.set()
        self._server.serve_forever()
