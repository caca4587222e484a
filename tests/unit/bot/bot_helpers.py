"""Boards, positions and an independent sudoku checker for the bot's tests.

Positions are real game states of the rules engine, arranged by hand; the bot
only ever gets ``rules.player_view`` of them. The checker here shares no code
with the bot: candidates straight from RULES.md §2 (rows, slanted columns,
blocks). Imported as a plain module (the file name is unique in the test tree).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from numbridge import rules
from numbridge.bot import Knowledge, Level, decide
from numbridge.bot.selfplay import frame_action
from numbridge.rules import Board, GameOptions, GameState, Layout
from numbridge.rules.seats import MARK, Seat

SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
SOL6 = "123456456123231564564231312645645312"

ROOMS: dict[str, dict[str, Any]] = {
    "bridge": {"size": 9, "take_price": 1, "move_ms": 45_000, "game_ms": 900_000},
    "blitz": {"size": 6, "take_price": 2, "move_ms": 30_000, "game_ms": 300_000},
    "domains": {"size": 9, "take_price": 1, "move_ms": 45_000, "game_ms": 1_200_000},
}
NOW = 10_000


def options(variant: str, **overrides: Any) -> GameOptions:
    values: dict[str, Any] = {
        "room": variant, "variant": variant, "blocks": "regular", "clues": 30,
        "highlighting": True, "rated": False, **ROOMS[variant],
    }
    values.update(overrides)
    return GameOptions(**values)


def cell(r: int, c: int, size: int = 9) -> int:
    return r * size + c


def deal(variant: str, givens: Iterable[int], seed: int = 1, **overrides: Any) -> GameState:
    """A game on the fixed solution with the given clue cells (uniqueness not needed)."""
    opts = options(variant, **overrides)
    solution = SOL6 if opts.size == 6 else SOL9
    given = set(givens)
    text = "".join(s if i in given else "." for i, s in enumerate(solution))
    board = Board(Layout.regular(opts.size), text, solution)
    players = {"blue": "ana", "red": "bob"}
    return rules.new_game("g-bot", opts, board, players, random.Random(seed), 0)


def arrange(
    state: GameState,
    owners: Mapping[int, Seat] | None = None,
    hands: Mapping[Seat, Sequence[int]] | None = None,
    **fields: Any,
) -> GameState:
    """Own cells (empty ones get their solution digit), set hands; the bag is the rest of
    the tiles in play (RULES.md §3: bag + hands = the solution digits of the empty cells)."""
    digits, marks = list(state.digits), list(state.owners)
    for i, seat in (owners or {}).items():
        digits[i] = state.board.solution[i]
        marks[i] = MARK[seat]
    rest = Counter(int(s) for s, d in zip(state.board.solution, digits, strict=True) if d == ".")
    chosen: dict[str, tuple[int, ...]] = {}
    for seat in ("blue", "red"):
        wanted = Counter((hands or {}).get(seat, state.side(seat).hand))  # type: ignore[call-overload]
        assert not wanted - rest, f"{seat}'s hand holds tiles not in play"
        rest -= wanted
        chosen[seat] = tuple(sorted(wanted.elements()))
    return dataclasses.replace(
        state,
        digits="".join(digits),
        owners="".join(marks),
        blue=dataclasses.replace(state.blue, hand=chosen["blue"]),
        red=dataclasses.replace(state.red, hand=chosen["red"]),
        bag=tuple(sorted(rest.elements())),
        **fields,
    )


def view(state: GameState, seat: Seat) -> dict[str, Any]:
    return rules.player_view(state, seat, NOW)


def think(
    state: GameState, seat: Seat, level: Level, seed: int = 0,
    knowledge: Knowledge | None = None,
) -> dict[str, Any] | None:
    return decide(view(state, seat), knowledge or Knowledge(), level, random.Random(seed))


def play_frame(state: GameState, seat: Seat, frame: Mapping[str, Any]) -> rules.Transition:
    """Apply the bot's frame with the rules engine (raises if the engine refuses it)."""
    return rules.apply(state, seat, frame_action(frame), NOW, random.Random(0))


# --- an independent sudoku checker ----------------------------------------------


def units(size: int) -> list[list[int]]:
    rows, cols = {9: (3, 3), 6: (2, 3)}[size]
    out = [[r * size + c for c in range(size)] for r in range(size)]
    out += [[r * size + c for r in range(size)] for c in range(size)]
    blocks: dict[int, list[int]] = {}
    for r in range(size):
        for c in range(size):
            blocks.setdefault((r // rows) * (size // cols) + c // cols, []).append(r * size + c)
    return out + list(blocks.values())


def candidates(digits: str, size: int) -> dict[int, set[int]]:
    """Per empty cell, the digits no row, column or block of it already shows."""
    seen: dict[int, set[int]] = {i: set() for i, d in enumerate(digits) if d == "."}
    for unit in units(size):
        shown = {int(digits[i]) for i in unit if digits[i] != "."}
        for i in unit:
            if i in seen:
                seen[i] |= shown
    return {i: set(range(1, size + 1)) - s for i, s in seen.items()}


def hidden_single(digits: str, size: int, i: int, digit: int) -> bool:
    """Whether ``digit`` has no other place than cell i in some unit of i."""
    cands = candidates(digits, size)
    return any(
        i in unit and [j for j in unit if digit in cands.get(j, ())] == [i]
        for unit in units(size)
    )
