"""Local accounts against the real ``numbridge serve``, on both stores: sign-up and
sign-in with a password, the host's ``numbridge account`` commands while it runs,
tokens refused at the handshake once revoked, a connection closed with 4001 when
its token expires, ``--open-sign-in`` refused off loopback and behind a
``--public-url``, a name alone refused by a server bound to 0.0.0.0, and an earlier player
claiming their name (the banner says so once)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jwt
import pytest
from argon2 import PasswordHasher
from e2e_server import LocalServer, ServerFailed
from numbridge.auth import issue_token
from numbridge.local.data.datadir import token_secret
from numbridge.store import keys
from numbridge.store.accounts import Account, Accounts
from numbridge.store.sqlite import SqliteStore
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

PASSWORD = "ana's long password"


def numbridge(*args: str, env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "numbridge", *args], capture_output=True,
                          text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})


def handshake(server: LocalServer, token: str) -> int:
    """The status of a WebSocket handshake with ``token`` (101: connected)."""
    try:
        with connect(f"{server.ws_url}?token={token}", open_timeout=10):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


def test_sign_up_sign_in_and_the_host_commands(local_server: LocalServer) -> None:
    server = local_server
    status, made = server.sign_in("Ana", PASSWORD)
    assert status == 200 and (made["player"], made["created"], made["claimed"]) == (
        "Ana", True, False)
    assert server.sign_in("ana", "not her password")[0] == 401
    status, again = server.sign_in("ANA", PASSWORD)
    assert status == 200 and again["player"] == "Ana" and again["created"] is False
    assert handshake(server, made["token"]) == 101

    listed = numbridge("account", "list", *server.store_args())
    assert listed.returncode == 0, listed.stderr
    assert "Ana" in listed.stdout and "password" in listed.stdout

    revoked = numbridge("account", "revoke", "ana", *server.store_args())
    assert revoked.returncode == 0 and "generation 1" in revoked.stdout, revoked.stderr
    assert handshake(server, made["token"]) == 401  # tokens from before the revoke
    status, fresh = server.sign_in("Ana", PASSWORD)
    assert status == 200 and handshake(server, fresh["token"]) == 101

    reset = numbridge("account", "reset", "Ana", *server.store_args())
    assert reset.returncode == 0, reset.stderr
    new_password = reset.stdout.rsplit("(shown once): ", 1)[1].strip()
    assert server.sign_in("Ana", PASSWORD)[0] == 401
    assert server.sign_in("Ana", new_password)[0] == 200
    assert handshake(server, fresh["token"]) == 401

    assert numbridge("account", "disable", "ana", *server.store_args()).returncode == 0
    status, refused = server.sign_in("Ana", new_password)
    assert (status, refused["code"]) == (403, "disabled")
    assert numbridge("account", "enable", "ana", *server.store_args()).returncode == 0
    status, back = server.sign_in("Ana", new_password)
    assert status == 200 and handshake(server, back["token"]) == 101

    missing = numbridge("account", "revoke", "nobody", *server.store_args())
    assert missing.returncode == 2 and "no player 'nobody'" in missing.stderr


def test_a_greek_or_bulgarian_name_makes_its_account(local_server: LocalServer) -> None:
    """Caught: "Γιώργος" and "Пламен" were answered 400 bad_name (ASCII names only)."""
    server = local_server
    status, made = server.sign_in("Γιώργος", PASSWORD)
    assert status == 200, made
    assert (made["player"], made["created"]) == ("Γιώργος", True)
    assert handshake(server, made["token"]) == 101
    status, again = server.sign_in("γιώργος", PASSWORD)  # one player in any case
    assert status == 200 and (again["player"], again["created"]) == ("Γιώργος", False)
    status, made = server.sign_in("Пламен", PASSWORD)
    assert status == 200 and made["player"] == "Пламен"
    listed = numbridge("account", "list", *server.store_args())
    assert "Γιώργος" in listed.stdout and "Пламен" in listed.stdout, listed.stderr


def test_a_taken_name_answers_name_taken(local_server: LocalServer) -> None:
    """Caught: a look-alike of a taken name was refused as bad_name ("ana" with a
    Cyrillic first letter) or made a second player ("sarn" beside "sam"), where it is
    the taken name's; and a name too long is refused, not cut."""
    server = local_server
    assert server.sign_in("ana", PASSWORD)[0] == 200
    assert server.sign_in("sam", PASSWORD)[0] == 200
    for look_alike in ("\u0430na", "sarn", "S\u0430m"):
        status, taken = server.sign_in(look_alike, "another long password 7")
        assert (status, taken["code"]) == (409, "name_taken"), (look_alike, taken)
    status, long = server.sign_in("a" * 40, PASSWORD)
    assert (status, long["code"]) == (400, "bad_name")
    listed = numbridge("account", "list", *server.store_args())
    assert listed.stdout.startswith("2 accounts"), listed.stdout


