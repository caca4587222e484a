"""A random player for property tests: drives whole games with legal and illegal
actions, checks every invariant after every step, and judges each turn action
against an independent oracle (what RULES.md says should be legal)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from numbridge.rules import (
    Abort,
    AcceptAdjourn,
    AcceptDraw,
    Action,
    Board,
    DeclineDraw,
    Exchange,
    GameOver,
    GameState,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    OfferAdjourn,
    OfferDraw,
    Place,
    Resign,
    Resume,
    RulesError,
    Swap,
    Take,
    Transition,
    advance,
    apply,
    new_game,
    next_deadline,
    other,
    player_view,
    spectator_view,
)
from numbridge.rules.goals import block_table, connection
from numbridge.rules.plain import plain
from numbridge.rules.seats import SEATS, Seat
from rules_helpers import (
    EXTRA_KEYS,
    PROTOCOL_KEYS,
    check_board,
    check_tiles,
    options,
    roundtrip,
    shuffled_solution,
)
from testkit.hidden import leaks, secrets_of

EVENT_KINDS = {
    "placed",
    "mistake",
    "taken",
    "exchanged",
    "swapped",
    "timeout",
    "passed",
    "hand",
    "turn",
    "draw_offered",
    "draw_declined",
    "draw_lapsed",
    "adjourn_offered",
    "adjourn_lapsed",
    "adjourned",
    "resume_requested",
    "resumed",
    "finished",
}
VIEW_KEYS = PROTOCOL_KEYS | EXTRA_KEYS | {
    "moves_left_in_pair", "block_table", "block_owners", "swap_available", "swap_open", "grade",
}


@dataclass(frozen=True)
class Setup:
    variant: str
    seed: int
    irregular: bool
    clue_share: float
    take_price: int
    game_ms: int | None
    move_ms: int
    to_the_end: bool  # no resignations or agreed draws: play until a goal or time


def deal_setup(setup: Setup) -> GameState:
    size = 6 if setup.variant == "blitz" else 9
    r = random.Random(setup.seed)
    layout, solution = shuffled_solution(size, r, setup.irregular)
    cells = size * size
    clues = sorted(r.sample(range(cells), round(cells * setup.clue_share)))
    givens = "".join(solution[i] if i in set(clues) else "." for i in range(cells))
    opts = options(
        setup.variant,
        room="study" if setup.game_ms is None else setup.variant,
        blocks="irregular" if setup.irregular else "regular",
        clues=len(clues),
        take_price=setup.take_price,
        move_ms=setup.move_ms,
        game_ms=setup.game_ms,
    )
    board = Board(layout, givens, solution)
    return new_game("g-prop", opts, board, {"blue": "ana", "red": "bob"}, r, 1_000)


# --- the oracle --------------------------------------------------------------


def free_clues(s: GameState) -> list[int]:
    return [
        i
        for i, (g, o) in enumerate(zip(s.board.givens, s.owners, strict=True))
        if g != "." and o == "."
    ]


HAND = 3  # RULES.md §3: each player holds up to 3 tiles
ABANDON_AFTER = 4  # RULES.md §7 [decided]: turns in a row lost to the clock, no game clock
MAX_STEPS = 200  # catch-up's documented safety net: a fresh move limit past this many


@dataclass
class Due:
    """What the deadlines passed by ``now`` leave, worked out from RULES.md §4, §6, §7
    alone: who moves, the status, the clocks, how many tiles each holds. Which
    tiles a refill draws is chance; ``refilled`` says whose hand it touched."""

    status: str
    to_move: Seat
    moves_left: int
    turns_played: int
    turn_started: int
    clocks: dict[Seat, int | None]
    hand_sizes: dict[Seat, int]
    bag: int
    refilled: set[Seat]
    winner: Seat | None = None
    by: str = "time"


def run_of_timeouts(s: GameState) -> int:
    """Turns lost to the clock at the end of the record; automatic passes do not count
    and do not break the run."""
    run = 0
    for entry in reversed(s.record):
        if entry.action == "timeout":
            run += 1
        elif entry.action != "pass":
            break
    return run


def due_model(s: GameState, now: int) -> Due:
    pair = 2 if s.variant == "domains" else 1
    clues_free = bool(free_clues(s))
    d = Due(s.status, s.to_move, s.moves_left_in_pair, s.turns_played, s.turn_started_ms,
            {seat: s.side(seat).clock_ms for seat in SEATS},
            {seat: len(s.hand(seat)) for seat in SEATS}, len(s.bag), set())
    run, steps, move_ms = run_of_timeouts(s), 0, s.options.move_ms
    while d.status == "playing":
        clock = d.clocks[d.to_move]
        on_time = clock is not None and clock <= move_ms  # the game clock ends first
        at = d.turn_started + (clock if on_time and clock is not None else move_ms)
        if at > now:
            break
        if steps >= MAX_STEPS:
            d.turn_started = now
            break
        steps += 1
        mover = d.to_move
        if not made_first_move(s, mover):  # RULES §7: a first move lost to the clock
            used = at - d.turn_started
            d.clocks[mover] = None if clock is None else max(0, clock - used)
            d.status, d.winner, d.by, d.turn_started = "finished", None, "aborted", at
            d.turns_played += 1
            break
        if on_time:  # lost on time
            d.status, d.winner, d.clocks[mover], d.turn_started = "finished", other(mover), 0, at
            break
        # The move is lost (in Domains the pair): the hand refills as after a mistake.
        d.clocks[mover] = None if clock is None else clock - move_ms
        d.turns_played += 1
        run += 1
        drawn = min(HAND - d.hand_sizes[mover], d.bag)
        if drawn:
            d.hand_sizes[mover] += drawn
            d.bag -= drawn
            d.refilled.add(mover)
        d.to_move, d.moves_left, d.turn_started = other(mover), pair, at
        passes = 0
        while d.hand_sizes[d.to_move] == 0 and d.bag == 0 and not clues_free:
            passes += 1
            assert passes <= 2, "both players have nothing to play"
            d.turns_played += 1
            d.to_move, d.moves_left = other(d.to_move), pair
        if s.options.game_ms is None and run >= ABANDON_AFTER:
            d.status = "adjourned"
    return d


def check_due(before: GameState, after: GameState, now: int) -> None:
    """The engine's catch-up against the model: everything but the tiles drawn."""
    want = due_model(before, now)
    assert after.status == want.status, (after.status, want)
    assert (after.turns_played, after.bag.__len__()) == (want.turns_played, want.bag), want
    assert {seat: after.side(seat).clock_ms for seat in SEATS} == want.clocks, want
    assert {seat: len(after.hand(seat)) for seat in SEATS} == want.hand_sizes, want
    for seat in SEATS:
        if seat not in want.refilled:
            assert after.hand(seat) == before.hand(seat)
    if want.status == "finished":
        assert after.result is not None and (after.result.winner, after.result.by) == (
            want.winner, want.by)
        return
    assert (after.to_move, after.moves_left_in_pair) == (want.to_move, want.moves_left), want
    if want.status == "playing":
        assert after.turn_started_ms == want.turn_started, want
        assert (after.draw_offer, after.adjourn_offer) == (before.draw_offer,
                                                           before.adjourn_offer)


