"""A round bigger than a step's budget is dealt in chunks, through the ``tournament``
function on both stores: each step deals at most its budget of boards (a count, and the
time its Lambda invocation has left), then sends itself the next step at once. A
1,000-player Swiss round is ~500 boards, more than the function's 29 s: dealt in one
step it would time out and wait minutes for the queue's retry. Two steps at once,
duplicates and a crash between chunks must still deal every player exactly one game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from harness import LambdaContext, World, function, load_event, sqs_event
from numbridge.service.usecases import tournament_steps
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store import keys
from numbridge.store.port import Put, Store, Write
from numbridge.store.tournaments import Tournaments
from players import current
from test_tournaments import Steps, _live_games

BUDGET = 2
NAMES = [f"p{n:02d}" for n in range(11)]  # five games and a bye


@pytest.fixture(autouse=True)
def _small_budget(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.svc.deal_budget_s = 20.0
    monkeypatch.setattr(tournament_steps, "GAMES_PER_STEP", BUDGET)


def _joined(world: World, steps: Steps, kind: str, names: list[str] = NAMES) -> str:
    length: dict[str, Any] = {"minutes": 10} if kind == "arena" else {"rounds": 1}
    tid = create_tournament(world.store, world.clock, kind=kind, room="blitz",
                            starts_ms=world.clock(), rated=False, **length)
    for name in names:
        assert world.join(name).ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.spy.sent.clear()  # the joins' steps: the sweep starts it
    return tid


def _deals_a_game(writes: list[Write]) -> bool:
    return any(isinstance(w, Put) and str(w.key[1]).startswith(keys.TOURNEY_PAIR_PREFIX)
               and w.item.get("game") for w in writes)


def _continuations(steps: Steps, tid: str) -> list[dict[str, Any]]:
    """The next steps sent at once (no delay, no game, no timer)."""
    return [s for s in steps.spy.sent
            if s["body"] == {"tournament": tid} and s["delay"] == 0]


def _one_by_one(world: World, steps: Steps, tid: str) -> list[int]:
    """Deliver the pending steps due now one message per invocation until none is left
    (a timer for later, an arena's end, stays): how many games each dealt."""
    dealt: list[int] = []
    for _ in range(50):
        due = [s for s in steps.spy.sent if s["body"].get("due_ms", 0) <= world.clock()]
        if not due:
            return dealt
        steps.spy.sent.remove(due[0])
        body = due[0]["body"]
        before = len(_live_games(world, tid))
        assert steps.deliver([body]) == {"batchItemFailures": []}
        dealt.append(len(_live_games(world, tid)) - before)
    raise AssertionError("the steps never stopped")


def _games_of(world: World, tid: str) -> Counter[str]:
    """How many games of the tournament each player is seated in (the games' own
    states, not the pairings)."""
    seated = Counter[str]()
    for game in _live_games(world, tid):
        seated.update(current(world, game).players.values())
    return seated


def _assert_each_once(world: World, tid: str, *, bye: bool) -> None:
    seated = _games_of(world, tid)
    pairings = Tournaments(world.store).pairings(tid, 1)
    byes = [p.bye for p in pairings if p.bye]
    assert set(seated.values()) == {1}, seated  # nobody dealt twice
    assert len(byes) == (1 if bye else 0)
    assert sorted([*seated, *byes]) == NAMES  # nobody left out
    assert len([p for p in pairings if p.game]) == len(_live_games(world, tid)) == 5


def test_a_swiss_round_bigger_than_the_budget_is_dealt_over_several_steps(
        world: World) -> None:
    """Catches a round dealt in one step whatever its size (a 1,000-player round times
    the tournament function out): the first step deals at most the budget and sends the
    next step at once, each next step deals at most the budget, and at the end every
    player has exactly one game or the bye; no next step is sent once all are dealt."""
    steps = Steps(world)
    tid = _joined(world, steps, "swiss")
    assert steps.sweep() == {"stepped": 1}  # started, round 1 planned, a first chunk
    assert len(_live_games(world, tid)) == BUDGET
    assert len(_continuations(steps, tid)) == 1
    dealt = _one_by_one(world, steps, tid)
    assert dealt == [2, 1]  # the rest, at most the budget a step, then none left
    _assert_each_once(world, tid, bye=True)
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.round == 1  # the round still being dealt was not skipped


def test_an_arena_start_with_more_waiting_players_than_the_budget_pairs_them_in_chunks(
        world: World) -> None:
    """Catches an arena pairing every waiting player in one step (hundreds at its start),
    or one whose chunked pairing forgets the players left waiting."""
    steps = Steps(world)
    tid = _joined(world, steps, "arena", NAMES[:10])
    assert steps.sweep() == {"stepped": 1}
    assert len(_live_games(world, tid)) == BUDGET
    dealt = _one_by_one(world, steps, tid)
    assert all(n <= BUDGET for n in dealt) and sum(dealt) == 5 - BUDGET
    seated = _games_of(world, tid)
    assert sorted(seated) == NAMES[:10] and set(seated.values()) == {1}
    assert not Tournaments(world.store).waiting(tid)


class _TimeRunsOut(LambdaContext):
    """An invocation whose time left falls under a board's worst case after ``boards``
    looks at it."""

    def __init__(self, boards: int) -> None:
        super().__init__()
        self.looks = 0
        self.boards = boards

    def get_remaining_time_in_millis(self) -> int:
        self.looks += 1
        return 29_000 if self.looks <= self.boards else 21_000  # the reserve: 20 s + 2 s


def test_a_step_stops_dealing_when_its_invocation_has_too_little_time_left(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a budget that counts games but not the invocation's time (a board can
    take up to the deal budget): the handler hands the step Lambda's time left, and a
    step with less than a board's worst case left deals no more and sends the rest on."""
    monkeypatch.setattr(tournament_steps, "GAMES_PER_STEP", 50)
    steps = Steps(world)
    tid = _joined(world, steps, "swiss")
    sweep = function("tournament")(load_event("sweep"), _TimeRunsOut(3))
    assert sweep == {"stepped": 1}
    assert len(_live_games(world, tid)) == 3
    [message] = _continuations(steps, tid)
    steps.spy.sent.clear()
    event = sqs_event([message["body"]], "s", "tournaments")
    assert function("tournament")(event, _TimeRunsOut(50)) == {"batchItemFailures": []}
    _assert_each_once(world, tid, bye=True)
    assert not _continuations(steps, tid)


class _StepMeanwhile:
    """A store that, before committing the first game a step deals, runs another whole
    step of the tournament (a duplicate continuation, run at the same time): the other
    deals the very slot this one is about to commit."""

    def __init__(self, store: Store, steps: Steps, tid: str) -> None:
        self.store = store
        self.steps = steps
        self.tid = tid
        self.ran = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transact(self, writes: list[Write]) -> None:
        if not self.ran and _deals_a_game(writes):
            self.ran = True
            assert self.steps.deliver([{"tournament": self.tid}]) == {
                "batchItemFailures": []}
        self.store.transact(writes)


def test_two_continuations_at_once_deal_nobody_twice_and_leave_one_chain(
        world: World) -> None:
    """Catches the slots of a round dealt twice by two steps at once (both read the same
    pairings made, then deal the same slots), and two chains of next steps where one
    would do (each step that lost a race sending its own next step, every board of the
    rest then made twice, one in vain)."""
    steps = Steps(world)
    tid = _joined(world, steps, "swiss")
    assert steps.sweep() == {"stepped": 1}
    [message] = _continuations(steps, tid)
    steps.spy.sent.clear()
    real = world.store
    racing = _StepMeanwhile(real, steps, tid)
    world.use_store(racing)
    try:
        assert steps.deliver([message["body"]]) == {"batchItemFailures": []}
    finally:
        world.use_store(real)
    assert racing.ran
    # The step run meanwhile dealt two; the first lost its race for the first slot.
    assert len(_live_games(world, tid)) == 2 * BUDGET
    assert len(_continuations(steps, tid)) == 1
    _one_by_one(world, steps, tid)
    _assert_each_once(world, tid, bye=True)


def test_a_duplicate_continuation_deals_nothing_twice(world: World) -> None:
    """Catches a duplicate delivery of a next step (SQS delivers at least once) dealing a
    slot again, or a game to a player who has one."""
    steps = Steps(world)
    tid = _joined(world, steps, "swiss")
    steps.sweep()
    for _ in range(10):
        pending = steps.pending()
        if not pending:
            break
        steps.spy.sent.clear()
        assert steps.deliver(pending * 3) == {"batchItemFailures": []}  # each three times
    assert not steps.pending()
    _assert_each_once(world, tid, bye=True)


class _CrashOnGame:
    """A store whose transaction dealing the ``nth`` game commits, then raises (once):
    a step that died between its deals, its next step never sent."""

    def __init__(self, store: Store, nth: int) -> None:
        self.store = store
        self.nth = nth
        self.deals = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transact(self, writes: list[Write]) -> None:
        self.store.transact(writes)
        if _deals_a_game(writes):
            self.deals += 1
            if self.deals == self.nth:
                raise RuntimeError("injected crash after the commit")


def test_a_crash_between_chunks_loses_nothing_the_sweep_resumes_the_round(
        world: World) -> None:
    """Catches a round left half dealt when the step dealing a chunk dies (its next step
    never sent, its message then lost): the games' once-a-minute sweep (AWS's, the
    timeout function) must resume the dealing, and nobody be dealt twice."""
    steps = Steps(world)
    tid = _joined(world, steps, "swiss")
    steps.sweep()
    [message] = _continuations(steps, tid)
    steps.spy.sent.clear()
    real = world.store
    crashing = _CrashOnGame(real, 1)
    world.use_store(crashing)
    try:
        answer = steps.deliver([message["body"]])
    finally:
        world.use_store(real)
    assert len(answer["batchItemFailures"]) == 1  # the step failed (SQS would retry it)
    assert len(_live_games(world, tid)) == BUDGET + 1  # its first game was committed
    assert not steps.pending()  # no next step: the retry is taken as lost too
    assert world.sweep().get("tournaments") == 1
    steps.drain()
    _assert_each_once(world, tid, bye=True)
