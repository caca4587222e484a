"""Choosing a turn: every claim the bot can make, weighed by what it gains and how sure it is.

A claim is a placement (a tile on an empty cell, right with the chance the
bot's beliefs give it; a mistake costs only the move, RULES.md §5) or a take
(a free clue, certain, for a price in tiles). Each is worth its chance times
its gain by the evaluator, less what the payment costs. An exchange is
chosen when the best claim falls far short of what the best free cell would
give (fishing for a needed digit); the pie rule is weighed on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from numbridge.rules.seats import MARK

from .beliefs import Beliefs
from .evaluate import Evaluator, evaluator
from .hex_distance import shortest
from .position import Level, Position
from .worth import WIN

# An exchange is chosen when the best claim gains less than this share of what
# the best free cell would: a fresh hand pays off only on a later turn.
FISHING: dict[Level, float] = {"easy": 0.1, "normal": 0.1, "strong": 0.1}


# How much of a take's gain a level sees: easy, like a beginner, would rather
# play the tiles it holds (and guess) than pay for a clue.
TAKE_SHARE: dict[Level, float] = {"easy": 0.5, "normal": 1.0, "strong": 1.0}


@dataclass(frozen=True)
class Turn:
    kind: Literal["place", "take", "exchange", "swap"]
    cell: int | None = None
    digit: int | None = None  # placed, or paid with (None: a free take)


@dataclass(frozen=True)
class _Option:
    turn: Turn
    worth: float


class _Gains:
    """What claiming each cell gains the bot (or the opponent's claiming it), memoised."""

    def __init__(self, position: Position, judge: Evaluator) -> None:
        self.judge = judge
        self.owners = list(position.owners)
        self.base = judge.value(self.owners)
        self.mine = MARK[position.me]
        self.theirs = MARK[position.them]
        self._memo: dict[tuple[str, int], float] = {}

    def of(self, cells: set[int], mark: str) -> dict[int, float]:
        todo = {c for c in cells if (mark, c) not in self._memo}
        if todo:
            for cell, value in self.judge.after(self.owners, todo, mark).items():
                self._memo[mark, cell] = value - self.base
        return {c: self._memo[mark, c] for c in cells}


def _placements(position: Position, beliefs: Beliefs) -> list[tuple[int, int, float]]:
    """(cell, digit, chance) for every tile in hand on every empty cell it may fit."""
    out = []
    digits = sorted(set(position.hand))
    for cell in position.empty_cells():
        for digit in digits:
            chance = beliefs.chance(cell, digit)
            if chance > 0:
                out.append((cell, digit, chance))
    return out


def _usefulness(
    placements: Sequence[tuple[int, int, float]], gain: dict[int, float], hand: Sequence[int]
) -> dict[int, float]:
    """For each tile, the most it can gain this turn."""
    best = dict.fromkeys(hand, 0.0)
    for cell, digit, chance in placements:
        best[digit] = max(best[digit], chance * gain[cell])
    return best


def _payment(
    position: Position, useful: dict[int, float], tempo: float, clues_after: int
) -> tuple[int | None, float]:
    """The tile to pay a take with, and what paying costs."""
    hand = list(position.hand)
    if not hand:
        return None, 0.0
    if position.take_price == 1:  # the hand refills: only the tile's own use is lost
        tile = min(hand, key=lambda t: (useful[t], t))
        return tile, 0.01 * useful[tile]
    # No refill after a take of 2 or more: the next turn is played with what is left.
    best: tuple[int | None, float] = (None, float("inf"))
    for first in sorted(set(hand)):
        rest = list(hand)
        rest.remove(first)
        if len(rest) < position.take_price:  # the whole hand goes: the next take is free
            cost = 0.0 if clues_after > 0 else tempo
        else:  # the game picks the rest of the price; one of these is kept
            cost = sum(max(0.0, tempo - useful[t]) for t in rest) / len(rest)
        if cost < best[1]:
            best = (first, cost)
    return best


def _threat(position: Position) -> frozenset[int]:
    """Bridge/Blitz: the cells that would connect the opponent now (empty if none)."""
    if position.variant == "domains":
        return frozenset()
    path = shortest(position.owners, position.size, position.them)
    return path.on_path if path.distance == 1 else frozenset()


def _key_cells(position: Position) -> set[int]:
    """Cells that may matter beyond the bot's claims: either side's shortest path."""
    if position.variant == "domains":
        return {i for i, o in enumerate(position.owners) if o == "."}
    cells: set[int] = set()
    for seat in (position.me, position.them):
        cells |= shortest(position.owners, position.size, seat).on_path
    return cells


def _opening_for_blue(position: Position) -> bool:
    return (
        position.variant != "domains"
        and position.me == "blue"
        and all(o == "." for o in position.owners)
    )


def _swaps(
    position: Position, gains: _Gains, claims: set[int], level: Level
) -> bool:
    """The pie rule: take over blue's first cell rather than play the best other move?"""
    first = [i for i, o in enumerate(position.owners) if o == gains.theirs]
    if len(first) != 1:
        return False
    cell = first[0]
    r, c = divmod(cell, position.size)
    on_rim = bool({r, c} & {0, position.size - 1})
    if level == "easy":
        return not on_rim  # easy's rule of thumb: take over any first cell off the rim
    if level == "normal" and on_rim:
        return False  # shortest paths overrate edge cells (an acute corner counts a full cell)
    swapped = list(gains.owners)
    swapped[cell] = gains.mine
    worth = gains.judge.value(swapped) - gains.base
    best = max(gains.of(claims, gains.mine).values(), default=-WIN)
    return worth >= best


def choose_turn(
    position: Position,
    beliefs: Beliefs,
    level: Level,
    rng: random.Random,
    may_fish: bool = True,
) -> Turn:
    """The turn to play now (the bot is on move and the game is being played).

    ``may_fish``: whether an exchange may be chosen while a claim is possible
    (the caller forbids it after an exchange on the bot's previous turn).
    """
    placements = _placements(position, beliefs)
    clues = position.free_clues() if position.can_take() else []
    claims = {cell for cell, _, _ in placements} | set(clues)
    gains = _Gains(position, evaluator(position, level, rng, claims))
    if position.swap_available and _swaps(position, gains, claims, level):
        return Turn("swap")
    gain = gains.of(claims, gains.mine)
    pie = level != "easy" and _opening_for_blue(position)
    if pie:
        # red may take the first cell over: count the worse of the two boards
        swapped = gains.of(claims, gains.theirs)
        gain = {c: min(g, swapped.get(c, g)) for c, g in gain.items()}
    # Fishing and payments are weighed with the steady evaluator: what a move
    # would gain at best (had the bot the tiles for any cell), what each tile
    # can gain, and what the best claim gains.
    steady = gains if gains.judge.steady() is gains.judge else _Gains(
        position, gains.judge.steady()
    )
    fair = steady.of(claims | _key_cells(position), steady.mine)
    tempo = max([0.0, *fair.values()])
    useful = _usefulness(placements, fair, position.hand)

    options = [
        _Option(Turn("place", cell, digit), chance * gain[cell])
        for cell, digit, chance in placements
    ]
    if clues:
        tile, cost = _payment(position, useful, tempo, len(clues) - 1)
        share = TAKE_SHARE[level]
        options += [
            _Option(Turn("take", cell, tile), share * gain[cell] - cost) for cell in clues
        ]

    threat = _threat(position) if level != "easy" else frozenset()
    forced = False
    if len(threat) == 1:
        # one cell from losing: block it, unless the bot surely wins at once
        wins = [o for o in options if o.worth >= WIN / 2 and _certain(o, beliefs)]
        blocks = [o for o in options if o.turn.cell in threat]
        if blocks and not wins:
            options, forced = blocks, True
    if not options:
        return Turn("exchange") if position.bag > 0 else fallback(position)
    # An exchange on blue's first turn would hand red the first cell with no pie rule.
    fish = may_fish and position.bag > 0 and not forced and not pie
    rng.shuffle(options)
    best = max(options, key=lambda o: o.worth)
    if fish and _steady_worth(best, fair, beliefs) < FISHING[level] * tempo:
        return Turn("exchange")
    return best.turn


def _steady_worth(option: _Option, fair: dict[int, float], beliefs: Beliefs) -> float:
    turn = option.turn
    if turn.cell is None:
        return option.worth
    if turn.kind == "take" or turn.digit is None:
        return fair[turn.cell]
    return beliefs.chance(turn.cell, turn.digit) * fair[turn.cell]


def _certain(option: _Option, beliefs: Beliefs) -> bool:
    turn = option.turn
    if turn.kind == "take":
        return True
    if turn.kind != "place" or turn.cell is None or turn.digit is None:
        return False
    return beliefs.chance(turn.cell, turn.digit) >= 1.0


def fallback(position: Position) -> Turn:
    """Something legal when no option was found (beliefs at odds with the board)."""
    if position.hand:
        return Turn("place", position.empty_cells()[0], position.hand[0])
    clues = position.free_clues()
    if clues:
        return Turn("take", clues[0], None)
    return Turn("exchange")
