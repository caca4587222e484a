"""The review of a finished game: each turn weighed from what its player knew then.

What a player knew before a turn: the board as shown, the public mistakes so far
and their own hand (a :class:`~numbridge.coach.story.Story` holds nothing more;
the solution is not in it). The answer is PROTOCOL.md's Review shape::

    {"moves": [{"n", "seat", "reading", "candidates"?, "unit"?, "avoidable"?,
                "instead"?, "race"?, "blocks"?}, ...],
     "summary": {"blue": {...}, "red": {...}}}

- a correct placement: its simplest ``reading`` (:mod:`.readings`); a guess says
  how many ``candidates`` were left, a hidden single seen at once its ``unit``;
- a mistake: how many ``candidates`` the player could not rule out in that cell, and
  ``ruled_out``: the digit placed was not among them (a reading, or one trial, showed it
  wrong);
- a mistake, a take, an exchange: ``reading`` null and ``avoidable``, true when a
  tile in the hand had a placement a deductive reading proved then (``instead``:
  the simplest, ``{"cell", "digit", "reading"}``); absent when the record kept no
  hand;
- Bridge and Blitz: ``race``, each side's fewest free cells still needed to connect
  after the turn (null: cut off); Domains: ``blocks``, the block table after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from numbridge.bot.hex_distance import FAR, shortest
from numbridge.rules.geometry import Layout, cell_of
from numbridge.rules.goals import block_table
from numbridge.rules.seats import MARK, NOBODY, SEATS, Seat, other

from .readings import READINGS, Position, Proof
from .story import Story, Turn

Review = dict[str, Any]
RACE_MOVES = 3  # the moves per player the summary names as having changed the race most


@dataclass
class _Tally:
    placements: int = 0
    readings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(READINGS, 0))
    mistakes: int = 0
    avoidable_mistakes: int = 0
    avoidable_turns: int = 0  # takes and exchanges with a proved placement in hand
    gains: list[tuple[int, int]] = field(default_factory=list)  # (race gain, n)

    def summary(self, race: bool) -> dict[str, Any]:
        proven = sum(self.readings[r] for r in READINGS if r != "guess")
        paid = self.readings["guess"]
        out: dict[str, Any] = {
            "placements": self.placements,
            "proven": proven,
            "proven_share": round(proven / self.placements, 3) if self.placements else None,
            "readings": dict(self.readings),
            "guesses": paid + self.mistakes,  # every mistake was a digit not proved
            "guesses_paid": paid,
            "mistakes": self.mistakes,
            "avoidable_mistakes": self.avoidable_mistakes,
            "avoidable_turns": self.avoidable_turns,
        }
        if race:
            best = sorted(g for g in self.gains if g[0] > 0)
            best.sort(key=lambda g: (-g[0], g[1]))
            out["race_moves"] = [{"n": n, "gain": gain} for gain, n in best[:RACE_MOVES]]
        return out


class _Board:
    """The board as both players saw it, turn after turn."""

    def __init__(self, story: Story) -> None:
        self.story = story
        self.digits = list(story.givens)
        self.owners = [NOBODY] * (story.size * story.size)
        self.wrong: set[tuple[int, int]] = set()
        self._position: Position | None = None

    def position(self) -> Position:
        if self._position is None:
            self._position = Position(self.story.blocks, "".join(self.digits),
                                      frozenset(self.wrong))
        return self._position

    def play(self, turn: Turn) -> None:
        cell = turn.cell
        if turn.action == "place" and cell is not None and turn.digit is not None:
            if turn.mistake:
                self.wrong.add((cell, turn.digit))
            else:
                self.digits[cell] = str(turn.digit)
                self.owners[cell] = MARK[turn.seat]
            self._position = None
        elif turn.action in ("take", "swap") and cell is not None:
            self.owners[cell] = MARK[turn.seat]


def review(story: Story) -> Review:
    """The review of a finished game's story (ValueError: a story no game can have)."""
    board = _Board(story)
    size = story.size
    race = story.variant != "domains"
    layout = Layout(size, tuple(int(ch) for ch in story.blocks))
    tallies = {seat: _Tally() for seat in SEATS}
    distances = _distances(board.owners, size) if race else None
    moves = []
    for turn in story.turns:
        entry: dict[str, Any] = {"n": turn.n, "seat": turn.seat, "reading": None}
        _weigh(board.position, turn, entry, tallies[turn.seat], size)
        board.play(turn)
        if distances is not None:
            after = _distances(board.owners, size)
            entry["race"] = {s: None if after[s] >= FAR else after[s] for s in SEATS}
            tallies[turn.seat].gains.append((_gain(distances, after, turn.seat), turn.n))
            distances = after
        else:
            table = block_table(board.owners, layout)
            entry["blocks"] = {"blue": table.blue, "red": table.red,
                               "undecided": table.undecided}
        moves.append(entry)
    return {"moves": moves,
            "summary": {seat: tallies[seat].summary(race) for seat in SEATS}}


def _weigh(position: Callable[[], Position], turn: Turn, entry: dict[str, Any],
           tally: _Tally, size: int) -> None:
    if turn.action == "place" and turn.cell is not None and turn.digit is not None:
        if not turn.mistake:
            proof = position().prove(turn.cell, turn.digit)
            _label(entry, proof)
            tally.placements += 1
            tally.readings[proof.reading] += 1
            return
        tally.mistakes += 1
        # What the gamble was: the digits the player could not rule out there (the
        # chance a fair guess had), and whether the digit placed was one they could.
        left = position().survivors(turn.cell)
        entry["candidates"] = len(left)
        entry["ruled_out"] = turn.digit not in left
        if _avoidable(position(), turn, entry, size):
            tally.avoidable_mistakes += 1
    elif turn.action in ("take", "exchange") and _avoidable(position(), turn, entry, size):
        tally.avoidable_turns += 1


def _label(entry: dict[str, Any], proof: Proof) -> None:
    entry["reading"] = proof.reading
    if proof.reading == "guess":
        entry["candidates"] = proof.candidates
    if proof.unit is not None:
        entry["unit"] = proof.unit


def _avoidable(position: Position, turn: Turn, entry: dict[str, Any], size: int) -> bool:
    if turn.hand is None:
        return False  # a record from before hands were kept: not known
    found = position.provable(turn.hand)
    entry["avoidable"] = found is not None
    if found is None:
        return False
    cell, digit, reading = found
    entry["instead"] = {"cell": list(cell_of(cell, size)), "digit": digit, "reading": reading}
    return True


def _distances(owners: list[str], size: int) -> dict[Seat, int]:
    return {seat: shortest(owners, size, seat).distance for seat in SEATS}


def _gain(before: dict[Seat, int], after: dict[Seat, int], seat: Seat) -> int:
    """How much the turn moved the race the mover's way: the cells the opponent lost plus
    those the mover gained. A side cut off (only ever by the winning move, as in Hex)
    adds nothing: its distance is no number of cells."""

    def change(s: Seat) -> int:
        return 0 if after[s] >= FAR or before[s] >= FAR else after[s] - before[s]

    return change(other(seat)) - change(seat)
