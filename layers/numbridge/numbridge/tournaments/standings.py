"""Standings of a Swiss, a round robin or an arena: who is where, with the tie-breaks.

Scores are kept in half-points everywhere (``score2``): a Swiss or round-robin win is 2
(one point), a draw 1, the bye 2; an arena's points are doubled the same way (so a
displayed score is always ``score2 / 2``). Equal keys share a rank (1, 2, 2, 4).

Swiss and round robin: score, then Buchholz cut-1, then Sonneborn-Berger (FIDE C.07):

- Buchholz: the sum of the opponents' final scores. A bye counts as an opponent with the
  player's own final score (FIDE's virtual opponent for an unplayed round); *cut-1*
  leaves out the lowest contribution. In half-points.
- Sonneborn-Berger: the sum over games of (the game's points times the opponent's final
  score): a win brings the opponent's whole score, a draw half of it. The bye brings
  nothing. In quarter-points (half-points times half-points), so it stays an integer.

Arena: score, then rating performance (:func:`numbridge.tournaments.arena.performance`).

Every opponent named in a history must be among the players given (withdrawn players
included): else :class:`UnknownOpponent`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .arena import ArenaPlayer, arena_points, performance
from .results import SWISS_HALF_POINTS
from .swiss import Entrant

__all__ = ["Standing", "UnknownOpponent", "arena_standings", "buchholz_cut1",
           "sonneborn_berger", "swiss_standings"]


class UnknownOpponent(KeyError):
    """A history names an opponent who is not among the players given."""


@dataclass(frozen=True)
class Standing:
    rank: int  # 1-based; equal keys share a rank
    player: str
    score2: int  # always twice the displayed score
    games: int  # games played (a bye is not a game)
    # swiss/rr: (buchholz_cut1 in half-points, sonneborn_berger in quarter-points);
    # arena: (performance,)
    tiebreaks: tuple[int, ...]


def _opponent(name: str, entrants_by_name: Mapping[str, Entrant]) -> Entrant:
    if name not in entrants_by_name:
        raise UnknownOpponent(name)
    return entrants_by_name[name]


def buchholz_cut1(name: str, entrants_by_name: Mapping[str, Entrant]) -> int:
    """Buchholz cut-1 of ``name``, in half-points (module docstring)."""
    me = entrants_by_name[name]
    parts = [_opponent(g.opponent, entrants_by_name).points2 for g in me.history]
    parts += [me.points2] * me.byes
    return sum(parts) - min(parts) if parts else 0


def sonneborn_berger(name: str, entrants_by_name: Mapping[str, Entrant]) -> int:
    """Sonneborn-Berger of ``name``, in quarter-points (module docstring)."""
    me = entrants_by_name[name]
    return sum(SWISS_HALF_POINTS[g.outcome] * _opponent(g.opponent, entrants_by_name).points2
               for g in me.history)


def swiss_standings(entrants: Sequence[Entrant]) -> list[Standing]:
    """Standings of a Swiss or a round robin, best first."""
    by_name = {e.name: e for e in entrants}
    rows = [(e.name, e.points2, len(e.history),
             (buchholz_cut1(e.name, by_name), sonneborn_berger(e.name, by_name)))
            for e in entrants]
    return _ranked(rows)


def arena_standings(players: Sequence[ArenaPlayer]) -> list[Standing]:
    """Standings of an arena, best first: score, then performance."""
    ratings = {p.name: p.rating for p in players}
    rows = [(p.name, 2 * arena_points(p.history)[0], len(p.history),
             (performance(p.history, ratings),)) for p in players]
    return _ranked(rows)


Row = tuple[str, int, int, tuple[int, ...]]  # player, score2, games, tie-breaks


def _ranked(rows: Sequence[Row]) -> list[Standing]:
    ordered = sorted(rows, key=lambda r: (-r[1], tuple(-t for t in r[3]), r[0]))
    out: list[Standing] = []
    for i, row in enumerate(ordered):
        same = out and (ordered[i - 1][1], ordered[i - 1][3]) == (row[1], row[3])
        rank = out[-1].rank if same else i + 1
        out.append(Standing(rank=rank, player=row[0], score2=row[1], games=row[2],
                            tiebreaks=row[3]))
    return out
