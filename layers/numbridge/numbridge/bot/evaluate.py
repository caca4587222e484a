"""How good a board is for the bot, per variant and level: higher is better.

A board is judged just after the bot's move, with the opponent to move.
Evaluators see only the owners string (who holds which cell).

- Bridge/Blitz: easy counts only its own shortest connection; normal weighs
  both sides' shortest connections (a cell on its own path that also cuts the
  opponent's counts twice); strong plays random fills of the free cells and
  values each cell by how often owning it wins (:mod:`.playouts`).
- Domains: easy builds where it is already strong and does not watch the
  opponent; normal maximises the chance of winning a majority of blocks
  (each free cell a fair coin; expected blocks as tie-break); strong plays
  each candidate out to the end with that policy for both sides (:mod:`.rollout`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from numbridge.rules.seats import MARK, Seat, other

from . import blocks as race
from .domains_playouts import Playouts
from .hex_distance import shortest
from .hex_fills import Fills, fills
from .position import Level, Position
from .worth import BLOCKS_SCALE, WIN


class Evaluator(Protocol):
    def value(self, owners: Sequence[str]) -> float:
        """The board as it stands, the opponent to move."""

    def after(self, owners: Sequence[str], cells: Iterable[int], mark: str) -> dict[int, float]:
        """The value of the board after ``mark`` claims each of the cells (one at a time)."""

    def won(self, owners: Sequence[str]) -> bool: ...

    def steady(self) -> Evaluator:
        """The evaluator whose gains measure whether a claim is worth more than an
        exchange: itself, unless its values are too coarse to say."""


class _ByBoard:
    """An evaluator that values each board on its own."""

    def steady(self) -> Evaluator:
        return self

    def value(self, owners: Sequence[str]) -> float:
        raise NotImplementedError

    def won(self, owners: Sequence[str]) -> bool:
        raise NotImplementedError

    def after(self, owners: Sequence[str], cells: Iterable[int], mark: str) -> dict[int, float]:
        board = list(owners)
        out = {}
        for cell in cells:
            board[cell] = mark
            out[cell] = WIN if self.won(board) else self.value(board)
            board[cell] = owners[cell]
        return out


@dataclass(frozen=True)
class OwnPath(_ByBoard):
    """Easy Hex: as few cells as possible still to claim; the opponent is not watched."""

    size: int
    me: Seat

    def value(self, owners: Sequence[str]) -> float:
        return -float(shortest(owners, self.size, self.me).distance)

    def won(self, owners: Sequence[str]) -> bool:
        return shortest(owners, self.size, self.me).distance == 0


@dataclass(frozen=True)
class BothPaths(_ByBoard):
    """Normal Hex: the race of the two shortest connections."""

    size: int
    me: Seat

    def value(self, owners: Sequence[str]) -> float:
        mine = shortest(owners, self.size, self.me).distance
        theirs = shortest(owners, self.size, other(self.me)).distance
        return float(theirs - mine)

    def won(self, owners: Sequence[str]) -> bool:
        return shortest(owners, self.size, self.me).distance == 0


# Random fills per board judged: enough to rank cells, within the think-time budget.
FILLS = 1200


class RandomFills:
    """Strong Hex: the chance of winning over random fills of the free cells."""

    def __init__(self, size: int, me: Seat, rng: random.Random) -> None:
        self.size = size
        self.me = me
        self.rng = rng
        self._memo: dict[str, Fills] = {}

    def _fills(self, owners: Sequence[str]) -> Fills:
        key = "".join(owners)
        if key not in self._memo:
            self._memo[key] = fills(owners, self.size, self.me, FILLS, self.rng)
        return self._memo[key]

    def value(self, owners: Sequence[str]) -> float:
        return WIN if self.won(owners) else self._fills(owners).chance

    def after(self, owners: Sequence[str], cells: Iterable[int], mark: str) -> dict[int, float]:
        result = self._fills(owners)
        table = result.if_mine if mark == MARK[self.me] else result.if_theirs
        board = list(owners)
        out = {}
        for cell in cells:
            board[cell] = mark
            out[cell] = WIN if self.won(board) else table.get(cell, result.chance)
            board[cell] = owners[cell]
        return out

    def won(self, owners: Sequence[str]) -> bool:
        return shortest(owners, self.size, self.me).distance == 0

    def steady(self) -> Evaluator:
        return self


@dataclass(frozen=True)
class OwnBlocks(_ByBoard):
    """Easy Domains: its own progress towards a majority, most where it has most."""

    blocks: tuple[int, ...]
    size: int
    me: Seat

    def value(self, owners: Sequence[str]) -> float:
        majority = self.size // 2 + 1
        total = 0.0
        for b in race.counts(owners, self.blocks, self.size, self.me):
            if b.mine >= majority:
                total += 1.0
            elif b.theirs < majority and b.mine + b.free >= majority:
                total += (b.mine / majority) ** 2
        return total

    def won(self, owners: Sequence[str]) -> bool:
        return _domains_won(owners, self.blocks, self.size, self.me)


@dataclass(frozen=True)
class Majority(_ByBoard):
    """Normal Domains: the chance of winning more blocks than the opponent."""

    blocks: tuple[int, ...]
    size: int
    me: Seat

    def value(self, owners: Sequence[str]) -> float:
        table = race.counts(owners, self.blocks, self.size, self.me)
        chances = race.chances(table, self.size // 2 + 1)
        return race.game_chance(chances) + BLOCKS_SCALE * sum(chances)

    def won(self, owners: Sequence[str]) -> bool:
        return _domains_won(owners, self.blocks, self.size, self.me)


def _domains_won(owners: Sequence[str], blocks: Sequence[int], size: int, me: Seat) -> bool:
    majority = size // 2 + 1
    table = race.counts(owners, blocks, size, me)
    mine = sum(1 for b in table if b.mine >= majority)
    theirs = sum(1 for b in table if b.theirs >= majority)
    return mine > theirs + (len(table) - mine - theirs)


def evaluator(
    position: Position,
    level: Level,
    rng: random.Random,
    claims: Iterable[int],
) -> Evaluator:
    """The level's evaluator; ``claims`` are the cells the bot can claim this turn."""
    size, me = position.size, position.me
    if position.variant == "domains":
        blocks = tuple(int(ch) for ch in position.blocks)
        if level == "easy":
            return OwnBlocks(blocks, size, me)
        if level == "normal":
            return Majority(blocks, size, me)
        second = position.moves_left_in_pair == 2
        return Playouts(
            blocks, (MARK[me], MARK[other(me)]), second, frozenset(claims), rng,
            steady=Majority(blocks, size, me),
        )
    if level == "easy":
        return OwnPath(size, me)
    if level == "normal":
        return BothPaths(size, me)
    return RandomFills(size, me, rng)
