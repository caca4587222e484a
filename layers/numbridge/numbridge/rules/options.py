"""What a game is played with: the options chosen by the room and proposal, and the board.

Both are frozen values with ``to_dict``/``from_dict``; invalid values raise
``ValueError`` (they are programming or configuration errors, not player moves).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from numbridge.rules.seats import EMPTY
from numbridge.values import frozen

from .geometry import Layout, parse_layout, validate_layout
from .seats import GRADES, BlockKind, Grade, Variant, is_block_kind, is_grade, is_variant

MAX_TAKE_PRICE = 3  # a hand holds 3 tiles; a price above that could never be paid


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@frozen
class GameOptions:
    """The settings of one game (RULES.md §8, §11). ``game_ms=None``: no game clock."""

    room: str
    variant: Variant
    size: int
    blocks: BlockKind
    clues: int
    take_price: int
    move_ms: int
    game_ms: int | None
    highlighting: bool
    rated: bool
    # The grades the deal may give, easiest and hardest (the room's range, or the one
    # grade the proposal asked for); None: any.
    grades: tuple[Grade, Grade] | None = None
    # The tournament the game is played in (its id); None: an ordinary game.
    tournament: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.room, str) or not self.room:
            raise ValueError(f"room must be a non-empty string, not {self.room!r}")
        if not is_variant(self.variant):
            raise ValueError(f"unknown variant {self.variant!r}")
        if self.size not in (6, 9) or not _is_int(self.size):
            raise ValueError(f"size must be 6 or 9, not {self.size!r}")
        if self.variant == "domains" and self.size != 9:
            # 9 blocks of 9: a full board always gives one player a majority of blocks
            raise ValueError("Domains is played on 9x9")
        if not is_block_kind(self.blocks):
            raise ValueError(f"blocks must be 'regular' or 'irregular', not {self.blocks!r}")
        if not _is_int(self.clues) or not 0 <= self.clues <= self.size * self.size:
            raise ValueError(f"clues must be 0…{self.size * self.size}, not {self.clues!r}")
        if not _is_int(self.take_price) or not 1 <= self.take_price <= MAX_TAKE_PRICE:
            raise ValueError(f"take_price must be 1…{MAX_TAKE_PRICE}, not {self.take_price!r}")
        if not _is_int(self.move_ms) or self.move_ms <= 0:
            raise ValueError(f"move_ms must be a positive int, not {self.move_ms!r}")
        if self.game_ms is not None and (not _is_int(self.game_ms) or self.game_ms <= 0):
            raise ValueError(f"game_ms must be a positive int or None, not {self.game_ms!r}")
        if not isinstance(self.highlighting, bool) or not isinstance(self.rated, bool):
            raise ValueError("highlighting and rated must be booleans")
        if self.grades is not None:
            check_grades(self.grades)
        if self.tournament is not None and (not isinstance(self.tournament, str)
                                            or not self.tournament):
            raise ValueError(f"tournament must be a non-empty string, not {self.tournament!r}")

    @property
    def majority(self) -> int:
        """Cells of a block a player needs to own it (Domains): more than half, 5 of 9."""
        return self.size // 2 + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "room": self.room,
            "variant": self.variant,
            "size": self.size,
            "blocks": self.blocks,
            "clues": self.clues,
            "take_price": self.take_price,
            "move_ms": self.move_ms,
            "game_ms": self.game_ms,
            "highlighting": self.highlighting,
            "rated": self.rated,
            # absent without a range: states stored before grades read back the same
            **({} if self.grades is None else {"grades": list(self.grades)}),
            **({} if self.tournament is None else {"tournament": self.tournament}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameOptions:
        try:
            return cls(
                room=data["room"],
                variant=data["variant"],
                size=data["size"],
                blocks=data["blocks"],
                clues=data["clues"],
                take_price=data["take_price"],
                move_ms=data["move_ms"],
                game_ms=data["game_ms"],
                highlighting=data["highlighting"],
                rated=data["rated"],
                grades=None if data.get("grades") is None else tuple(data["grades"]),
                tournament=data.get("tournament"),
            )
        except KeyError as exc:
            raise ValueError(f"game options lack {exc.args[0]!r}") from None


def check_grades(grades: object) -> tuple[Grade, Grade]:
    """``grades`` as a range of the ladder, easiest first; ``ValueError`` otherwise."""
    if (not isinstance(grades, tuple | list) or len(grades) != 2
            or not all(is_grade(g) for g in grades)):
        raise ValueError(f"grades must be two of {', '.join(GRADES)}, not {grades!r}")
    easiest, hardest = grades
    if GRADES.index(easiest) > GRADES.index(hardest):
        raise ValueError(f"grades must go from easiest to hardest: {easiest} is harder "
                         f"than {hardest}")
    return (easiest, hardest)


def grades_between(grades: tuple[Grade, Grade]) -> tuple[Grade, ...]:
    """Every grade of the ladder from ``grades[0]`` to ``grades[1]``."""
    return GRADES[GRADES.index(grades[0]):GRADES.index(grades[1]) + 1]


@lru_cache(maxsize=512)
def check_board(layout: Layout, givens: str, solution: str) -> None:
    """Raise ``ValueError`` unless this is a valid board (cached: states are loaded often)."""
    validate_layout(layout)
    n = layout.size
    cells = n * n
    digits = {str(d) for d in range(1, n + 1)}
    if not isinstance(solution, str) or len(solution) != cells or not set(solution) <= digits:
        raise ValueError(f"the solution must be {cells} digits 1…{n}")
    if not isinstance(givens, str) or len(givens) != cells:
        raise ValueError(f"the givens must be {cells} characters")
    for i, (given, solved) in enumerate(zip(givens, solution, strict=True)):
        if given not in (EMPTY, solved):
            raise ValueError(f"given {given!r} at index {i} disagrees with the solution")
    for unit in layout.units():
        if {solution[i] for i in unit} != digits:
            raise ValueError("the solution breaks the sudoku rule")


@frozen
class Board:
    """A dealt board: the block layout, the givens (digit or '.') and the full solution."""

    layout: Layout
    givens: str
    solution: str
    grade: Grade | None = None  # the dealer's rating (None: dealt before boards were graded)

    def __post_init__(self) -> None:
        check_board(self.layout, self.givens, self.solution)
        if self.grade is not None and not is_grade(self.grade):
            raise ValueError(f"unknown grade {self.grade!r}")

    @property
    def size(self) -> int:
        return self.layout.size

    def clue_mask(self) -> str:
        """PROTOCOL.md ``clues``: '1' where the cell was a given at the deal, '0' elsewhere."""
        return "".join("0" if g == EMPTY else "1" for g in self.givens)

    def to_dict(self) -> dict[str, Any]:
        board = {
            "layout": self.layout.to_string(),
            "givens": self.givens,
            "solution": self.solution,
        }
        return board if self.grade is None else {**board, "grade": self.grade}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        return cls(parse_layout(data["layout"]), data["givens"], data["solution"],
                   data.get("grade"))
