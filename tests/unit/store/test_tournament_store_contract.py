"""A tournament's items under races, on every store adapter: a result counted once
however often its step comes (and however two steps interleave), a round paired once
by two steps at once, the standings read best first from the index."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable, Sequence
from typing import Any, cast

import pytest
from numbridge.club.rooms_config import load_rooms
from numbridge.protocol.requests import GameAction
from numbridge.rules.actions import Resign
from numbridge.service.commit import settle
from numbridge.service.context import Services
from numbridge.service.usecases import play, tournament_steps
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store import keys
from numbridge.store.connections import Connections
from numbridge.store.port import Store, Write
from numbridge.store.tournaments import Entrant, Tournaments

NOW = 1_796_000_000_000


class Management:
    """API Gateway's @connections API: every post reaches its connection."""

    def __init__(self) -> None:
        self.posted: list[tuple[str, bytes]] = []

    def post_to_connection(self, ConnectionId: str, Data: bytes) -> dict[str, Any]:
        self.posted.append((ConnectionId, Data))
        return {}


class NoTimers:
    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        return None


class Meanwhile:
    """A store whose transaction matching ``when`` first lets ``other`` run to its end
    (another step that read the same items as this one and commits first), once."""

    def __init__(self, store: Store, when: Callable[[Sequence[Write]], bool],
                 other: Callable[[], object]) -> None:
        self.store = store
        self.when = when
        self.other: Callable[[], object] | None = other

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transact(self, writes: Sequence[Write]) -> None:
        if self.other is not None and self.when(writes):
            other, self.other = self.other, None
            other()
        self.store.transact(writes)


def services(store: Store) -> Services:
    return Services(store=store, management=Management(), timers=NoTimers(),
                    token_secret=lambda: pytest.fail("no token here"), rooms=load_rooms(),
                    clock=lambda: NOW, rng=random.Random(4), posts_at_once=False,
                    deal_budget_s=20.0)


def joined(store: Store, kind: str, names: Sequence[str], **settings: Any) -> str:
    """A tournament due now, ``names`` joined with a connection open each."""
    tid = create_tournament(store, lambda: NOW, kind=kind, room="blitz", starts_ms=NOW,
                            rated=False, **settings)
    found = Tournaments(store)
    for n, name in enumerate(names):
        Connections(store).add(f"c{n}", name, NOW)
        store.transact([Entrant(name, 1500.0 + n, NOW).put_write(tid, fresh=True)]
                       + ([found.wait_write(tid, name, NOW)] if kind == "arena" else []))
    return tid


def test_a_result_is_counted_once_whatever_delivers_its_step(store: Store) -> None:
    """Catches a result counted without conditions on what it read (the game's LIVE item,
    its pairing, the players' items): a duplicate step, and a second step that read the
    same items and commits first, would count the game twice (two games in a player's
    history, double the points)."""
    svc = services(store)
    tid = joined(store, "arena", ["ann", "bob"], minutes=10)
    tournament_steps.step(svc, tid)  # started and paired
    [live] = Tournaments(store).live(tid)
    game = str(live["game"])
    pairing = Tournaments(store).pairing(tid, str(live["pair"]))
    assert pairing is not None and pairing.blue is not None
    outcome = settle(svc, lambda: play.play(svc, pairing.blue, GameAction(
        id="r1", game=game, action=Resign())))
    assert outcome.replies[0]["type"] == "ack"
    t = Tournaments(store).get(tid)
    assert t is not None
    # Another step counts the game between this step's reads and its write.
    racing = services(cast(Store, Meanwhile(
        store, lambda writes: any(w.key[1].startswith(keys.TOURNEY_LIVE_PREFIX)
                                  for w in writes),
        lambda: tournament_steps.count_result(svc, t, game))))
    assert tournament_steps.count_result(racing, t, game) == []  # lost: counted already
    assert tournament_steps.count_result(svc, t, game) == []  # delivered again
    players = {p.name: p for p in Tournaments(store).all_players(tid)}
    assert [len(players[n].history) for n in ("ann", "bob")] == [1, 1]
    assert sorted(p.score2 for p in players.values()) == [0, 4]  # a win is 2 points
    assert Tournaments(store).pairing(tid, str(live["pair"])).done  # type: ignore[union-attr]