def expected_error(s: GameState, seat: Any, action: Any,
                   swap_open: bool) -> type[RulesError] | None:
    """What RULES.md/PROTOCOL.md say ``apply`` must raise (None: legal); ``swap_open``:
    the pie rule is open now (the player's own record of the game says so)."""
    n = s.size
    if seat not in SEATS:
        return MalformedAction
    if isinstance(action, Place | Take):
        cell = action.cell
        if not (isinstance(cell, tuple) and len(cell) == 2 and all(type(v) is int for v in cell)):
            return MalformedAction
        if isinstance(action, Place) and type(action.digit) is not int:
            return MalformedAction
        if isinstance(action, Take) and action.digit is not None and type(action.digit) is not int:
            return MalformedAction
    if s.status == "finished":
        return GameOver
    turn_action = isinstance(action, Place | Take | Exchange | Swap)
    if turn_action:
        if s.status != "playing":
            return IllegalAction
        if seat != s.to_move:
            return NotYourTurn
    hand = s.hand(seat)
    if isinstance(action, Place | Take):
        r, c = action.cell
        if not (0 <= r < n and 0 <= c < n):
            return IllegalAction
        i = r * n + c
    if isinstance(action, Place):
        if s.board.givens[i] != "." or s.digits[i] != "." or action.digit not in hand:
            return IllegalAction
        return None
    if isinstance(action, Take):
        if i not in free_clues(s):
            return IllegalAction
        if not hand:
            return None if action.digit is None else IllegalAction
        if action.digit is None or action.digit not in hand:
            return IllegalAction
        return None if len(hand) >= s.options.take_price else IllegalAction
    if isinstance(action, Exchange):
        return None if s.bag else IllegalAction
    if isinstance(action, Swap):
        return None if swap_open else IllegalAction
    if isinstance(action, Resign):
        return None
    if isinstance(action, OfferDraw):
        return IllegalAction if s.draw_offer == seat else None
    if isinstance(action, AcceptDraw | DeclineDraw):
        return None if s.draw_offer == other(seat) else IllegalAction
    if isinstance(action, OfferAdjourn):
        return None if s.status == "playing" and s.adjourn_offer != seat else IllegalAction
    if isinstance(action, AcceptAdjourn):
        ok = s.status == "playing" and s.adjourn_offer == other(seat)
        return None if ok else IllegalAction
    if isinstance(action, Resume):
        return None if s.status == "adjourned" and not s.side(seat).resume else IllegalAction
    if isinstance(action, Abort):
        return None if not all(made_first_move(s, x) for x in SEATS) else IllegalAction
    raise AssertionError(action)


