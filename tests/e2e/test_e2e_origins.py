"""A page elsewhere cannot speak for a player: Host and Origin checks of ``numbridge serve``.

The server listens on 0.0.0.0 (as for a club on a LAN) and is reached through
127.0.0.1 as a DNS-rebinding page reaches it: its requests arrive at the
loopback address but name the attacker's host, or come from the attacker's
origin. Each is refused before any handler runs; the server's own names and
origin, its public URL's, and clients without an Origin are served.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
from collections.abc import Iterator, Mapping

import pytest
from e2e_server import LocalServer

PUBLIC = "https://club.example.org"
EVIL = "rebind.evil.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    tmp = tmp_path_factory.mktemp("origins")
    running = LocalServer(tmp / "data", tmp, args=["--host", "0.0.0.0", "--public-url", PUBLIC])
    running.start()
    try:
        yield running
    finally:
        running.kill()


def send(server: LocalServer, method: str, path: str, headers: Mapping[str, str],
         body: bytes | None = None) -> http.client.HTTPResponse:
    """A request to 127.0.0.1 with exactly these headers (a forged Host included)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    return connection.getresponse()


def upgrade(server: LocalServer, host: str, origin: str | None = None) -> int:
    """The status of a WebSocket handshake of a player with a valid token (bob's: ana's
    generation moves on as her password changes)."""
    headers = {"Host": host, "Upgrade": "websocket", "Connection": "Upgrade",
               "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
               "Sec-WebSocket-Version": "13"}
    if origin is not None:
        headers["Origin"] = origin
    response = send(server, "GET", f"/?token={server.token('bob')}", headers)
    status = response.status
    response.close()
    return status


def sign_in(server: LocalServer, host: str, origin: str | None = None,
            path: str = "/local/token") -> int:
    """The status of a sign-in (or, with ``path`` ``/local/password``, of a password
    change) of ana with her password."""
    headers = {"Host": host, "Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    body = {"name": "ana", "password": "ana's password"}
    if path == "/local/password":
        body["new_password"] = body["password"]
    response = send(server, "POST", path, headers, json.dumps(body).encode())
    status = response.status
    response.read()
    return status


def own(server: LocalServer) -> str:
    return f"127.0.0.1:{server.port}"


def test_a_host_that_is_not_this_server_is_misdirected(server: LocalServer) -> None:
    forged = f"{EVIL}:{server.port}"
    assert upgrade(server, forged) == 421
    assert sign_in(server, forged) == 421
    assert sign_in(server, forged, path="/local/password") == 421
    page = send(server, "GET", "/", {"Host": forged, "Accept": "text/html"})
    assert page.status == 421 and b"<html" not in page.read().lower()


def test_a_page_from_another_origin_is_forbidden(server: LocalServer) -> None:
    for origin in (f"http://{EVIL}", f"http://{EVIL}:{server.port}", "null",
                   f"http://127.0.0.1:{server.port + 1}", f"https://127.0.0.1:{server.port}"):
        assert upgrade(server, own(server), origin) == 403, origin
        assert sign_in(server, own(server), origin) == 403, origin
        assert sign_in(server, own(server), origin, "/local/password") == 403, origin


def test_this_servers_own_names_and_origin_are_served(server: LocalServer) -> None:
    for host in (own(server), f"localhost:{server.port}", f"LOCALHOST.:{server.port}"):
        assert upgrade(server, host) == 101, host
        assert upgrade(server, host, f"http://{host}") == 101, host
        assert sign_in(server, host, f"http://{host}") == 200, host
        assert sign_in(server, host, f"http://{host}", "/local/password") == 200, host
    page = send(server, "GET", "/", {"Host": own(server), "Accept": "text/html"})
    assert page.status == 200 and b"<html" in page.read().lower()


def test_the_public_url_names_this_server(server: LocalServer) -> None:
    assert upgrade(server, "club.example.org", PUBLIC) == 101
    assert upgrade(server, own(server), PUBLIC) == 101  # a proxy that sets its own Host
    assert sign_in(server, "club.example.org", PUBLIC) == 200
    assert upgrade(server, "club.example.org", "http://club.example.org") == 403


def test_a_client_without_origin_is_unaffected(server: LocalServer) -> None:
    with server.player("bob") as bob:  # the websockets client sends no Origin
        assert bob.request("rooms")["type"] == "rooms"


def test_the_banner_says_where_it_listens(server: LocalServer) -> None:
    log = server.log()
    assert f"Listening     0.0.0.0:{server.port} (every address of this machine)" in log
    assert f"http://127.0.0.1:{server.port}/ (on this machine)" in log
    assert f"{PUBLIC}/ (the public URL)" in log
    assert "WARNING" not in log  # behind TLS