def test_a_record_of_an_earlier_version_signs_in_and_keeps_its_look_alikes_out(
        tmp_path: Path) -> None:
    """A data directory from before look-alikes folded alike: "Sam" under NAME#sam.
    Caught: such a record was neither moved at the server's start nor found under its
    earlier key: "SAM" made a second account, and "sarn", his look-alike now, was free."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    store = SqliteStore(data / "numbridge.db", synchronous="NORMAL")
    sam = Account(name="Sam", created_ms=1, password_hash=PasswordHasher().hash(PASSWORD))
    store.put({**sam.item(), "pk": keys.account("sam"), "gsi1sk": "sam"})
    store.close()
    server = LocalServer(data, tmp_path)
    server.start()
    try:
        status, signed = server.sign_in("SAM", PASSWORD)
        assert status == 200 and (signed["player"], signed["created"]) == ("Sam", False)
        status, taken = server.sign_in("sarn", PASSWORD)
        assert (status, taken["code"]) == (409, "name_taken")
    finally:
        server.kill()


def test_a_token_for_a_look_alike_of_a_player_is_refused_as_taken(
        local_server: LocalServer) -> None:
    """Caught: ``numbridge token sarn`` beside the player "sam" said "the player is called
    'sam'", as if "sarn" were his name in another spelling, not a look-alike of it."""
    server = local_server
    assert server.sign_in("sam", PASSWORD)[0] == 200
    secret = {"TOKEN_SECRET": token_secret(server.data_dir)}
    refused = numbridge("token", "sarn", *server.store_args(), env=secret)
    assert refused.returncode == 2, refused
    assert "'sarn' is taken" in refused.stderr and "'sam'" in refused.stderr, refused.stderr
    spelt = numbridge("token", "SAM", *server.store_args(), env=secret)
    assert spelt.returncode == 2 and "called 'sam'" in spelt.stderr, spelt.stderr


def a_data_dir(tmp_path: Path, *items: dict[str, Any]) -> Path:
    """A data directory whose store holds ``items`` (no server on it)."""
    data = tmp_path / "data"
    tmp_path.mkdir(exist_ok=True)
    data.mkdir(mode=0o700)
    store = SqliteStore(data / "numbridge.db", synchronous="NORMAL")
    for item in items:
        store.put(item)
    store.close()
    return data


def records(data: Path) -> dict[str, Account]:
    store = SqliteStore(data / "numbridge.db", synchronous="NORMAL")
    try:
        return {a.name: a for a in Accounts(store).all()}
    finally:
        store.close()


def test_the_host_commands_never_reach_a_look_alikes_record(tmp_path: Path) -> None:
    """Caught: ``numbridge account reset sarn`` (or revoke, disable) found the record of
    "sam", whose look-alike "sarn" is, and changed it: the host gave sam's account a new
    password, printed for "sarn"; and with "sam" a player of games from before records,
    reset made sam a record with that password."""
    sam = Account(name="sam", created_ms=1, password_hash=PasswordHasher().hash(PASSWORD))
    data = a_data_dir(tmp_path, sam.item())
    for command in ("reset", "revoke", "disable"):
        done = numbridge("account", command, "sarn", "--data-dir", str(data))
        assert done.returncode != 0 and "looks the same" in done.stderr, (command, done)
    assert records(data) == {"sam": sam}

    earlier = a_data_dir(tmp_path / "earlier", {
        "pk": keys.player("sam"), "sk": keys.rating("classic"), "rating": 1500})
    done = numbridge("account", "reset", "sarn", "--data-dir", str(earlier))
    assert done.returncode != 0 and "no player" in done.stderr, done
    assert records(earlier) == {}


def test_reset_gives_a_player_from_before_records_a_record_that_ends_earlier_tokens(
        tmp_path: Path) -> None:
    """Caught: the record ``numbridge account reset`` makes for a player with games and no
    record had generation 0, so the tokens minted before it (generation 0) still
    connected as the player after the host gave the name a password."""
    data = a_data_dir(tmp_path, {
        "pk": keys.player("Sam"), "sk": keys.rating("classic"), "rating": 1500})
    done = numbridge("account", "reset", "SAM", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    made = records(data)["Sam"]  # the player's spelling, as their games have it
    assert made.generation == 1 and made.password_hash is not None


def test_rekey_moves_a_record_from_before_and_says_so(tmp_path: Path) -> None:
    """Caught: ``numbridge account rekey`` moved nothing, or said nothing of what it moved
    or left: records from before stayed under their earlier keys in a DynamoDB table."""
    sam = Account(name="Sam", created_ms=1, generation=2)
    data = a_data_dir(tmp_path, {**sam.item(), "pk": keys.account("sam"), "gsi1sk": "sam"})
    done = numbridge("account", "rekey", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 records moved"), done.stdout
    store = SqliteStore(data / "numbridge.db", synchronous="NORMAL")
    try:
        assert store.get(keys.account("sam"), keys.ACCOUNT) is None
        assert store.get(*Accounts.key("Sam")) is not None
    finally:
        store.close()
    again = numbridge("account", "rekey", "--data-dir", str(data))
    assert again.stdout.startswith("0 records moved"), again.stdout


def test_a_password_change_ends_the_earlier_tokens(local_server: LocalServer) -> None:
    server = local_server
    _, made = server.sign_in("bob", PASSWORD)
    status, answer = server.post("/local/password", {"name": "bob", "password": PASSWORD,
                                                     "new_password": "bob's new password"})
    assert (status, answer) == (200, {})
    assert handshake(server, made["token"]) == 401
    status, fresh = server.sign_in("bob", "bob's new password")
    assert status == 200 and handshake(server, fresh["token"]) == 101


def test_a_connection_is_closed_with_4001_when_its_token_expires(
        local_server: LocalServer) -> None:
    server = local_server
    # 60 s is a token's shortest life: this one was issued 57 s ago.
    token = issue_token("carl", token_secret(server.data_dir), ttl_s=60, now=time.time() - 57)
    with connect(f"{server.ws_url}?token={token}", open_timeout=10) as ws:
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=20)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4001, "token expired")
    assert time.monotonic() - started < 10


