"""Tournaments through the Lambda handlers (on moto's DynamoDB and on SQLite): players
join over the WebSocket API, the ``tournament`` function's steps — sent by the games
that end, by timers and by the sweep — start them, pair them, count their results and
finish them, with no other process."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from harness import Conn, LambdaContext, SpySqs, World, function, load_event, sqs_event
from numbridge.protocol import ProtocolError
from numbridge.protocol.requests import JoinTournament
from numbridge.service import context as ctx
from numbridge.service.aws.sqs_tournaments import SqsTournamentSteps
from numbridge.service.usecases.tournaments import create_tournament, join_tournament
from numbridge.store.port import Store, Write
from numbridge.store.tournaments import Tournaments
from players import current, first_moves


class Steps:
    """The tournament queue (moto's SQS), its messages handed to the ``tournament``
    function as SQS would hand them."""

    def __init__(self, world: World) -> None:
        sqs = world.sqs.client
        url = sqs.create_queue(QueueName="tournaments")["QueueUrl"]
        self.spy = SpySqs(sqs, world.clock)
        self.world = world
        world.svc = dataclasses.replace(world.svc,
                                        tournament_steps=SqsTournamentSteps(self.spy, url))
        ctx.install(world.svc)
        self.delivered: list[dict[str, Any]] = []

    def pending(self) -> list[dict[str, Any]]:
        return [sent["body"] for sent in self.spy.sent]

    def deliver(self, bodies: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Hand the messages sent so far (or ``bodies``) to the function in one batch."""
        if bodies is None:
            bodies = self.pending()
            self.spy.sent.clear()
        self.delivered += bodies
        answer = function("tournament")(sqs_event(bodies, "s", "tournaments"),
                                        LambdaContext())
        return dict(answer)

    def drain(self, rounds: int = 50) -> None:
        """Deliver until no step is left that is due now (a timer for later stays)."""
        for _ in range(rounds):
            due = [b for b in self.pending()
                   if b.get("due_ms") is None or b["due_ms"] <= self.world.clock()]
            if not due:
                return
            self.spy.sent = [s for s in self.spy.sent if s["body"] not in due]
            assert self.deliver(due) == {"batchItemFailures": []}
        raise AssertionError("the steps never stopped")

    def sweep(self) -> dict[str, Any]:
        """The tournament function's schedule event: every overdue step, there."""
        return dict(function("tournament")(load_event("sweep"), LambdaContext()))


def _states(conn: Conn) -> list[dict[str, Any]]:
    return [f for f in conn.new() if f.get("type") == "state"]


def _resign_all(world: World, conns: dict[str, Conn], games: list[str],
                rng: random.Random) -> None:
    """Each game ends: after both first moves, a player drawn resigns."""
    for game in games:
        state = current(world, game)
        if state.status != "playing":
            continue
        first_moves(world, game, conns, seed=rng.randrange(1000))
        loser = rng.choice(list(state.players.values()))
        answer = conns[loser].ask("resign", game=game)
        assert answer["type"] == "ack", answer


def _live_games(world: World, tid: str) -> list[str]:
    return [str(i["game"]) for i in Tournaments(world.store).live(tid)]


def test_an_arena_pairs_again_at_once_counts_each_game_once_and_finishes(
        world: World) -> None:
    """Catches: a player whose game ended not paired again until a sweep; a result
    counted twice under a duplicate step delivery; new pairings after the end; an arena
    finished while a game of it still runs (that game then lost from the standings); the
    players' count lost when it finishes."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock(), minutes=10, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob", "cy", "dee")}
    watcher = world.join("eve")
    page = watcher.ask("subscribe", topic=f"tournament:{tid}")
    assert page["type"] == "tournament" and page["tournament"]["status"] == "upcoming"
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    assert watcher.ask("tournament", tournament=tid)["tournament"]["players"] == 4
    assert steps.sweep() == {"stepped": 1}  # due: started, and the four paired
    games = _live_games(world, tid)
    assert len(games) == 2
    for conn in conns.values():
        [state] = _states(conn)
        assert state["view"]["tournament"] == tid  # the state pushed, marked
    rng = random.Random(3)
    played = Counter[str]()
    for _ in range(3):  # three waves of games, each pairing the next at once
        _resign_all(world, conns, games, rng)
        played.update(games)
        sent = steps.pending()
        assert {b["game"] for b in sent if "game" in b} == set(games)
        steps.deliver(sent + sent)  # every step delivered twice
        steps.spy.sent.clear()
        games = _live_games(world, tid)
        assert len(games) == 2, "the four players were not all paired again"
    for game in games:  # the last wave is still being played at the end
        first_moves(world, game, conns, seed=rng.randrange(1000))
    world.clock.advance(11 * 60_000)  # past the end: its timer finds two games running
    steps.drain()
    assert Tournaments(world.store).get(tid).status == "running"  # type: ignore[union-attr]
    assert sorted(_live_games(world, tid)) == sorted(games)
    world.deliver_timers()  # the games' clocks end them: their steps count them, then end
    played.update(games)
    steps.drain()
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.status == "finished" and t.players == 4  # the count kept
    assert not _live_games(world, tid)
    players = Tournaments(world.store).all_players(tid)
    assert sum(p.games for p in players) == 2 * len(played) == 16
    seen = Counter(entry.game for p in players for entry in p.history)
    assert set(seen.values()) == {2} and set(seen) == set(played)  # each game once a side
    final = watcher.ask("tournament", tournament=tid)
    assert [row["rank"] for row in final["standings"]] == sorted(
        row["rank"] for row in final["standings"])
    kinds = [c["kind"] for f in watcher.frames if f.get("type") == "changes"
             for c in f["changes"]]
    assert kinds[0] == "started" and kinds[-1] in ("finished", "standings")
    assert {"paired", "result", "standings", "finished"} <= set(kinds)


class _CrashAfter:
    """A store whose transaction matching ``when`` commits, then raises: a step that
    crashed between its writes (once)."""

    def __init__(self, store: Store, when: Any) -> None:
        self.store = store
        self.when = when
        self.crashed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transact(self, writes: list[Write]) -> None:
        self.store.transact(writes)
        if not self.crashed and self.when(writes):
            self.crashed += 1
            raise RuntimeError("injected crash after the commit")


def test_a_swiss_runs_its_rounds_through_crashes_duplicates_and_an_absent_player(
        world: World) -> None:
    """Catches: a round paired twice (two steps at once, or a retry after a crash between
    the round's plan and its games), a game of a round never dealt after that crash, a
    rematch, a missing bye, an absent player paired (or kept after missing a round), a
    join after the start accepted."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                            starts_ms=world.clock() + 60_000, rounds=3, rated=True)
    names = ["ann", "bob", "cy", "dee", "eli", "fay"]
    conns = {name: world.join(name) for name in names}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    assert steps.sweep() == {"stepped": 0}  # not due yet
    conns["fay"].close()  # absent at the first round's pairing: left out, withdrawn
    world.clock.advance(60_000)
    real = world.store
    crashing = _CrashAfter(real, lambda writes: any(
        str(w.key[1]).startswith("ROUND#") for w in writes))
    world.use_store(crashing)  # the same queue: the services keep their other ports
    # The start's sweep crashes right after the round's plan is committed.
    assert steps.sweep() == {"stepped": 0, "failed": 1}
    assert crashing.crashed == 1
    assert not _live_games(world, tid)  # the plan, but no game yet
    # The next step (a duplicate of it, too) deals what is left, once.
    assert steps.deliver([{"tournament": tid}, {"tournament": tid}]) == {
        "batchItemFailures": []}
    world.use_store(real)
    late = world.join("gus")
    assert late.ask("join_tournament", tournament=tid)["code"] == "illegal"
    rng = random.Random(5)
    present = {n: c for n, c in conns.items() if n != "fay"}
    met: set[frozenset[str]] = set()
    for round_no in (1, 2, 3):
        tournaments = Tournaments(world.store)
        t = tournaments.get(tid)
        assert t is not None and t.round == round_no
        pairings = tournaments.pairings(tid, round_no)
        games = [p for p in pairings if p.game]
        byes = [p.bye for p in pairings if p.bye]
        assert len(games) == 2 and len(byes) == 1  # five present: two games and a bye
        for p in games:
            assert p.blue is not None and p.red is not None
            pair = frozenset({p.blue, p.red})
            assert pair not in met and "fay" not in pair
            met.add(pair)
        _resign_all(world, present, [str(p.game) for p in games], rng)
        steps.deliver(steps.pending() * 2)  # duplicated: counted once, paired once
        steps.spy.sent.clear()
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.status == "finished"
    players = {p.name: p for p in Tournaments(world.store).all_players(tid)}
    assert not players["fay"].active and players["fay"].games == 0
    for name in present:
        assert players[name].games + players[name].byes == 3
        assert players[name].byes <= 1
    assert sum(p.score2 for p in players.values()) == 2 * 6 + 2 * 3  # 6 games, 3 byes
    page = conns["ann"].ask("tournament", tournament=tid)
    assert len(page["standings"]) == 6
    for row in page["standings"]:  # Buchholz cut-1 in points, as a person reckons it
        me = players[row["player"]]
        parts = [players[g.opponent].score2 / 2 for g in me.history] + [me.score2 / 2] * me.byes
        assert row["tiebreaks"][0] == (sum(parts) - min(parts) if parts else 0)


def test_tournament_requests_are_refused_as_the_protocol_says(world: World) -> None:
    """Catches: an unknown tournament answered as anything but not_found; a bot joining a
    rated tournament; a finished tournament joined; the finished listed oldest first."""
    Steps(world)
    conn = world.join("ann")
    assert conn.ask("tournament", tournament="t-nope")["code"] == "not_found"
    assert conn.ask("join_tournament", tournament="t-nope")["code"] == "not_found"
    assert conn.ask("subscribe", topic="tournament:t-nope")["code"] == "not_found"
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock(), minutes=1)
    # A bot seat never connects: its join is the use case's, asked directly.
    with pytest.raises(ProtocolError) as refused:
        join_tournament(world.svc, "bot-easy", JoinTournament(id="j1", tournament=tid))
    assert refused.value.code == "illegal"
    listed = conn.ask("tournaments")
    assert [t["id"] for t in listed["tournaments"]] == [tid]
    assert conn.ask("tournaments", status="finished")["tournaments"] == []
    from numbridge.service.usecases.tournaments import cancel_tournament

    cancel_tournament(world.store, tid)
    assert conn.ask("join_tournament", tournament=tid)["code"] == "illegal"
    later = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                              starts_ms=world.clock() + 1, rounds=1)
    cancel_tournament(world.store, later)
    finished = conn.ask("tournaments", status="finished")["tournaments"]
    assert [t["id"] for t in finished] == [later, tid]  # the latest first


