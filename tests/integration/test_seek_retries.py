"""Quick pairing over time through the real handlers, on both stores: a waiting seek is
tried again by the fan-out at each widening of its window (the lobby queue's messages
for later, each handed over when due), and only like games are paired."""

from __future__ import annotations

from harness import Conn, World


def _rate(world: World, player: str, rating: float) -> None:
    from numbridge.store.club import Ratings

    world.store.transact([Ratings.put_write(
        player, "blitz", {"rating": rating, "rd": 60.0, "volatility": 0.06}, games=30,
        expected_rv=None, provisional=False)])


def _states(*conns: Conn) -> list[int]:
    """How many ``state`` frames each connection got since the last call."""
    return [[f["type"] for f in c.new()].count("state") for c in conns]


def test_a_waiting_seek_is_paired_at_the_widening_that_fits_and_not_before(
        world: World) -> None:
    """Catches: a waiting seek tried again only once (the retries sent ahead for each
    widening of its window dropped: two seekers 300 apart would wait until one sought
    again), and a pairing before the window is wide enough (or only after the next
    widening: the window's edge left out)."""
    _rate(world, "ana", 1500)
    _rate(world, "bob", 1800)
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    assert bob.ask("seek", room="blitz")["type"] == "seek"  # 300 apart: not yet
    world.deliver_lobby()  # the retries sent for now: still 300 apart, window 100
    for _ in range(3):  # windows 150, 200, 250 at 5, 10 and 15 s
        world.clock.advance(5_000)
        world.deliver_lobby()
        assert _states(ana, bob) == [0, 0]
        assert len(world.svc.seeks.in_room("blitz", world.clock())) == 2
    world.clock.advance(5_000)  # 20 s: window 300, the two fit
    world.deliver_lobby()
    assert _states(ana, bob) == [1, 1]
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


def test_a_rated_seek_and_a_casual_one_are_not_paired(world: World) -> None:
    """Catches: seekers paired across rated and casual (a game rated that one of its
    players asked to be casual, or the other way round)."""
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz", rated=True)["type"] == "seek"
    assert bob.ask("seek", room="blitz", rated=False)["type"] == "seek"
    world.deliver_lobby()
    assert _states(ana, bob) == [0, 0]
    cy = world.join("cy")
    frames = cy.send("seek", room="blitz", rated=False)
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    assert _states(ana, bob) == [0, 1]
