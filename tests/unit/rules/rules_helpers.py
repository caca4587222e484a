"""Cheap boards and state surgery for the rules tests (no puzzle generator needed).

The engine does not require a unique solution, so any valid solution grid with
any set of givens is a board. Imported as a plain module (the file name is
unique in the test tree).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from numbridge.rules import Board, GameOptions, GameState, Layout, Place, Seat, apply, new_game
from numbridge.rules.geometry import REGULAR_BLOCK_SHAPE, cell_of, index_of
from numbridge.rules.seats import MARK
from numbridge.rules.tiles import tiles_for
from testkit.sudoku import fill

# The keys of PROTOCOL.md's VIEW, and the extra ones the engine adds.
PROTOCOL_KEYS = {
    "game",
    "v",
    "room",
    "variant",
    "size",
    "blocks",
    "digits",
    "owners",
    "clues",
    "you",
    "players",
    "hand",
    "bag",
    "turn",
    "now_ms",
    "deadline_ms",
    "status",
    "result",
    "offers",
    "options",
}
EXTRA_KEYS = {"last_mistake", "resume_requested", "moves", "abortable"}

SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
SOL6 = "123456456123231564564231312645645312"

# Irregular layouts (connected under the six-neighbour adjacency); solutions
# are found once by the tests' backtracking solver (testkit.sudoku).
IRREGULAR6 = "000011001111222233223333444455445555"
IRREGULAR9 = "000000111000111111222222222333333444333444444555555555666666777666777777888888888"

ROOM_DEFAULTS: dict[str, dict[str, Any]] = {
    "bridge": {"size": 9, "take_price": 1, "move_ms": 45_000, "game_ms": 900_000},
    "blitz": {"size": 6, "take_price": 2, "move_ms": 30_000, "game_ms": 300_000},
    "domains": {"size": 9, "take_price": 1, "move_ms": 45_000, "game_ms": 1_200_000},
}


def options(variant: str = "bridge", **overrides: Any) -> GameOptions:
    values: dict[str, Any] = {
        "room": variant,
        "variant": variant,
        "blocks": "regular",
        "clues": 30,
        "highlighting": True,
        "rated": True,
        **ROOM_DEFAULTS[variant],
    }
    values.update(overrides)
    return GameOptions(**values)


def solve(layout: Layout, seed: int = 0) -> str:
    """A random valid filling of the layout (the tests' one solver, ``testkit.sudoku``)."""
    return fill(layout.to_string(), random.Random(seed))


@cache
def irregular_solution(size: int) -> tuple[Layout, str]:
    layout = Layout.from_string(IRREGULAR6 if size == 6 else IRREGULAR9)
    return layout, solve(layout, seed=size)


def shuffled_solution(size: int, rng: random.Random, irregular: bool = False) -> tuple[Layout, str]:
    """A fixed solution, relabelled (digit permutation) and, for regular blocks, with
    rows permuted within bands, bands permuted, columns within stacks, stacks permuted."""
    if irregular:
        layout, base = irregular_solution(size)
        rows = list(range(size))
        cols = list(range(size))
    else:
        layout = Layout.regular(size)
        base = SOL9 if size == 9 else SOL6
        h, w = REGULAR_BLOCK_SHAPE[size]
        rows = _block_permutation(size, h, rng)
        cols = _block_permutation(size, w, rng)
    labels = list(range(1, size + 1))
    rng.shuffle(labels)
    out = []
    for r in range(size):
        for c in range(size):
            digit = int(base[index_of(rows[r], cols[c], size)])
            out.append(str(labels[digit - 1]))
    return layout, "".join(out)


def _block_permutation(size: int, band: int, rng: random.Random) -> list[int]:
    bands = list(range(size // band))
    rng.shuffle(bands)
    order = []
    for b in bands:
        inner = list(range(band))
        rng.shuffle(inner)
        order.extend(b * band + i for i in inner)
    return order


def make_board(size: int = 9, givens: Iterable[int] = (), solution: str | None = None) -> Board:
    layout = Layout.regular(size)
    solution = solution or (SOL9 if size == 9 else SOL6)
    given = set(givens)
    text = "".join(s if i in given else "." for i, s in enumerate(solution))
    return Board(layout, text, solution)


def deal(
    variant: str = "bridge",
    *,
    givens: Iterable[int] | None = None,
    seed: int = 1,
    now: int = 0,
    **overrides: Any,
) -> GameState:
    opts = options(variant, **overrides)
    if givens is None:
        givens = range(0, opts.size * opts.size, 3)
    board = make_board(opts.size, givens)
    return new_game("g-test", opts, board, {"blue": "ana", "red": "bob"}, random.Random(seed), now)


def idx(state: GameState, r: int, c: int) -> int:
    return index_of(r, c, state.size)


def arrange(
    state: GameState,
    *,
    owners: Mapping[tuple[int, int], Seat] | None = None,
    hands: Mapping[Seat, Sequence[int]] | None = None,
    bag: Sequence[int] | None = None,
    **fields: Any,
) -> GameState:
    """Own cells (empty ones get their solution digit), set hands; the bag becomes
    whatever is left of the tiles in play (or ``bag`` exactly, checked)."""
    size = state.size
    digits = list(state.digits)
    marks = list(state.owners)
    for (r, c), seat in (owners or {}).items():
        i = index_of(r, c, size)
        digits[i] = state.board.solution[i]
        marks[i] = MARK[seat]
    in_play = Counter(tiles_for(state.board.solution, digits))
    rest = Counter(in_play)
    chosen: dict[str, tuple[int, ...]] = {}
    given = [s for s in ("blue", "red") if hands is not None and s in hands]
    for seat in [*given, *(s for s in ("blue", "red") if s not in given)]:
        if hands is not None and seat in hands:
            hand = Counter(hands[seat])
            assert not hand - rest, f"{seat}'s hand holds tiles not in play"
        else:  # keep what still fits
            hand = Counter(state.side(seat).hand) & rest
        rest -= hand
        chosen[seat] = tuple(sorted(hand.elements()))
    blue = dataclasses.replace(state.blue, hand=chosen["blue"])
    red = dataclasses.replace(state.red, hand=chosen["red"])
    if bag is None:
        new_bag = tuple(sorted(rest.elements()))
    else:
        new_bag = tuple(sorted(bag))
        assert Counter(new_bag) == rest, "bag + hands must be the tiles in play"
    return dataclasses.replace(
        state,
        digits="".join(digits),
        owners="".join(marks),
        blue=blue,
        red=red,
        bag=new_bag,
        **fields,
    )


def check_tiles(state: GameState) -> None:
    """RULES.md §3: bag + both hands = the solution digits of the empty cells."""
    in_play = tiles_for(state.board.solution, state.digits)
    held = sorted([*state.bag, *state.blue.hand, *state.red.hand])
    assert held == in_play
    assert len(state.blue.hand) <= 3 and len(state.red.hand) <= 3
    assert list(state.bag) == sorted(state.bag)


def check_board(state: GameState) -> None:
    sol, givens = state.board.solution, state.board.givens
    for i, (d, o, g) in enumerate(zip(state.digits, state.owners, givens, strict=True)):
        if g != ".":
            assert d == g
        if d != ".":
            assert d == sol[i]
        else:
            assert o == "."
        assert o in ".br"


def roundtrip(state: GameState) -> GameState:
    data = json.loads(json.dumps(state.to_dict()))
    back = GameState.from_dict(data)
    assert back == state
    assert back.to_dict() == state.to_dict()
    return back


def cell(state: GameState, i: int) -> tuple[int, int]:
    return cell_of(i, state.size)


def empty_cell_for(state: GameState, digit: int, skip: int = 0) -> tuple[int, int]:
    """An empty cell whose solution is ``digit``."""
    n = state.size
    found = [
        divmod(i, n)
        for i, (d, s) in enumerate(zip(state.digits, state.board.solution, strict=True))
        if d == "." and s == str(digit)
    ]
    return found[skip]


def wrong_cell_for(state: GameState, digit: int) -> tuple[int, int]:
    n = state.size
    for i, (d, s) in enumerate(zip(state.digits, state.board.solution, strict=True)):
        if d == "." and s != str(digit):
            return divmod(i, n)
    raise AssertionError("no wrong cell")


def free_clue(state: GameState) -> tuple[int, int]:
    n = state.size
    for i, (g, o) in enumerate(zip(state.board.givens, state.owners, strict=True)):
        if g != "." and o == ".":
            return divmod(i, n)
    raise AssertionError("no free clue")


def play_correct(s: GameState, seat: Seat, now: int = 0) -> GameState:
    digit = s.hand(seat)[0]
    return apply(s, seat, Place(empty_cell_for(s, digit), digit), now, random.Random(3)).state


def play_mistake(s: GameState, seat: Seat, now: int = 0) -> GameState:
    digit = s.hand(seat)[0]
    return apply(s, seat, Place(wrong_cell_for(s, digit), digit), now, random.Random(3)).state
