"""The runtime around the handlers: timers delivered unprompted, signals, external DynamoDB."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import boto3
from e2e_server import LocalServer, Player, with_rooms

FAST_ROOMS = """\
rooms:
  - id: fast
    title: Fast
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 2000
    game_ms: null
    highlighting: true
    blocks: [regular]
"""


def fast_room_server(tmp_path: Path, rooms_yaml: str) -> LocalServer:
    """A started server whose only room is ``rooms_yaml``'s."""
    server = with_rooms(tmp_path, rooms_yaml)
    server.start()
    return server


def deal_fast_game(ana: Player, bob: Player) -> tuple[str, int]:
    """Ana (blue) and Bob in the fast room: the game and blue's first deadline."""
    proposed = ana.request("propose", room="fast", colour="blue", rated=False)
    assert bob.request("accept", proposal=proposed["proposal"]["id"])["type"] == "ack"
    state = ana.expect(lambda f: f["type"] == "state", timeout=60)
    return state["game"], state["view"]["deadline_ms"]


def test_a_move_nobody_makes_times_out_for_both_players(tmp_path: Path) -> None:
    server = fast_room_server(tmp_path, FAST_ROOMS)
    try:
        with server.player("ana") as ana, server.player("bob") as bob:
            game, deadline_ms = deal_fast_game(ana, bob)
            # Nobody sends anything: the SQS timer (DelaySeconds) fires the timeout function.
            # It fires, and not before the deadline; how late is bench/timers_bench.py's.
            for player in (ana, bob):
                frame = player.expect(lambda f: f["type"] == "timeout", timeout=15)
                late_ms = time.time() * 1000 - deadline_ms
                assert frame["game"] == game
                assert late_ms >= 0, f"{player.name} told {-late_ms:.0f} ms before"
    finally:
        server.kill()


def test_sigint_stops_gracefully_and_the_data_stays(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana:
        proposal = ana.request(
            "propose", room="bridge", blocks="regular", colour="red", rated=False
        )
        assert local_server.stop(signal.SIGINT) == 0
    local_server.start()
    with local_server.player("bob") as bob:
        listed = bob.request("proposals", room="bridge")["proposals"]
        assert proposal["proposal"]["id"] in [p["id"] for p in listed]


def test_an_external_dynamodb_endpoint_holds_the_data(
    tmp_path: Path, moto_url: str
) -> None:
    server = LocalServer(
        tmp_path / "data", tmp_path, args=["--dynamodb-endpoint", moto_url]
    )
    server.start()
    try:
        with server.player("ana") as ana:
            ana.request("propose", room="bridge", blocks="regular", colour="blue", rated=False)
    finally:
        assert server.stop() == 0
    dynamodb = boto3.client(
        "dynamodb",
        endpoint_url=moto_url,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    items = dynamodb.scan(TableName="numbridge-games")["Items"]
    assert any(item["pk"]["S"].startswith("PROPOSAL#") for item in items)
    assert not (tmp_path / "data" / "snapshot.json").exists()
