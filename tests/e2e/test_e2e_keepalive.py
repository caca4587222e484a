"""The keep-alive: ``ping`` is answered by nobody (API Gateway's MOCK route in AWS, the
gateway itself here), so a page can keep its connection through API Gateway's 10-minute
idle cut for one message (docs/aws.md, "Idle connections")."""

from __future__ import annotations

from e2e_server import LocalServer


def test_a_ping_is_answered_by_nothing_and_the_connection_goes_on(
        local_server: LocalServer) -> None:
    """Catches: the keep-alive's ``ping`` answered (an ``unknown_action`` error, or any
    frame: a reply the page never reads, each nine minutes) or one that stalls or closes
    the connection."""
    with local_server.player("ana") as ana:
        ping = ana.send("ping")
        assert ana.request("rooms")["type"] == "rooms"
        ana.send("ping")
        assert ana.request("games")["type"] == "games"
        seen = [*ana.pushed, *ana._answers.values()]
        assert not [f for f in seen if f.get("id") == ping or f.get("type") == "error"], seen
