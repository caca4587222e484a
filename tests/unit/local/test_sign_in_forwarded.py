"""The per-address failure limit behind a TLS proxy: each player's own address (the
right-most ``X-Forwarded-For`` the proxy wrote), not the proxy's one for everybody; and
a header honoured from a proxy the host trusts only (``--trusted-proxy``; loopback by
default with ``--public-url``)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from local_fakes import Recorder
from numbridge.local.accounts.attempts import ADDRESS_BURST, Attempts
from numbridge.local.accounts.sign_in import PATH, client_address
from numbridge.local.apigateway.origins import (
    LOOPBACK_PROXIES,
    NO_PROXIES,
    TrustedProxies,
)
from numbridge.local.lambdas.functions import Function
from numbridge.local.threaded import ThreadedGateway
from numbridge.store.sqlite import SqliteStore
from testkit.accounts import PASSWORD, local_sign_in

SECRET = "forwarded-test-secret-0123456789abcdef"


def request(peer: str, *forwarded: str) -> web.Request:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda key, default=None: (
        (peer, 40000) if key == "peername" else default)
    headers = [("X-Forwarded-For", value) for value in forwarded]
    return make_mocked_request("POST", PATH, headers=headers, transport=transport)


NAMED = TrustedProxies.of(["10.0.0.2", "2001:db8:1::/64"], public_url=True)


@pytest.mark.parametrize(("peer", "forwarded", "proxies", "charged"), [
    ("127.0.0.1", ["203.0.113.7"], LOOPBACK_PROXIES, "203.0.113.7"),
    ("::1", ["2001:db8::1"], LOOPBACK_PROXIES, "2001:db8::1"),
    ("::ffff:127.0.0.1", ["203.0.113.7"], LOOPBACK_PROXIES, "203.0.113.7"),
    # the client's own header comes first; the proxy appends the address it saw
    ("127.0.0.1", ["10.9.9.9, 198.51.100.2"], LOOPBACK_PROXIES, "198.51.100.2"),
    ("127.0.0.1", ["10.9.9.9", "198.51.100.2"], LOOPBACK_PROXIES, "198.51.100.2"),
    # not written by a proxy: the peer's
    ("127.0.0.1", ["198.51.100.2, not-an-address"], LOOPBACK_PROXIES, "127.0.0.1"),
    ("127.0.0.1", [], LOOPBACK_PROXIES, "127.0.0.1"),
    # no proxy trusted (no --public-url, no --trusted-proxy): nobody's header is believed
    ("127.0.0.1", ["203.0.113.7"], NO_PROXIES, "127.0.0.1"),
    # a peer that is not the proxy on this machine (a LAN player) chooses nothing
    ("192.168.1.20", ["203.0.113.7"], LOOPBACK_PROXIES, "192.168.1.20"),
    # proxies the host named: those, and no longer loopback
    ("10.0.0.2", ["203.0.113.7"], NAMED, "203.0.113.7"),
    ("2001:db8:1::9", ["203.0.113.7"], NAMED, "203.0.113.7"),
    ("127.0.0.1", ["203.0.113.7"], NAMED, "127.0.0.1"),
    ("10.0.0.3", ["203.0.113.7"], NAMED, "10.0.0.3"),
])
def test_the_address_charged(peer: str, forwarded: list[str], proxies: TrustedProxies,
                             charged: str) -> None:
    """Caught: with --public-url any loopback peer's X-Forwarded-For was believed, and a
    proxy the host named was not: another process on the machine, or a player behind
    the named proxy, chose the bucket its guesses were charged to."""
    assert client_address(request(peer, *forwarded), proxies) == charged


def test_the_proxies_trusted() -> None:
    """Caught: loopback trusted beside the proxies the host named (not instead of them),
    or a --trusted-proxy that is no address taken silently."""
    assert TrustedProxies.of([], public_url=False) == NO_PROXIES
    assert TrustedProxies.of([], public_url=True) == LOOPBACK_PROXIES
    assert "127.0.0.1" not in TrustedProxies.of(["::1"], public_url=True)
    assert "[::1]" in TrustedProxies.of(["::1"], public_url=False)
    with pytest.raises(ValueError, match="--trusted-proxy"):
        TrustedProxies.of(["proxy.example"], public_url=True)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "accounts.db", synchronous="NORMAL")
    yield opened
    opened.close()


def serving(recorder: Recorder, store: SqliteStore, behind_proxy: bool) -> ThreadedGateway:
    routes = {"$connect": Function("connect", recorder.handler("connect")),
              "$disconnect": Function("disconnect", recorder.handler("disconnect"))}
    return ThreadedGateway(routes, sign_in=local_sign_in(
        store, SECRET, attempts=Attempts(lambda: 1000.0),
        proxies=LOOPBACK_PROXIES if behind_proxy else NO_PROXIES))


def sign_in(gw: ThreadedGateway, name: str, password: str, forwarded: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=30)
    try:
        conn.request("POST", PATH, body=json.dumps({"name": name, "password": password}),
                     headers={"Content-Type": "application/json",
                              "X-Forwarded-For": forwarded})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def exhaust(gw: ThreadedGateway, forwarded: str) -> list[int]:
    """Wrong passwords for many names (never one name's limit) from one player."""
    return [sign_in(gw, f"p{n}", "a wrong password", forwarded)
            for n in range(ADDRESS_BURST + 2)]


def test_behind_the_proxy_each_player_has_a_bucket_of_their_own(
        recorder: Recorder, store: SqliteStore) -> None:
    with serving(recorder, store, behind_proxy=True) as gw:
        for n in range(ADDRESS_BURST + 2):
            assert sign_in(gw, f"p{n}", PASSWORD, "192.0.2.1") in (200, 429)
        statuses = exhaust(gw, "203.0.113.7")
        assert statuses[-1] == 429  # the guesser's own address runs out...
        # ...and sending another address first does not give it a fresh one
        assert sign_in(gw, "p0", "a wrong password", "192.0.2.99, 203.0.113.7") == 429
        # another player behind the same proxy still signs in
        assert sign_in(gw, "p1", PASSWORD, "198.51.100.2") == 200


def test_without_a_public_url_the_header_is_not_believed(
        recorder: Recorder, store: SqliteStore) -> None:
    with serving(recorder, store, behind_proxy=False) as gw:
        for n in range(3):
            assert sign_in(gw, f"p{n}", PASSWORD, "192.0.2.1") == 200
        statuses = exhaust(gw, "203.0.113.7")
        assert statuses[-1] == 429
        # a forged header does not buy a fresh bucket: the peer's is spent
        assert sign_in(gw, "p1", PASSWORD, "198.51.100.2") == 429