def test_token_lifetimes_are_checked(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    for absurd in ("30s", "91d", "0", "-5m", "soon"):
        done = numbridge("token", "ana", "--ttl", absurd, *data)
        assert done.returncode == 2 and "--ttl" in done.stderr, absurd
    assert numbridge("token", "ana", "--ttl", "12h", *data).returncode == 0


def test_open_sign_in_is_refused_off_loopback(tmp_path: Path) -> None:
    server = LocalServer(tmp_path / "data", tmp_path, args=["--host", "0.0.0.0",
                                                            "--open-sign-in"])
    with pytest.raises(ServerFailed) as failed:
        server.start()
    assert "--open-sign-in" in str(failed.value) and "loopback" in str(failed.value)


def test_open_sign_in_is_refused_behind_a_public_url(tmp_path: Path) -> None:
    """A TLS proxy in front of the loopback port serves whoever reaches the proxy."""
    server = LocalServer(tmp_path / "data", tmp_path, args=[
        "--public-url", "https://club.example", "--open-sign-in"])
    with pytest.raises(ServerFailed) as failed:
        server.start()
    assert "--open-sign-in" in str(failed.value) and "--public-url" in str(failed.value)


def test_a_name_alone_is_refused_by_a_server_bound_to_every_address(tmp_path: Path) -> None:
    server = LocalServer(tmp_path / "data", tmp_path, args=["--host", "0.0.0.0"])
    server.start()
    try:
        status, answer = server.post("/local/token", {"name": "ana"})
        assert status == 400 and answer["code"] == "bad_request", answer
        assert "password" in answer["error"] and "token" not in answer
        assert not [k for k in server.stored_keys() if k[1] == keys.ACCOUNT]
        # ...and with a password it makes the account, as on loopback
        status, answer = server.sign_in("ana", PASSWORD)
        assert status == 200 and answer["created"] is True
    finally:
        server.kill()


def test_open_sign_in_takes_a_name_alone_on_loopback(tmp_path: Path) -> None:
    server = LocalServer(tmp_path / "data", tmp_path, args=["--open-sign-in"])
    server.start()
    try:
        status, answer = server.post("/local/token", {"name": "dora"})
        assert status == 200 and handshake(server, answer["token"]) == 101
        assert "sign in by name alone: --open-sign-in" in server.log()
    finally:
        server.kill()


def claims_of(token: str) -> dict[str, Any]:
    return dict(jwt.decode(token, options={"verify_signature": False}))


def test_numbridge_token_lasts_seven_days_by_default(tmp_path: Path) -> None:
    done = numbridge("token", "ana", "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    claims = claims_of(done.stdout.strip())
    assert claims["exp"] - claims["iat"] == 7 * 24 * 3600
    assert claims["sub"] == "ana" and claims.get("gen", 0) == 0


def test_tokens_minted_after_a_revoke_carry_the_new_generation_and_a_disabled_player_is_refused(
        local_server: LocalServer) -> None:
    server = local_server
    # the server's secret (with --store dynamodb the command has no --data-dir to find it)
    secret = {"TOKEN_SECRET": token_secret(server.data_dir)}

    def minted() -> subprocess.CompletedProcess[str]:
        return numbridge("token", "eve", *server.store_args(), env=secret)

    first = minted().stdout.strip()
    assert claims_of(first)["gen"] == 0
    assert handshake(server, first) == 101  # her record was made when it was minted
    assert numbridge("account", "revoke", "eve", *server.store_args()).returncode == 0
    second = minted().stdout.strip()
    assert claims_of(second)["gen"] == 1
    assert handshake(server, first) == 401  # revoked
    assert handshake(server, second) == 101

    assert numbridge("account", "disable", "eve", *server.store_args()).returncode == 0
    refused = minted()
    assert refused.returncode == 2 and "disabled" in refused.stderr
    # a token of her generation now (2: disabling ends her tokens), signed anyway
    current = issue_token("eve", token_secret(server.data_dir), generation=2)
    for token in (second, current):
        assert handshake(server, token) == 403  # refused as disabled
    assert numbridge("account", "enable", "eve", *server.store_args()).returncode == 0
    assert handshake(server, current) == 101
    assert handshake(server, second) == 401
    fresh = minted().stdout.strip()
    assert claims_of(fresh)["gen"] == 2 and handshake(server, fresh) == 101