def _arena_of_two(world: World, steps: Steps) -> tuple[str, dict[str, Conn], str]:
    """A 30-minute unrated Blitz arena started now, ann and bob joined and paired: the
    tournament, their connections, their game."""
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock(), minutes=30, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob")}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.sweep()
    [game] = _live_games(world, tid)
    return tid, conns, game


@pytest.fixture(autouse=True)
def _quick_deals(world: World) -> None:
    world.svc.deal_budget_s = 20.0


def test_a_round_robin_pairs_everyone_once_and_a_withdrawn_player_forfeits(
        world: World) -> None:
    """Catches: a round robin that pairs a pair twice or leaves one out (Berger tables
    taken in a changing order), a game dealt against a player who withdrew (their
    opponent waits forever) instead of a win by forfeit, a round robin that never ends."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="round_robin", room="blitz",
                            starts_ms=world.clock(), rated=False)
    names = ["ann", "bob", "cy", "dee"]
    conns = {name: world.join(name) for name in names}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.sweep()
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.rounds == 3 and set(t.order) == set(names)
    rng = random.Random(9)
    met: Counter[frozenset[str]] = Counter()
    for round_no in (1, 2, 3):
        if round_no == 2:  # dee leaves, round 2 paired already: round 3's is a forfeit
            assert conns["dee"].ask("leave_tournament", tournament=tid)["type"] == "ack"
        pairings = Tournaments(world.store).pairings(tid, round_no)
        for p in pairings:
            met[frozenset(n for n in (p.blue, p.red, p.bye) if n)] += 1
        games = [str(p.game) for p in pairings if p.game]
        _resign_all(world, conns, games, rng)
        steps.deliver(steps.pending())
        steps.spy.sent.clear()
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.status == "finished"
    pairs = [pair for pair in met if len(pair) == 2]
    assert len(pairs) == 6 - 1 and set(met.values()) == {1}  # dee's last: a forfeit
    players = {p.name: p for p in Tournaments(world.store).all_players(tid)}
    assert players["dee"].games == 2 and sum(p.byes for p in players.values()) == 1
    assert all(p.games + p.byes == 3 for name, p in players.items() if name != "dee")


def test_an_arena_player_who_left_is_not_paired_until_they_join_again(world: World) -> None:
    """Catches: a player who left an arena put back among the free players when their game
    ends (paired again against their will), or not paired again once they rejoin."""
    steps = Steps(world)
    tid, conns, game = _arena_of_two(world, steps)
    assert conns["bob"].ask("leave_tournament", tournament=tid)["type"] == "ack"
    _resign_all(world, conns, [game], random.Random(2))
    steps.drain()
    assert _live_games(world, tid) == []  # ann waits; bob is not among the free players
    assert [str(w["player"]) for w in Tournaments(world.store).waiting(tid)] == ["ann"]
    assert conns["bob"].ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.drain()  # the join's step pairs them again at once
    assert len(_live_games(world, tid)) == 1


def test_the_games_sweep_sends_a_start_on_time_and_an_early_timer_is_sent_again(
        world: World) -> None:
    """Catches: a tournament made with no timer (by the command, by the schedule) starting
    only at the sweep after its start, up to a minute late in AWS; a timer delivered
    before it is due doing the step early, or dropped instead of being sent again."""
    steps = Steps(world)
    starts = world.clock() + 30_000
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=starts, minutes=5, rated=False)
    assert world.sweep()["tournaments"] == 1  # the timeout function's once-a-minute sweep
    [timer] = steps.pending()
    assert timer == {"tournament": tid, "due_ms": starts}
    assert steps.spy.sent[0]["delay"] == 30
    steps.spy.sent.clear()
    world.clock.advance(10_000)  # delivered early (a delay is at most 15 min in SQS)
    assert steps.deliver([timer]) == {"batchItemFailures": []}
    assert Tournaments(world.store).get(tid).status == "upcoming"  # type: ignore[union-attr]
    [again] = steps.spy.sent
    assert again["body"] == timer and again["delay"] == 20
    steps.spy.sent.clear()
    world.clock.advance(20_000)
    steps.deliver([timer])
    assert Tournaments(world.store).get(tid).status == "running"  # type: ignore[union-attr]


def test_a_player_who_never_moves_loses_the_tournament_game(world: World) -> None:
    """Catches an aborted tournament game (its first move lost to the clock) counted as
    nothing: the opponent who came to play would get no point, and the absent player
    would lose nothing by staying away."""
    steps = Steps(world)
    tid, _, game = _arena_of_two(world, steps)
    first = current(world, game)
    assert first.turn is not None
    idle = first.players[first.turn]
    world.clock.advance(10 * 60_000)  # nobody moves: the clock aborts the game
    world.deliver_timers()
    steps.drain()
    assert current(world, game).result.by == "aborted"  # type: ignore[union-attr]
    players = {p.name: p for p in Tournaments(world.store).all_players(tid)}
    assert [entry.outcome for entry in players[idle].history] == ["loss"]
    [other] = [name for name in players if name != idle]
    assert [entry.outcome for entry in players[other].history] == ["win"]
