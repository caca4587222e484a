"""The club comes to the player over real WebSockets against `numbridge serve`, on both
stores: the lobby's changes pushed within two seconds (the in-process lobby queue
driving the fanout function), nothing after unsubscribe, quick pairing, a seek that
ends with its connection, a challenge pushed."""

from __future__ import annotations

import time
from typing import Any

from e2e_server import LocalServer, Player

PUSHED_WITHIN_S = 2.0


def change(player: Player, kind: str, timeout: float = PUSHED_WITHIN_S + 1) -> dict[str, Any]:
    """The first pushed lobby change of ``kind`` (other changes are passed over)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = player.expect(lambda f: f.get("type") == "changes",
                              timeout=max(0.01, deadline - time.monotonic()))
        found = [c for c in frame["changes"] if c["kind"] == kind]
        if found:
            return found[0]


def test_the_lobby_is_pushed_and_stops_when_unsubscribed(local_server: LocalServer) -> None:
    """Catches: a change not pushed to a subscriber of the real server (or not within the
    contract's 2 s), a removal without its reason, and pushes that go on after
    ``unsubscribe``."""
    with local_server.player("wes") as wes, local_server.player("ana") as ana, \
            local_server.player("bob") as bob:
        page = wes.request("subscribe", topic="lobby")
        assert page["type"] == "lobby" and page["online"] >= 1
        made = ana.request("propose", room="blitz", colour="blue")["proposal"]["id"]
        # Pushed within the contract's 2 s, with a second to spare for a loaded machine
        # (python -m bench seek measures it).
        added = change(wes, "proposal_added")
        assert added["proposal"]["id"] == made
        assert bob.request("accept", proposal=made)["type"] == "ack"
        assert change(wes, "proposal_removed") == {"kind": "proposal_removed",
                                                   "proposal": made, "why": "accepted"}
        assert wes.request("unsubscribe", topic="lobby")["type"] == "ack"
        ana.request("propose", room="blitz")
        time.sleep(PUSHED_WITHIN_S)
        wes.request("rooms")  # whatever came meanwhile has been read
        assert not [f for f in wes.pushed if f.get("type") == "changes"
                    and any(c["kind"] == "proposal_added" for c in f["changes"])]


def test_two_seekers_are_paired_and_a_closed_seeker_is_not(local_server: LocalServer) -> None:
    """Catches: a seeker paired with one whose socket closed (a seek outliving its
    $disconnect), or a pairing whose game reaches only one of its two players."""
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        with local_server.player("gone") as gone:
            assert gone.request("seek", room="blitz")["type"] == "seek"
        time.sleep(0.3)  # its $disconnect ran
        assert ana.request("seek", room="blitz")["type"] == "seek"
        assert bob.request("seek", room="blitz")["type"] == "ack"
        games = {p.name: p.expect(lambda f: f.get("type") == "state", timeout=5)["game"]
                 for p in (ana, bob)}
        assert games["ana"] == games["bob"]


def test_a_challenge_is_pushed_and_declined(local_server: LocalServer) -> None:
    """Catches: a challenge never pushed to the player it names, or a decline its
    challenger never hears of, over the real server's sockets."""
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        made = ana.request("propose", room="blitz", to="bob")["proposal"]["id"]
        assert bob.expect(lambda f: f.get("type") == "challenge")["proposal"]["id"] == made
        assert bob.request("decline", proposal=made)["type"] == "ack"
        assert ana.expect(lambda f: f.get("type") == "declined") == {
            "type": "declined", "proposal": made}
