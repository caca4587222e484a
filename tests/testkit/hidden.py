"""What a viewer may not know, and a scan of any frame for it.

At any moment a player may not know: the solution digit of each cell still empty,
the other player's tiles, the bag's tiles (RULES.md §3); a spectator knows no
hand. :func:`secrets_of` lists those facts for one viewer of one game state;
:func:`leaks` looks through every value of a frame, at any depth, for any of them:

- a cell and a digit side by side in one object (``{"cell": [r, c], "digit": d}``
  or any other names), where ``d`` is that empty cell's solution digit;
- a board string (one character per cell) that shows a hidden digit where it
  stands, or the solution itself inside any string;
- a text that names an empty cell and its solution digit (an error message, say),
  unless the viewer's own request named both;
- a list of tiles under ``hand`` that is not the viewer's own hand, or any list
  of digits that is the other player's hand or the bag.

The scan knows no field names beyond ``hand`` (tiles, not a cell) and ``v`` (a
version, not a digit):
a field added tomorrow is scanned like the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from numbridge import rules
from numbridge.rules.seats import SEATS

Cell = tuple[int, int]
_CELL_TEXT = re.compile(r"[\[(]\s*(\d+)\s*,\s*(\d+)\s*[\])]")
_DIGIT_TEXT = re.compile(r"(?<![\w.])([1-9])(?![\w.])")


@dataclass(frozen=True)
class Secrets:
    """What one viewer may not know about one game at one version."""

    game: str
    size: int
    cells: frozenset[tuple[int, int, int]]  # (r, c, solution digit) of each empty cell
    solution: str | None  # None once nothing is hidden
    own_hand: tuple[int, ...] | None  # None: a spectator (or no seat)
    other_hands: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    public_boards: frozenset[str]  # board strings the viewer knows anyway
    revealed: bool = False  # the game is over: nothing is hidden any more
    only_solution: bool = False  # look for the solution string alone (another game's frame)


def secrets_of(state: rules.GameState, seat: str | None) -> Secrets:
    """The facts ``seat`` (None: a spectator) may not know in ``state``. A finished
    game hides nothing any more: its record, the solution included, is public."""
    n = state.size
    public = frozenset({state.board.layout.to_string(), state.digits, state.owners,
                        "".join("0" if g == "." else "1" for g in state.board.givens)})
    if state.status == "finished":
        return Secrets(state.game_id, n, frozenset(), None, None, (), (), public, True)
    solution = state.board.solution
    cells = frozenset((i // n, i % n, int(solution[i]))
                      for i, d in enumerate(state.digits) if d == ".")
    own = next((tuple(state.hand(s)) for s in SEATS if s == seat), None)
    others = tuple(tuple(state.hand(s)) for s in SEATS if s != seat and state.hand(s))
    return Secrets(state.game_id, n, cells, solution if cells else None, own, others,
                   tuple(state.bag), public)


def _is_cell(value: Any, n: int) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(type(x) is int and 0 <= x < n for x in value))


def _is_digits(value: Any, n: int) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(type(x) is int and 1 <= x <= n for x in value))


# A node's path as a chain of (parent's path, key or list index): written out only for
# a leak.
Path = tuple[Any, str | int] | None


def _where(path: Path) -> str:
    keys: list[str] = []
    while path is not None:
        path, key = path
        keys.append(f"[{key}]" if isinstance(key, int) else key)
    return ".".join(reversed(keys)) or "(frame)"


def _walk(frame: Any) -> Iterator[tuple[Path, Any]]:
    """Every value of ``frame`` at any depth, with its path."""
    stack: list[tuple[Path, Any]] = [(None, frame)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, Mapping):
            stack += [((path, str(k)), item) for k, item in value.items()]
        elif isinstance(value, list):
            stack += [((path, i), item) for i, item in enumerate(value)]


def said_in(request: Mapping[str, Any] | None) -> frozenset[tuple[int, int, int]]:
    """The (cell, digit) a request named itself: its answer may repeat them."""
    if not request:
        return frozenset()
    cell, digit = request.get("cell"), request.get("digit")
    if (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)
            and type(digit) is int):
        return frozenset({(cell[0], cell[1], digit)})
    return frozenset()


def leaks(frame: Any, secrets: Iterable[Secrets],
          said: frozenset[tuple[int, int, int]] = frozenset()) -> list[str]:
    """Every hidden fact ``frame`` gives away, described (empty: none). One walk of the
    frame for all the viewers' secrets."""
    live = [s for s in secrets if not s.revealed]
    full = [s for s in live if not s.only_solution]  # the rest: the solution string alone
    found: list[str] = []
    for path, value in _walk(frame) if live else ():
        if isinstance(value, str):
            found += [f"{_where(path)}: {s.game} the solution" for s in live
                      if s.solution is not None and s.solution in value]
            if full:
                found += _text_leaks(path, value, full, said)
        elif isinstance(value, Mapping):
            for s in full:
                found += _pair_leaks(path, value, s)
        elif isinstance(value, list):
            for s in full:
                found += _tile_leaks(path, value, s)
    return found


def _pair_leaks(path: Path, value: Mapping[Any, Any], s: Secrets) -> list[str]:
    """A cell and a digit side by side: the digit must not be the cell's secret."""
    n = s.size
    cells = [v for k, v in value.items() if k != "hand" and _is_cell(v, n)]
    if not cells:
        return []
    digits = [v for k, v in value.items() if k != "v" and type(v) is int and 1 <= v <= n]
    return [f"{_where(path)}: {s.game} cell {c} with its solution digit {d}"
            for c in cells for d in digits if (c[0], c[1], d) in s.cells]


def _tile_leaks(path: Path, value: list[Any], s: Secrets) -> list[str]:
    n = s.size
    if path is not None and path[1] == "hand":
        if s.own_hand is None or sorted(value) != sorted(s.own_hand):
            return [f"{_where(path)}: {s.game} a hand {value} that is not the viewer's "
                    f"own ({s.own_hand})"]
    elif _is_digits(value, n) and not _is_cell(value, n):  # a cell [r, c] is no tiles
        tiles = sorted(value)
        if len(tiles) >= 2 and tiles != sorted(s.own_hand or ()) and (
                any(tiles == sorted(h) for h in s.other_hands) or tiles == sorted(s.bag)):
            return [f"{_where(path)}: {s.game} {value} is the other hand or the bag"]
    return []


def _text_leaks(path: Path, text: str, secrets: list[Secrets],
                said: frozenset[tuple[int, int, int]]) -> list[str]:
    found = []
    for s in secrets:
        n = s.size
        if len(text) == n * n and text not in s.public_boards:
            found += [f"{_where(path)}: {s.game} a board string shows {d} at [{r}, {c}]"
                      for r, c, d in s.cells if text[r * n + c] == str(d)]
    named = {(int(r), int(c)) for r, c in _CELL_TEXT.findall(text)}
    if named:
        digits = {int(d) for d in _DIGIT_TEXT.findall(_CELL_TEXT.sub(" ", text))}
        found += [f"{_where(path)}: {s.game} the text names [{r}, {c}] and its digit {d}: "
                  f"{text!r}"
                  for s in secrets for r, c, d in s.cells
                  if (r, c) in named and d in digits and (r, c, d) not in said]
    return found
