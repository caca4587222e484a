"""The local gateway on a background thread, for tests (like moto's ``ThreadedMotoServer``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from types import TracebackType

from numbridge.local.accounts.sign_in import LocalSignIn
from numbridge.local.apigateway.gateway import GatewaySettings
from numbridge.local.apigateway.http_server import GatewayServer, base_url, bind
from numbridge.local.apigateway.origins import PublicUrl, ServerNames
from numbridge.local.lambdas.functions import Function, Invoker


class ThreadedGateway:
    """``with ThreadedGateway(routes) as gw:`` serves on ``gw.url`` / ``gw.ws_url``."""

    def __init__(
        self,
        routes: Mapping[str, Function],
        host: str = "127.0.0.1",
        port: int = 0,
        settings: GatewaySettings | None = None,
        sign_in: LocalSignIn | None = None,
        public_url: str | None = None,
    ) -> None:
        self._sock = bind(host, port)
        self.port: int = self._sock.getsockname()[1]
        self.url = base_url(host, self.port)
        self.ws_url = base_url(host, self.port, "ws") + "/"
        self.invoker = Invoker(max_workers=8)
        self.server = GatewayServer(routes, self.invoker, settings, sign_in=sign_in,
            names=ServerNames(host, PublicUrl.parse(public_url) if public_url else None))
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def management_key(self) -> bytes:
        """What ``@connections`` requests are signed with (management.sign_requests)."""
        return self.server.management.key

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop the server's sockets live on (in-process posts are run there)."""
        return self._loop

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(self._sock), self._loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
        self.invoker.shutdown()

    def __enter__(self) -> ThreadedGateway:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
