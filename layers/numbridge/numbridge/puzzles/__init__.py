"""Boards for Numbridge: layouts, the SAT dealer, the uniqueness prover.

Public API::

    DealtBoard(size, blocks, givens, solution)      # N*N characters each
    DealError                                       # RuntimeError
    InvalidBoard                                    # ValueError: text that is no board
    deal_board(size, blocks, clues, rng, budget_s=10.0, grades=None) -> DealtBoard
    count_solutions(givens, blocks=None, limit=2) -> int
    random_layout(size, rng) -> Layout
    aims(grades) -> bool                            # dealt by aiming (rare grades)

python-sat is imported on the first deal or count, never by importing this
package (the rules engine and the lobby must not pay for it).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Literal

from numbridge.puzzles.board import DealError, DealtBoard, InvalidBoard
from numbridge.rules.geometry import Layout
from numbridge.rules.seats import GRADES

__all__ = [
    "DealError",
    "DealtBoard",
    "InvalidBoard",
    "aims",
    "count_solutions",
    "deal_board",
    "random_layout",
]


def deal_board(
    size: int,
    blocks: Literal["regular", "irregular"],
    clues: int,
    rng: random.Random,
    budget_s: float = 10.0,
    grades: Collection[str] | None = None,
) -> DealtBoard:
    """Deal a board: a random solution and exactly ``clues`` givens that fix it.

    ``size`` is 9 or 6; ``blocks`` "regular" or "irregular" (a new random layout
    each deal). The givens are proved to have exactly one solution. Pass
    ``secrets.SystemRandom()`` in production; any other ``random.Random`` (a
    seeded one) makes the deal depend on the seed alone, for tests and
    reproductions (it then builds its own solver, a few milliseconds more).

    Raises :class:`DealError` for a size, block kind or clue count no board can
    have (9x9: 17…81 clues, 6x6: 8…36), or if no board is found within
    ``budget_s`` seconds (the room ranges, 22…34 and 10…16, take milliseconds).

    Every board comes graded (``grade``: the hardest reading its solution needs,
    numbridge.coach). With ``grades`` only a board of one of those grades is dealt:
    others are dealt again, within the same budget (a grade rare at that clue count,
    a ``beyond`` at 34 clues, say, may run it out).
    """
    from numbridge.puzzles.deal import deal_board as deal

    return deal(size, blocks, clues, rng, budget_s, grades=grades)


def count_solutions(givens: str, blocks: str | None = None, limit: int = 2) -> int:
    """Count the solutions of ``givens``, stopping at ``limit``: 0, 1 or 2 ("2 or more").

    ``givens`` has N*N characters (N = 9 or 6) in index order ``r*N + c``: digits
    for givens, ``.`` or ``0`` for empty cells. ``blocks`` is N*N block ids
    (``0``…``N-1``); ``None`` means regular blocks. Givens that break the sudoku
    rule count 0. Raises :class:`InvalidBoard` (or
    :class:`~numbridge.rules.geometry.InvalidLayout`) for text that is not a
    board (or a layout); both are ``ValueError``.
    """
    from numbridge.puzzles.sat import count_solutions as count

    return count(givens, blocks, limit)


def random_layout(size: int, rng: random.Random) -> Layout:
    """A random irregular layout: N connected blocks of N cells that admits a solution."""
    from numbridge.puzzles.layouts import random_layout as layout

    return layout(size, rng)


def aims(grades: Collection[str] | None) -> bool:
    """Whether a deal asking ``grades`` aims (all of them harder than hidden singles, a
    rung propagation decides): such a deal is a geometric tail of repairs and searches,
    which the service deals ahead (``store.board_stock``). No solver is loaded."""
    if grades is None:
        return False
    known = [GRADES.index(g) for g in grades if g in GRADES]
    return bool(known) and min(known) > GRADES.index("hidden_single")
