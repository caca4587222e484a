"""Connecting to ``numbridge serve``: tokens at the handshake, answers, restarts."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from e2e_server import LocalServer
from numbridge.auth import issue_token
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect


@pytest.mark.parametrize(("query", "status"), [("", 401), ("?token=forged", 403)])
def test_a_connection_without_a_valid_token_is_refused(
    local_server: LocalServer, query: str, status: int
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(local_server.ws_url + query, open_timeout=10, legacy=True)
    assert refused.value.response.status_code == status


def test_a_token_from_another_secret_is_refused(local_server: LocalServer) -> None:
    forged = issue_token("ana", "not-the-secret-of-this-server-0123456789")
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{local_server.ws_url}?token={forged}", open_timeout=10, legacy=True)
    assert refused.value.response.status_code == 403


def test_a_player_is_answered(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana:
        rooms = ana.request("rooms")
        assert rooms["type"] == "rooms" and rooms["rooms"]
        unknown = ana.request("fly")
        assert (unknown["type"], unknown["code"]) == ("error", "unknown_action")


def test_a_proposal_survives_a_restart_and_connections_do_not(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana:
        answer = ana.request(
            "propose", room="bridge", blocks="regular", clues=30, colour="blue", rated=False
        )
        assert answer["type"] == "proposal", answer
        proposal = answer["proposal"]["id"]

        local_server.restart()  # SIGTERM: sockets closed with 1001, their $disconnect run

    keys = local_server.stored_keys()
    assert ("PROPOSAL#" + proposal, "PROPOSAL") in keys
    assert not [key for key in keys if key[0].startswith("CONN#") or key[1].startswith("CONN#")]

    with local_server.player("bob") as bob:
        listed = bob.request("proposals", room="bridge")
        assert proposal in [p["id"] for p in listed["proposals"]]


def test_an_eleventh_connection_is_refused_with_429_before_the_upgrade(
        local_server: LocalServer) -> None:
    url = f"{local_server.ws_url}?token={local_server.token('ana')}"
    devices = [connect(url, open_timeout=10, legacy=True) for _ in range(10)]
    try:
        for _ in range(3):
            with pytest.raises(InvalidStatus) as refused:
                connect(url, open_timeout=10, legacy=True)
            assert refused.value.response.status_code == 429
        with local_server.player("bob") as bob:  # a cap per player
            assert bob.request("rooms")["type"] == "rooms"
        devices.pop().close()
        devices.append(_connect_when_free(url))  # once its $disconnect has run
    finally:
        for ws in devices:
            ws.close()


def test_connections_of_a_killed_server_do_not_count_after_its_restart(
        tmp_path: Path) -> None:
    server = LocalServer(tmp_path / "data", tmp_path)
    server.start()
    try:
        url = f"{server.ws_url}?token={server.token('ana')}"
        devices = [connect(url, open_timeout=10, legacy=True) for _ in range(10)]
        server.kill()  # no $disconnect ran: ten slots left in the database
        for ws in devices:
            ws.close()
        server.start()
        again = [connect(url, open_timeout=10, legacy=True) for _ in range(10)]
        with pytest.raises(InvalidStatus):
            connect(url, open_timeout=10, legacy=True)
        for ws in again:
            ws.close()
    finally:
        server.kill()


def _connect_when_free(url: str, wait_s: float = 10.0) -> ClientConnection:
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return connect(url, open_timeout=10, legacy=True)
        except InvalidStatus as refused:
            if refused.response.status_code != 429 or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
