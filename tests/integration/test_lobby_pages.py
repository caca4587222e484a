"""Page-scoped lobby pushes (docs/lobby-push.md, "Page-scoped pushes") through the real
handlers, on both stores: a subscriber is sent the changes to its own page of each list
and nothing else, what slides into its page comes with what left it, and the page it
keeps from pushes alone is the page a fresh subscription answers with."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from harness import Conn, World
from numbridge.club import lobby_pages


def changes(conn: Conn) -> list[dict[str, Any]]:
    return [c for f in conn.new() if f["type"] == "changes" for c in f["changes"]]


class Kept:
    """The lobby as a client keeps it (web/js/club-model.js): the page, then each change
    applied by id."""

    def __init__(self, page: dict[str, Any]) -> None:
        self.proposals = {p["id"] for p in page["proposals"]}
        self.live = {g["game"] for g in page["live"]}

    def apply(self, found: list[dict[str, Any]]) -> None:
        for c in found:
            if c["kind"] == "proposal_added":
                self.proposals.add(c["proposal"]["id"])
            elif c["kind"] == "proposal_removed":
                self.proposals.discard(c["proposal"])
            elif c["kind"] == "live_added":
                self.live.add(c["game"]["game"])
            elif c["kind"] == "live_removed":
                self.live.discard(c["game"])


def fresh(conn: Conn) -> dict[str, Any]:
    assert conn.ask("unsubscribe", topic="lobby")["type"] == "ack"
    page = conn.ask("subscribe", topic="lobby")
    assert page["type"] == "lobby", page
    return page


def proposing(world: World, players: int) -> dict[str, str]:
    """Five open proposals by each of ``players`` players: proposal → its player."""
    by: dict[str, str] = {}
    for n in range(players):
        conn = world.join(f"p{n}")
        for _ in range(5):
            by[conn.ask("propose", room="blitz")["proposal"]["id"]] = f"p{n}"
    world.deliver_lobby()
    return by


def widest_page(items: Iterable[str], size: int = 2) -> str:
    """A subscriber's name whose page of ``size`` among ``items`` spans the widest arc of
    the circle: a new item lands on it with a chance of at least ``size`` in
    ``len(items)``, whatever points the items' random ids drew (a name taken at random
    may face an arc of almost nothing, and a test that waits for a landing fails)."""
    circle = lobby_pages.Circle.of(items)
    whole = 1 << 64

    def arc(name: str) -> int:
        start = lobby_pages.start_of(name)
        last = circle.page(start, size)[-1]
        return (lobby_pages.point(last) - start) % whole

    return max((f"w{n}" for n in range(500)), key=arc)


def test_a_change_outside_the_page_is_not_sent_and_one_inside_brings_what_slides_in(
        world: World) -> None:
    """Catches: every subscriber told of every proposal (the cost the page saves), or a
    proposal that left the page without the one that takes its place (a page that
    shrinks with every acceptance until the next subscribe)."""
    by = proposing(world, 6)  # 30 open, a page of 20
    wes = world.join("wes")
    page = wes.ask("subscribe", topic="lobby")
    shown = [p["id"] for p in page["proposals"]]
    assert len(shown) == lobby_pages.PAGE
    world.deliver_lobby()
    wes.new()
    conns = {name: world.join(name) for name in set(by.values())}
    world.deliver_lobby()
    changes(wes)
    outside = next(pid for pid in by if pid not in shown)
    assert conns[by[outside]].ask("withdraw", proposal=outside)["type"] == "ack"
    world.deliver_lobby()
    assert changes(wes) == []
    inside = shown[0]
    assert conns[by[inside]].ask("withdraw", proposal=inside)["type"] == "ack"
    world.deliver_lobby()
    found = changes(wes)
    assert found[0] == {"kind": "proposal_removed", "proposal": inside, "why": "withdrawn"}
    assert [c["kind"] for c in found[1:]] == ["proposal_added"]
    slid = found[1]["proposal"]["id"]
    assert slid not in shown and slid != outside
    kept = Kept(page)
    kept.apply(found)
    assert kept.proposals == Kept(fresh(wes)).proposals


def test_the_page_kept_from_pushes_is_the_page_a_fresh_subscription_gives(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a client's page that drifts from the lobby through pushes alone: a
    newcomer that pushes an item off the page without a ``paged`` removal, a slide-in not
    sent, a game listed on a page that should not show it (pages of 3 games here)."""
    monkeypatch.setattr(lobby_pages, "PAGE", 3)
    by = proposing(world, 2)
    conns = {name: world.join(name) for name in set(by.values())}
    wes = world.join("wes")
    page = wes.ask("subscribe", topic="lobby")
    world.deliver_lobby()
    kept = Kept(page)
    kept.apply(changes(wes))
    rng = random.Random(5)
    takers: dict[str, Conn] = {}
    ended = 0
    for step in range(18):
        pid = rng.choice(sorted(by))
        if step % 3 == 0:  # a game starts: the proposal taken, a game listed
            taker = takers[f"t{len(takers)}"] = world.join(f"t{len(takers)}")
            assert taker.ask("accept", proposal=pid)["type"] == "ack"
        else:
            assert conns[by[pid]].ask("withdraw", proposal=pid)["type"] == "ack"
        if step % 6 == 5:  # a game on wes's page ends: with 4 listed (last), one slides in
            games, _ = world.svc.playing.in_room("blitz")
            game = rng.choice(sorted((g for g in games if g["game"] in kept.live),
                                     key=lambda g: g["game"]))
            loser = next(takers[name] for name in game["players"].values() if name in takers)
            assert loser.ask("resign", game=game["game"])["type"] == "ack"
            ended += 1
        owner = by.pop(pid)
        made = conns[owner].ask("propose", room="blitz")
        assert made["type"] == "proposal", made
        by[made["proposal"]["id"]] = owner
        world.deliver_lobby()
        kept.apply(changes(wes))
        for conn in [*conns.values(), *takers.values()]:
            conn.new()
        now = fresh(wes)
        assert kept.proposals == {p["id"] for p in now["proposals"]}, step
        assert kept.live == {g["game"] for g in now["live"]}, step
        assert len(now["proposals"]) == 3
        assert len(now["live"]) == min(3, step // 3 + 1 - ended)


def test_a_proposal_pushed_off_a_page_is_told_as_paged(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: an item pushed off a full page by a newcomer left on the client (it
    would never be told that item's end: it is off the page)."""
    monkeypatch.setattr(lobby_pages, "PAGE", 2)
    by = proposing(world, 1)
    ana = world.join("ana")
    wes = world.join(widest_page(by))
    page = wes.ask("subscribe", topic="lobby")
    world.deliver_lobby()
    kept = Kept(page)
    kept.apply(changes(wes))
    for _ in range(40):  # until one lands on wes's page (each a chance of 2 in 5 or more)
        made = ana.ask("propose", room="blitz")["proposal"]["id"]
        world.deliver_lobby()
        found = changes(wes)
        if found:
            break
        ana.ask("withdraw", proposal=made)  # off wes's page: nothing told
        world.deliver_lobby()
        assert changes(wes) == []
    assert sorted(c["kind"] for c in found) == ["proposal_added", "proposal_removed"], found
    [gone] = [c for c in found if c["kind"] == "proposal_removed"]
    assert gone["why"] == "paged" and gone["proposal"] in by
    kept.apply(found)
    assert kept.proposals == Kept(fresh(wes)).proposals


def test_a_players_own_proposal_reaches_their_other_connections(world: World) -> None:
    """Catches: a proposal off its own player's page never shown on their other
    device (their own proposals are always on their page)."""
    proposing(world, 5)
    phone, laptop = world.join("ana"), world.join("ana")
    page = laptop.ask("subscribe", topic="lobby")
    assert all(p["by"] != "ana" for p in page["proposals"])
    world.deliver_lobby()
    laptop.new()
    mine = [phone.ask("propose", room="blitz")["proposal"]["id"] for _ in range(5)]
    world.deliver_lobby()
    told = {c["proposal"]["id"] for c in changes(laptop) if c["kind"] == "proposal_added"}
    assert set(mine) <= told
    assert set(mine) <= {p["id"] for p in fresh(laptop)["proposals"]}


def test_the_online_count_waits_for_a_hundredth_in_a_big_club(world: World) -> None:
    """Catches: a frame to every subscriber for each player's connect or disconnect in
    a club of thousands (the count is pushed when it moved by 1 %)."""
    for n in range(1_000):
        world.svc.online.change(f"x{n}", +1)
    wes = world.join("wes")
    wes.ask("subscribe", topic="lobby")
    world.clock.advance(5_000)
    world.deliver_lobby()
    assert changes(wes) == [{"kind": "online", "players": 1_001}]
    world.clock.advance(5_000)
    for n in range(9):
        world.join(f"y{n}")
    world.clock.advance(5_000)
    world.deliver_lobby()
    assert changes(wes) == []  # 1,010: nine more is under a hundredth
    world.join("zed")
    world.clock.advance(5_000)
    world.deliver_lobby()
    assert changes(wes) == [{"kind": "online", "players": 1_011}]


def test_every_change_to_a_players_own_proposal_reaches_each_of_their_connections(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a player's own proposal that sits off their circle page ending — accepted
    by another player, withdrawn on their other device, lapsed — told only to the
    subscribers whose circle page holds it: the player's own lobby kept listing it (an
    acceptance learnt from the game alone, a lapse only at the next subscribe). Pages of
    2, so that most of the player's proposals are off their circle page."""
    from numbridge.club.lobby_pages import Circle, start_of
    from numbridge.service.usecases.subscribing import open_proposals
    from numbridge.store.club import PROPOSAL_TTL_MS

    # Pages of 2: at least 3 of ana's 5 are off her page whatever points their random ids
    # draw (with pages of 3, all three could be hers: 5/30 * 4/29 * 3/28, 1 run in 400).
    monkeypatch.setattr(lobby_pages, "PAGE", 2)
    proposing(world, 5)
    phone, laptop = world.join("ana"), world.join("ana")
    devices = (phone, laptop)
    kept = [Kept(conn.ask("subscribe", topic="lobby")) for conn in devices]
    taker = world.join("ted")
    world.deliver_lobby()

    def off_page() -> list[str]:
        """Ana's open proposals that her circle page (of the whole list) does not hold."""
        every = [p["id"] for p in open_proposals(world.svc, world.clock())]
        page = Circle.of(every).page(start_of("ana"), lobby_pages.PAGE)
        return sorted(pid for pid, by in mine.items() if pid not in page)

    def told() -> None:
        world.deliver_lobby()
        for conn, page in zip(devices, kept, strict=True):
            page.apply(changes(conn))
        taker.new()

    mine: dict[str, str] = {}
    for _ in range(5):
        mine[phone.ask("propose", room="blitz")["proposal"]["id"]] = "ana"
    told()
    assert len(off_page()) >= 3, "ana's proposals landed on her own page: no case to test"
    for page in kept:  # made on the phone: on both devices' pages
        assert set(mine) <= page.proposals
    accepted = off_page()[0]
    assert taker.ask("accept", proposal=accepted)["type"] == "ack"
    del mine[accepted]
    told()
    withdrawn = off_page()[0]
    assert phone.ask("withdraw", proposal=withdrawn)["type"] == "ack"
    del mine[withdrawn]
    told()
    for conn, page in zip(devices, kept, strict=True):
        assert accepted not in page.proposals and withdrawn not in page.proposals
        assert page.proposals == Kept(fresh(conn)).proposals
        conn.new()
    lapsing = off_page()
    assert lapsing
    world.clock.advance(PROPOSAL_TTL_MS)
    world.sweep()
    world.deliver_lobby()
    for conn in devices:
        found = changes(conn)
        gone = {c["proposal"] for c in found if c["kind"] == "proposal_removed"
                and c["why"] == "lapsed"}
        assert set(lapsing) <= gone, found


def seek_counts(conn: Conn) -> dict[str, int]:
    """The rooms' seekers' counts pushed to the connection since the last look (the last
    of each room)."""
    return {c["room"]: c["waiting"] for c in changes(conn) if c["kind"] == "seeks"}


def test_a_quiet_clubs_seek_counts_are_pushed_at_once(world: World) -> None:
    """Catches: a quiet club shown a seek count up to 10 s late (a second change soon
    after the first held back for the busy club's pace), or a subscribe's page that
    disagrees with what was pushed."""
    wes = world.join("wes")
    assert wes.ask("subscribe", topic="lobby")["seeks"]["blitz"] == 0
    ana, cy = world.join("ana"), world.join("cy")
    world.deliver_lobby()
    changes(wes)
    seek = ana.ask("seek", room="blitz")["seek"]["id"]
    world.deliver_lobby()
    assert seek_counts(wes) == {"blitz": 1}
    world.clock.advance(2_000)
    assert ana.ask("cancel_seek", seek=seek)["type"] == "ack"
    world.deliver_lobby()
    assert seek_counts(wes) == {"blitz": 0}  # two seconds after the last push: at once
    world.clock.advance(1_000)
    assert cy.ask("seek", room="bridge")["type"] == "seek"
    world.deliver_lobby()
    assert seek_counts(wes) == {"bridge": 1}
    shown = fresh(wes)["seeks"]
    assert (shown["blitz"], shown["bridge"]) == (0, 1)


def test_a_busy_clubs_seek_counts_come_at_most_every_few_seconds_once_its_budget_is_spent(
        world: World) -> None:
    """Catches: every subscriber posted a frame for each seek stored, cancelled or paired
    however busy the club (no budget, or one never spent), a count held back never
    pushed, or a subscribe's page showing a count of this instant that no push would
    correct (a seeker come and gone between two pushes)."""
    wes = world.join("wes")
    wes.ask("subscribe", topic="lobby")
    ana, cy = world.join("ana"), world.join("cy")
    world.deliver_lobby()
    changes(wes)
    for n in range(lobby_pages.SEEKS_BURST):  # the budget, a change a second
        if n % 2 == 0:
            seek = ana.ask("seek", room="blitz")["seek"]["id"]
        else:
            assert ana.ask("cancel_seek", seek=seek)["type"] == "ack"
        world.deliver_lobby()
        assert seek_counts(wes) == {"blitz": 1 - n % 2}, n
        world.clock.advance(1_000)
    assert cy.ask("seek", room="bridge")["type"] == "seek"
    world.deliver_lobby()
    assert seek_counts(wes) == {}  # the budget spent: held back
    pushed = fresh(wes)["seeks"]  # as last pushed: what every subscriber holds
    assert pushed["bridge"] == 0
    wes.new()
    world.clock.advance(lobby_pages.SEEKS_EVERY_MS)
    world.deliver_lobby()  # the look scheduled for when a push is back
    assert seek_counts(wes)["bridge"] == 1
    assert fresh(wes)["seeks"]["bridge"] == 1


def test_a_club_of_ten_with_a_seeker_now_and_then_sees_every_count_change_at_once(
        world: World) -> None:
    """Catches: a small club's seek count shown late (held back though its budget is
    nowhere near spent), or a count pushed that is not the room's."""
    rng = random.Random(5)
    names = [f"m{n}" for n in range(10)]
    conns = {name: world.join(name) for name in names}
    for conn in conns.values():
        assert conn.ask("subscribe", topic="lobby")["type"] == "lobby"
    world.deliver_lobby()
    for conn in conns.values():
        conn.new()
    for _ in range(8):
        world.clock.advance(rng.randrange(20_000, 60_000))
        room = rng.choice(["blitz", "bridge"])
        first, second = rng.sample(names, 2)
        seek = conns[first].ask("seek", room=room)
        assert seek["type"] == "seek", seek
        world.deliver_lobby()
        for name in names:
            assert seek_counts(conns[name]) == {room: 1}, name
        world.clock.advance(rng.randrange(2_000, 8_000))
        if rng.random() < 0.5:
            assert conns[first].ask("cancel_seek", seek=seek["seek"]["id"])["type"] == "ack"
        else:  # paired: the game ends at once, so both are free to seek again
            frames = conns[second].send("seek", room=room)
            [state] = [f for f in frames if f["type"] == "state"]
            assert conns[second].ask("resign", game=state["game"])["type"] == "ack"
        world.deliver_lobby()
        for name in names:
            assert seek_counts(conns[name]) == {room: 0}, name
            conns[name].new()