def made_first_move(s: GameState, seat: Seat) -> bool:
    return any(e.seat == seat and e.action in ("place", "take", "exchange", "swap")
               for e in s.record)


# --- invariants --------------------------------------------------------------


def check_state(s: GameState) -> None:
    check_tiles(s)
    check_board(s)
    n = s.size
    if s.variant == "domains":
        assert s.moves_left_in_pair in (1, 2)
    else:
        assert s.moves_left_in_pair == 1
    for seat in SEATS:
        clock = s.side(seat).clock_ms
        assert (clock is None) == (s.options.game_ms is None)
        assert clock is None or clock >= 0
    if s.status == "playing":
        mover = s.to_move
        # the automatic pass was applied: the mover always has something to do
        assert s.hand(mover) or s.bag or free_clues(s)
    if s.status != "finished":
        assert s.result is None
        if s.variant == "domains":
            table = block_table(s.owners, s.board.layout)
            assert table.winner() is None
        else:
            assert connection(s.owners, n, "blue") is None
            assert connection(s.owners, n, "red") is None
    else:
        result = s.result and s.result.to_dict()
        assert result is not None
        check_result(s, result)


def check_result(s: GameState, result: dict[str, Any]) -> None:
    n = s.size
    if result["by"] in ("agreement", "aborted"):
        assert result["winner"] is None
        if result["by"] == "aborted":  # RULES §7: before each player's first move
            assert not all(made_first_move(s, x) for x in SEATS)
        return
    winner = result["winner"]
    assert winner in SEATS
    if result["by"] != "goal":
        return
    mark = winner[0]
    if s.variant == "domains":
        table = block_table(s.owners, s.board.layout)
        assert table.winner() == winner
        assert result["blocks"] == table.blocks_of(winner)
        assert result["block_table"] == plain(table.counts())
    else:
        path = result["path"]
        assert all(s.owners[r * n + c] == mark for r, c in path)
        ends = [path[0], path[-1]]
        axis = 0 if winner == "blue" else 1
        assert {ends[0][axis], ends[1][axis]} == {0, n - 1}


def check_transition(before: GameState, t: Transition) -> None:
    after = t.state
    assert after.v == before.v + len(t.events)
    assert [e.v for e in t.events] == list(range(before.v + 1, after.v + 1))
    last_hand: dict[Seat, list[int]] = {}
    hidden = [] if after.status == "finished" else [secrets_of(after, seat) for seat in SEATS]
    for e in t.events:
        assert e.kind in EVENT_KINDS, e.kind
        data = plain(e.body)
        json.dumps(data)
        if e.kind == "hand":
            assert e.to in SEATS and set(data) == {"hand"}
            last_hand[e.to] = data["hand"]  # type: ignore[index]
        else:
            assert e.to is None
            assert "hand" not in data and "solution" not in data and "paid_digits" not in data
            # A public event tells neither player anything hidden after the transition.
            assert leaks(data, hidden) == [], (e.kind, data)
    for seat, hand in last_hand.items():
        assert hand == list(after.hand(seat))
    for seat in SEATS:  # every change of a hand is announced to its holder
        if before.hand(seat) != after.hand(seat):
            assert seat in last_hand
    if any(e.kind == "finished" for e in t.events):
        assert t.events[-1].kind == "finished" and after.status == "finished"


def check_views(s: GameState, now: int) -> None:
    for seat in (*SEATS, None):
        view = player_view(s, seat, now) if seat else spectator_view(s, now)
        assert set(view) <= VIEW_KEYS
        text = json.dumps(view)
        assert '"solution"' not in text and '"record"' not in text
        # No hidden digit, tile or solution anywhere in the view (testkit.hidden).
        assert leaks(view, [secrets_of(s, seat)]) == [], leaks(view, [secrets_of(s, seat)])
        assert isinstance(view["bag"], int) and view["bag"] == len(s.bag)
        for who in SEATS:
            assert set(view["players"][who]) == {"name", "hand_size", "mistakes", "clock_ms"}
        if seat is None:
            assert "hand" not in view and "you" not in view
        else:
            assert view["hand"] == list(s.hand(seat)) and view["you"] == seat
        assert view["v"] == s.v and view["status"] == s.status