def test_a_round_is_paired_once_by_two_steps_at_once(store: Store) -> None:
    """Catches a round's plan put without its condition and the tournament's item written
    without its own: two steps that both saw the round ended would each pair it, the
    later plan over the first, and a player would be in a game and given the bye."""
    svc = services(store)
    tid = joined(store, "swiss", ["ann", "bob", "cy", "dee", "eli"], rounds=2)

    def meanwhile() -> None:
        # eli's page closes, and another step pairs the round without eli (no bye).
        Connections(store).remove("c4")
        tournament_steps.step(svc, tid)

    racing = services(cast(Store, Meanwhile(
        store, lambda writes: any(w.key[1].startswith(keys.TOURNEY_ROUND_PREFIX)
                                  for w in writes), meanwhile)))
    tournament_steps.step(racing, tid)  # had read eli there: a plan with a bye
    threads = [threading.Thread(target=tournament_steps.step, args=(services(store), tid))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    found = Tournaments(store)
    t = found.get(tid)
    assert t is not None and t.round == 1
    pairings = found.pairings(tid, 1)
    games = [p for p in pairings if p.game]
    seated = [name for p in pairings for name in (p.blue, p.red, p.bye) if name]
    assert len(games) == 2 and len(seated) == len(set(seated)) == 4
    assert "eli" not in seated
    assert len(found.live(tid)) == 2
    assert found.round_plan(tid, 2) is None


def test_the_standings_are_read_best_first_from_the_index(store: Store) -> None:
    """Catches a standing's index key that does not sort by score (a lexical sort of the
    raw number puts 10 before 9), or a final table not read in its ranks' order."""
    tid = create_tournament(store, lambda: NOW, kind="swiss", room="blitz", starts_ms=NOW,
                            rounds=3)
    for name, score2 in [("ann", 4), ("bob", 10), ("cy", 9), ("dee", 0), ("eli", 9)]:
        store.transact([Entrant(name, 1500.0, NOW, score2=score2).put_write(tid, fresh=True)])
    found = Tournaments(store)
    page = found.standings(tid, limit=3)
    assert [i["player"] for i in page.items] == ["bob", "cy", "eli"]
    rest = found.standings(tid, after=page.next)
    assert [i["player"] for i in rest.items] == ["ann", "dee"]
    # The final table: each player's rank (ties broken by the tie-breaks) sorts first.
    for rank, name in enumerate(["bob", "eli", "cy", "ann", "dee"], start=1):
        me = found.player(tid, name)
        assert me is not None
        store.transact([Entrant(me.name, me.rating, me.joined_ms, score2=me.score2,
                                final_rank=rank, item=me.item).put_write(tid)])
    assert [i["player"] for i in found.standings(tid).items] == [
        "bob", "eli", "cy", "ann", "dee"]


def test_why_a_tournament_was_cancelled_and_its_count_s_shards_read_back(store: Store) -> None:
    """Catches the reason a tournament finished unplayed lost on the way through a store
    (or one cancelled before the reason was stored read as played), and a count's shards
    read back other than written (a moved club's count would then be wrong)."""
    found = Tournaments(store)
    tid = create_tournament(store, lambda: NOW, kind="swiss", room="blitz", starts_ms=NOW,
                            rounds=3)
    t = found.get(tid)
    assert t is not None and t.cancelled is None and "cancelled" not in t.public()
    store.transact([dataclasses.replace(t, status="finished",
                                        cancelled="too_few_players").put_write(t)])
    again = found.get(tid)
    assert again is not None and again.public()["cancelled"] == "too_few_players"
    older = {**again.to_item(), "cancelled": True}  # as the host's cancel stored it before
    store.put(older)
    assert found.get(tid).cancelled == "by_host"  # type: ignore[union-attr]
    store.transact([found.count_write(tid, "ann", 1), Tournaments.count_put(tid, 7, 5)])
    shards = found.count_shards(tid)
    assert sum(shards.values()) == 6 and shards[7] >= 5
    assert found.counted([tid]) == {tid: 6}
