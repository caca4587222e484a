"""One HTTP server for both faces of API Gateway: the WebSocket endpoint and ``@connections``."""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path

from aiohttp import web

from numbridge.local.accounts.sign_in import LocalSignIn
from numbridge.local.apigateway.gateway import Gateway, GatewaySettings
from numbridge.local.apigateway.gateway_events import STAGE
from numbridge.local.apigateway.management import ManagementApi
from numbridge.local.apigateway.origins import ServerNames, guard
from numbridge.local.apigateway.sockets import ConnectionRegistry
from numbridge.local.apigateway.static import StaticClient, default_root
from numbridge.local.lambdas.functions import Function, Invoker


def bind(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) socket: the port is ours, clients are refused until ready."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def base_url(host: str, port: int, scheme: str = "http") -> str:
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


class GatewayServer:
    """The local API Gateway: routes to functions, connections, and the HTTP server.

    It also serves the browser client (``web/``, see :mod:`numbridge.local.apigateway.static`):
    ``web_root`` names its directory (default: the checkout's ``web/``, when it
    exists); ``serve_client=False`` turns it off. With ``sign_in`` it also serves
    local accounts (:mod:`numbridge.local.accounts.sign_in`). Every request must be
    for this server (``names``, :mod:`numbridge.local.apigateway.origins`).
    """

    def __init__(
        self,
        routes: Mapping[str, Function],
        invoker: Invoker,
        settings: GatewaySettings | None = None,
        *,
        serve_client: bool = True,
        web_root: Path | None = None,
        sign_in: LocalSignIn | None = None,
        names: ServerNames | None = None,
    ) -> None:
        self.names = names or ServerNames()
        self.registry = ConnectionRegistry()
        self.gateway = Gateway(routes, invoker, self.registry, settings)
        self.management = ManagementApi(self.registry, self.gateway.close)  # its own key
        root = (web_root or default_root()) if serve_client else None
        self.client = StaticClient(root) if root is not None else None
        self.sign_in = sign_in
        self._runner: web.AppRunner | None = None

    async def _root(self, request: web.Request) -> web.StreamResponse:
        """``/``: the page for a browser, the WebSocket endpoint for everything else."""
        if self.client is not None and self.client.wants_page(request):
            return await self.client.index(request)
        return await self.gateway.handle(request)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[guard(self.names)])
        app.router.add_get("/", self._root)
        app.router.add_get(f"/{STAGE}", self.gateway.handle)
        if self.client is not None:
            self.client.add_routes(app)
        if self.sign_in is not None:
            self.sign_in.add_routes(app)
        self.management.add_routes(app)
        return app

    async def start(self, sock: socket.socket) -> None:
        """Serve on a socket from :func:`bind`."""
        self._runner = web.AppRunner(self.application(), handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close every connection with 1001 (their ``$disconnect`` handlers run), then stop."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
