"""Board values shared by the dealer, the counter and the command line (no python-sat here)."""

from __future__ import annotations

from numbridge.rules.geometry import SIZES, InvalidLayout, Layout
from numbridge.rules.seats import Grade
from numbridge.values import frozen

# Clue counts a size allows at all: 17 is the proven minimum of a classic 9x9
# sudoku and 8 that of a 6x6 one; below those the dealer refuses at once.
# Within the range, very low counts (below the room ranges, 22 and 10) are
# attempted within the time budget but may fail with DealError.
CLUE_LIMITS: dict[int, tuple[int, int]] = {9: (17, 81), 6: (8, 36)}

# The clue ranges of the rooms (RULES.md §8/§9): the dealer is tuned
# and benchmarked for these.
ROOM_CLUES: dict[int, tuple[int, int]] = {9: (22, 34), 6: (10, 16)}

EMPTY = ".0"


class DealError(RuntimeError):
    """No board could be dealt: impossible settings, or the time budget ran out."""


class InvalidBoard(ValueError):
    """Text that is not a board: wrong length, a character that is not a digit or empty..."""


@frozen
class DealtBoard:
    """A dealt board: ``blocks``, ``givens`` and ``solution`` are N*N characters in
    index order ``r*N + c``; ``givens`` has a digit or ``.`` per cell."""

    size: int
    blocks: str
    givens: str
    solution: str
    # The hardest reading the solution needs from the givens (numbridge.coach.grade).
    grade: Grade | None = None

    @property
    def layout(self) -> Layout:
        return Layout(self.size, tuple(int(ch) for ch in self.blocks))

    @property
    def clues(self) -> int:
        return sum(ch != "." for ch in self.givens)

    def to_dict(self, *, with_solution: bool = False) -> dict[str, int | str]:
        """The JSON object of ``numbridge puzzle generate`` (``solution`` only if asked)."""
        out: dict[str, int | str] = {
            "size": self.size,
            "blocks": self.blocks,
            "givens": self.givens,
        }
        if with_solution:
            out["solution"] = self.solution
        if self.grade is not None:
            out["grade"] = self.grade
        return out


def size_of(cells: int) -> int:
    for size in SIZES:
        if size * size == cells:
            return size
    expected = " or ".join(str(s * s) for s in sorted(SIZES))
    raise InvalidBoard(f"a board has {expected} cells, not {cells}")


def parse_givens(text: str) -> tuple[int, list[int]]:
    """Parse N*N characters (``1``…``N`` for a given, ``.`` or ``0`` for an empty cell).

    Returns the size and one digit per cell (0 for empty).
    """
    size = size_of(len(text))
    digits: list[int] = []
    for index, ch in enumerate(text):
        if ch in EMPTY:
            digits.append(0)
        elif "1" <= ch <= "9" and int(ch) <= size:
            digits.append(int(ch))
        else:
            r, c = divmod(index, size)
            raise InvalidBoard(
                f"cell {index} (r={r}, c={c}) holds {ch!r}: expected a digit 1…{size}, '.' or '0'"
            )
    return size, digits


def parse_layout(blocks: str | None, size: int) -> Layout:
    """The layout given as N*N block ids, or the regular one of ``size`` if ``None``."""
    if blocks is None:
        return Layout.regular(size)
    layout = Layout.from_string(blocks)
    if layout.size != size:
        raise InvalidLayout(
            f"the blocks are for a {layout.size}x{layout.size} board, the givens for {size}x{size}"
        )
    return layout


def format_digits(digits: list[int] | tuple[int, ...]) -> str:
    """Digits per cell (0 = empty) as board text with ``.`` for empty cells."""
    return "".join(str(d) if d else "." for d in digits)