def fingerprint(s: GameState) -> tuple[Any, ...]:
    return (
        s.v,
        s.digits,
        s.owners,
        s.bag,
        s.blue,
        s.red,
        s.status,
        s.to_move,
        s.moves_left_in_pair,
        s.turn_started_ms,
        s.draw_offer,
        s.adjourn_offer,
        len(s.record),
    )


# --- the player --------------------------------------------------------------


class Player:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.state = deal_setup(setup)
        self.now = 1_000
        self.pick = random.Random(setup.seed ^ 0xA5A5)
        self.engine_rng = random.Random(setup.seed ^ 0x5EED)
        self.oracle_rng = random.Random(0)
        self.steps = 0
        self.errors: Counter[str] = Counter()
        # The player's own account of the game, from the events it saw: turns played,
        # and whether blue came to own a cell on its first turn (the pie rule).
        self.turns = 0
        self.first_turn_owned: bool | None = None

    # the player's own record -------------------------------------------------

    def observe(self, t: Transition) -> None:
        for e in t.events:
            kind = e.kind
            if kind in {"placed", "mistake", "taken", "exchanged", "swapped", "timeout",
                        "passed"}:
                if self.turns == 0:
                    self.first_turn_owned = (e.body.seat == "blue"
                                             and kind in {"placed", "taken"})
                self.turns += 1
            elif kind == "timeouts":
                count = e.body.count + e.body.passes
                if self.turns == 0 and count:
                    self.first_turn_owned = False
                self.turns += count
        assert t.state.turns_played == self.turns, (t.state.turns_played, self.turns)

    def swap_open(self, s: GameState) -> bool:
        """RULES.md §10: red's first turn, and only then, if blue's first turn owned a cell."""
        return (s.variant != "domains" and s.status == "playing" and s.to_move == "red"
                and self.turns == 1 and bool(self.first_turn_owned))

    # choosing ----------------------------------------------------------------

    def cells_for(self, digit: int, correct: bool) -> list[tuple[int, int]]:
        s = self.state
        n = s.size
        return [
            divmod(i, n)
            for i, (d, sol) in enumerate(zip(s.digits, s.board.solution, strict=True))
            if d == "." and (sol == str(digit)) == correct
        ]

    def turn_action(self, seat: Seat) -> Action:
        s, p = self.state, self.pick
        hand = s.hand(seat)
        if s.variant != "domains" and seat == "red" and self.turns == 1 and p.random() < 0.3:
            return Swap()  # red's first turn: a swap, whether the rule is open or not
        roll = p.random()
        if hand and roll < 0.55:
            digit = p.choice(hand)
            return Place(p.choice(self.cells_for(digit, True)), digit)
        if hand and roll < 0.65:
            digit = p.choice(hand)
            wrong = self.cells_for(digit, False)
            if wrong:
                return Place(p.choice(wrong), digit)
        clues = free_clues(s)
        if clues and roll < 0.8:
            i = p.choice(clues)
            digit = p.choice(hand) if hand and p.random() < 0.9 else None
            return Take(divmod(i, s.size), digit)
        return Exchange()

    def junk(self, seat: Seat) -> tuple[Any, Any]:
        """Something probably refused (the oracle says what exactly)."""
        s, p = self.state, self.pick
        n = s.size
        options_: list[tuple[Any, Any]] = [
            (other(s.to_move), Place((0, 0), 1)),  # not your turn (or worse)
            (seat, Place((p.randint(-1, n), p.randint(-1, n)), p.randint(0, n + 1))),
            (seat, Take((p.randint(0, n - 1), p.randint(0, n - 1)), p.choice([None, 1, 2]))),
            (seat, Place((1, 2), "3")),
            (seat, Take((1,), None)),  # type: ignore[arg-type]
            ("green", Exchange()),
            (seat, Swap()),
            (seat, AcceptDraw()),
            (seat, DeclineDraw()),
            (seat, AcceptAdjourn()),
            (seat, Resume()),
            (seat, Exchange()),
        ]
        if self.setup.to_the_end:  # no agreed draws in games played to the end
            options_ = [o for o in options_ if not isinstance(o[1], AcceptDraw)]
        return p.choice(options_)

    def club_action(self) -> tuple[Seat, Action]:
        s, p = self.state, self.pick
        seat: Seat = p.choice(SEATS)
        end = self.setup.to_the_end
        if s.status == "adjourned":
            asked = [x for x in SEATS if not s.side(x).resume]
            return p.choice(asked), Resume()
        if s.draw_offer is not None:
            receiver = other(s.draw_offer)
            if end or p.random() < 0.7:
                return receiver, DeclineDraw()
            return receiver, AcceptDraw()
        if s.adjourn_offer is not None and p.random() < 0.7:
            return other(s.adjourn_offer), AcceptAdjourn()
        if not end and p.random() < 0.05:
            return seat, Resign()
        if not end and p.random() < 0.1:
            return seat, Abort()  # refused once both have moved
        return seat, p.choice([OfferDraw(), OfferAdjourn()])

    # stepping ----------------------------------------------------------------

    def try_apply(self, seat: Any, action: Any, now: int) -> None:
        s = self.state
        rng_state = self.engine_rng.getstate()
        due = s
        account = (self.turns, self.first_turn_owned)
        model = due_model(s, now)
        if (model.turns_played, model.status, model.turn_started) != (
                s.turns_played, s.status, s.turn_started_ms):
            # Deadlines passed before the action: apply sees what they leave. Who moves,
            # the status, the clocks and the hand sizes come from the model; only the
            # tiles drawn are taken from the engine (chance), the rest checked against it.
            self.oracle_rng.setstate(rng_state)
            caught = advance(s, now, self.oracle_rng)
            check_due(s, caught.state, now)
            due = caught.state
            self.observe(caught)
        swap_open = self.swap_open(due)
        self.turns, self.first_turn_owned = account  # the catch-up happens for real below
        expected = expected_error(due, seat, action, swap_open)
        before: Any = None
        if expected is not None:
            # the full form now and then; a cheap fingerprint otherwise
            before = s.to_dict() if self.steps % 4 == 0 else fingerprint(s)
        try:
            t = apply(s, seat, action, now, self.engine_rng)
        except RulesError as err:
            self.errors[type(err).__name__] += 1
            assert expected is not None and isinstance(err, expected), (action, err, expected)
            assert str(err)
            assert (s.to_dict() if self.steps % 4 == 0 else fingerprint(s)) == before
            self.engine_rng.setstate(rng_state)
            # the refusal carries exactly what was due before the action
            replay = random.Random()
            replay.setstate(rng_state)
            was_due = advance(s, now, replay)
            if was_due.events:
                assert err.due is not None and err.due.events == was_due.events
                assert err.due.state.to_dict() == was_due.state.to_dict()
            else:
                assert err.due is None
            if isinstance(err, GameOver) and s.status != "finished":
                # lost on time before the action: the service's timer applies it
                t = advance(s, now, self.engine_rng)
                check_due(s, t.state, now)
                check_transition(s, t)
                self.observe(t)
                self.state, self.now = t.state, max(self.now, now)
            return
        assert expected is None, (action, expected)
        check_transition(s, t)
        self.observe(t)
        self.state = t.state
        self.now = max(self.now, now)

    def step(self) -> None:
        s, p = self.state, self.pick
        self.steps += 1
        move_ms = s.options.move_ms
        roll = p.random()
        deadline = next_deadline(s)
        opening = self.setup.to_the_end and not all(made_first_move(s, x) for x in SEATS)
        if opening:  # a first move lost to the clock would abort the game
            first_deadline, deadline = deadline, None
        if deadline is not None and roll < 0.06:
            # the move limit passes (sometimes several): the timer calls advance
            at = deadline + (p.randint(0, 3 * move_ms) if p.random() < 0.3 else 0)
            t = advance(s, at, self.engine_rng)
            check_due(s, t.state, at)
            check_transition(s, t)
            self.observe(t)
            self.state, self.now = t.state, at
            return
        now = self.now + p.randint(0, move_ms // 3)
        if deadline is not None and p.random() < 0.03:
            now = deadline + p.randint(0, move_ms)  # an action arriving late
        if opening and first_deadline is not None:
            now = min(now, first_deadline - 1)
        if s.status != "playing" or roll < 0.12:
            seat, action = self.club_action()
            self.try_apply(seat, action, now)
        elif roll < 0.25:
            self.try_apply(*self.junk(s.to_move), now)
        else:
            self.try_apply(s.to_move, self.turn_action(s.to_move), now)

    def play(self, max_steps: int, check_every: int = 20) -> GameState:
        for _ in range(max_steps):
            if self.state.status == "finished":
                break
            self.step()
            check_state(self.state)
            if self.steps % check_every == 0:
                check_views(self.state, self.now)
                roundtrip(self.state)
        check_views(self.state, self.now)
        roundtrip(self.state)
        return self.state
