"""The side doors of sign-in, against the real ``numbridge serve``: guesses sent at once,
a name an operator's token holds, names told apart by their refusals, an address forged
from a peer that is no trusted proxy, and a second ``token`` at the handshake."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from e2e_server import LocalServer
from numbridge.local.data.datadir import token_secret
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

PASSWORD = "ana's long password"
GUESS = "a guess that is wrong"
NAME_BURST = 5  # attempts.NAME_BURST, as the docs say it
ADDRESS_BURST = 20  # attempts.ADDRESS_BURST


def numbridge(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "numbridge", *args], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def post(server: LocalServer, name: str, password: str, source: str = "127.0.0.1",
         forwarded: str | None = None) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120,
                                      source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    try:
        conn.request("POST", "/local/token", body=json.dumps(
            {"name": name, "password": password}), headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def handshake(server: LocalServer, query: str) -> int:
    try:
        with connect(f"{server.ws_url}?{query}", open_timeout=10):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[LocalServer]:
    server = LocalServer(tmp_path / "data", tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def test_sixty_guesses_sent_at_once_get_no_more_tries_than_the_names_limit(
        sqlite_server: LocalServer) -> None:
    """Before: the limits were checked before the Argon2 work was queued and charged after
    it ended: 60 wrong passwords sent at once for one name were all tried (sixty 401s)."""
    assert post(sqlite_server, "ana", PASSWORD)[0] == 200
    with ThreadPoolExecutor(60) as pool:
        answers = list(pool.map(lambda _: post(sqlite_server, "ana", GUESS), range(60)))
    statuses = [status for status, _ in answers]
    assert statuses.count(401) <= NAME_BURST, statuses
    assert set(statuses) == {401, 429}  # the rest refused before any work, not queued


def test_an_operator_tokens_player_keeps_the_name_and_the_host_gives_it_a_password(
        local_server: LocalServer) -> None:
    """Before: the first POST /local/token with any password claimed a name that an
    operator token's connect had recorded (``numbridge token ana``, ``numbridge bot``'s
    robot) and revoked its owner's tokens."""
    server = local_server
    env = {**os.environ, "TOKEN_SECRET": token_secret(server.data_dir)}
    token = numbridge("token", "otto", *server.store_args(), env=env).strip()
    # Minted, not yet used: the name is already otto's (a sign-up in between would
    # take it, and the token would then enter that account).
    status, answer = server.sign_in("otto", PASSWORD)
    assert (status, answer["code"]) == (401, "bad_password")
    assert handshake(server, f"token={token}") == 101  # otto's record: no password
    status, answer = server.sign_in("otto", PASSWORD)
    assert (status, answer["code"]) == (401, "bad_password")
    assert handshake(server, f"token={token}") == 101  # still otto's
    reset = numbridge("account", "reset", "otto", *server.store_args())
    given = reset.rsplit("(shown once): ", 1)[1].strip()
    status, answer = server.sign_in("otto", given)
    assert status == 200 and answer["player"] == "otto"


def test_refusals_tell_no_names_apart_and_every_probe_is_counted(
        sqlite_server: LocalServer) -> None:
    """Before: a known name with a short password got 401 after a hash, an unknown one 400
    at once (never counted), a disabled one 403 before any check."""
    server = sqlite_server
    assert post(server, "ana", PASSWORD)[0] == 200
    assert post(server, "dora", PASSWORD)[0] == 200
    numbridge("account", "disable", "dora", "--data-dir", str(server.data_dir))
    short = {name: post(server, name, "seven77") for name in ("ana", "dora", "nobody")}
    assert len({json.dumps(a, sort_keys=True) for a in short.values()}) == 1, short
    assert short["nobody"][0] == 400 and short["nobody"][1]["code"] == "weak_password"
    assert post(server, "dora", GUESS) == post(server, "ana", GUESS) == (401, {
        "code": "bad_password", "error": "wrong password for this name"})
    # an unknown name's probes are counted like any other's
    statuses = [post(server, "nobody", "seven77")[0] for _ in range(NAME_BURST)]
    assert statuses[-1] == 429, statuses


def test_an_address_is_taken_from_x_forwarded_for_only_when_a_trusted_proxy_sends_it(
        tmp_path: Path) -> None:
    """Before: with --public-url, any loopback peer's X-Forwarded-For was believed: another
    user of the machine got a fresh bucket with every forged address."""
    server = LocalServer(tmp_path / "data", tmp_path, args=[
        "--public-url", "https://club.example", "--trusted-proxy", "127.0.0.2"])
    server.start()
    try:
        # a peer that is not the proxy, forging a new address each time: its own bucket
        statuses = [post(server, f"p{n}", "seven77", forwarded=f"198.51.100.{n}")[0]
                    for n in range(ADDRESS_BURST + 1)]
        assert statuses == [400] * ADDRESS_BURST + [429], statuses
        # the proxy's word is taken: that player has a bucket of their own
        status, _ = post(server, "q0", "seven77", source="127.0.0.2",
                         forwarded="10.9.9.9, 203.0.113.7")
        assert status == 400
    finally:
        server.kill()


def test_a_second_token_parameter_is_refused_at_the_handshake(
        sqlite_server: LocalServer) -> None:
    """Before: $connect read the last ``token`` and the expiry timer the first, so a
    long-lived token checked at the door kept a connection open past a short one's end."""
    ana, bob = sqlite_server.token("ana"), sqlite_server.token("bob")
    assert handshake(sqlite_server, f"token={ana}&token={bob}") == 400
    assert handshake(sqlite_server, f"token={ana}&token={ana}") == 400
    assert handshake(sqlite_server, f"token={ana}") == 101
