"""An independent checker of one Swiss round's pairing, written from the rules in
docs/tournaments-pairing.md and NOT from swiss.py: it shares only the value types
(``Entrant``, ``Round``, ``Played``) and works out everything else itself — colour
preferences, score groups, and whether a better pairing existed (by its own means: a
Tutte-matrix rank for "can the rest be paired at all", brute force on small fields,
pair-for-pair swaps on any field).

``check_swiss_round(entrants, round_, round_no)`` returns the violations found, each a
sentence; an empty list means the round obeys the rules:

1. everyone given is paired once or has the bye; nobody else appears; a bye exactly when
   the count is odd;
2. nobody meets a former opponent;
3. the bye goes to a player with the fewest byes so far (another only when without any
   of those the rest could not be paired at all), and to the lowest-ranked such player
   (score, then rating, then name) for whom the rest could be paired legally;
4. colours: after this round nobody has the same colour three times running, nor blues
   minus reds beyond ±2 — unless no legal pairing at all avoided it; and two players
   whose preferences differ both get what they prefer;
5. score groups: no other pairing of the same players (same bye) has fewer players
   floating out of the top score group, then out of the top two, ... nor, with those
   equal, a smaller sum of squared score differences — checked exhaustively on fields of
   up to BRUTE_FORCE_UP_TO players, and for every two pairs (re-pairing their four
   players) on any field.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from numbridge.tournaments.results import Round
from numbridge.tournaments.swiss import Entrant

BRUTE_FORCE_UP_TO = 12
# Above this many players the "could the rest be paired" questions (cubic each) are left
# out; the tests' fields are far below it.
PAIRABLE_UP_TO = 200
_PRIME = (1 << 61) - 1

HALF = {"win": 2, "draw": 1, "loss": 0}


def _score(e: Entrant) -> int:
    return sum(HALF[g.outcome] for g in e.history) + 2 * e.byes


def _must(e: Entrant) -> str | None:
    """The colour the player must have next (three in a row, or beyond ±2), if any."""
    seats = [g.seat for g in e.history]
    diff = seats.count("blue") - seats.count("red")
    if diff >= 2 or seats[-2:] == ["blue", "blue"]:
        return "red"
    if diff <= -2 or seats[-2:] == ["red", "red"]:
        return "blue"
    return None


def _wants(e: Entrant) -> str | None:
    """The colour the player prefers: the one they have had less of, else the other one
    than last time; None before any game."""
    seats = [g.seat for g in e.history]
    if not seats:
        return None
    diff = seats.count("blue") - seats.count("red")
    if diff:
        return "red" if diff > 0 else "blue"
    return "red" if seats[-1] == "blue" else "blue"


def _broken(e: Entrant, seat: str) -> bool:
    seats = [g.seat for g in e.history] + [seat]
    diff = seats.count("blue") - seats.count("red")
    return abs(diff) > 2 or (len(seats) >= 3 and len(set(seats[-3:])) == 1)


class _Field:
    def __init__(self, entrants: Sequence[Entrant]) -> None:
        self.by_name = {e.name: e for e in entrants}
        self.met = {e.name: {g.opponent for g in e.history} for e in entrants}
        self.score = {e.name: _score(e) for e in entrants}
        levels = sorted(set(self.score.values()), reverse=True)
        self.group = {n: levels.index(s) for n, s in self.score.items()}
        self.cuts = max(len(levels) - 1, 0)
        self.rank = sorted(self.by_name, key=lambda n: (-self.score[n],
                                                       -self.by_name[n].rating, n))

    def may_meet(self, a: str, b: str, colours: bool) -> bool:
        if b in self.met[a] or a == b:
            return False
        if not colours:
            return True
        ma, mb = _must(self.by_name[a]), _must(self.by_name[b])
        return ma is None or ma != mb

    def key(self, pairs: Iterable[tuple[str, str]]) -> tuple[tuple[int, ...], int]:
        """(players floating over each score boundary, top first; sum of squared score
        differences): smaller is better, compared in that order."""
        over = [0] * self.cuts
        squares = 0
        for a, b in pairs:
            ga, gb = sorted((self.group[a], self.group[b]))
            for k in range(ga, gb):
                over[k] += 1
            squares += (self.score[a] - self.score[b]) ** 2
        return tuple(over), squares

    def pairable(self, players: Sequence[str], colours: bool) -> bool:
        """Whether the players can all be paired (rank of the Tutte matrix over a prime
        field with random entries: full rank iff a perfect matching exists, but for a
        chance below n / 2^61 of a wrong 'no')."""
        n = len(players)
        if n % 2:
            return False
        rng = random.Random(n)
        m = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                if self.may_meet(players[i], players[j], colours):
                    x = rng.randrange(1, _PRIME)
                    m[i][j], m[j][i] = x, _PRIME - x
        return _rank(m) == n


def _rank(m: list[list[int]]) -> int:
    rank, n = 0, len(m)
    rows = [row[:] for row in m]
    for col in range(n):
        pivot = next((r for r in range(rank, n) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inv = pow(rows[rank][col], _PRIME - 2, _PRIME)
        for r in range(rank + 1, n):
            if rows[r][col]:
                f = rows[r][col] * inv % _PRIME
                rows[r] = [(x - f * y) % _PRIME for x, y in zip(rows[r], rows[rank], strict=True)]
        rank += 1
    return rank


def _pairings(players: list[str], field: _Field, colours: bool
              ) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, mate in enumerate(rest):
        if field.may_meet(first, mate, colours):
            for tail in _pairings(rest[:k] + rest[k + 1:], field, colours):
                yield [(first, mate), *tail]


def check_swiss_round(entrants: Sequence[Entrant], round_: Round, round_no: int,
                      exhaustive: bool = True) -> list[str]:
    """The violations of the rules (module docstring) in ``round_``, paired from
    ``entrants`` (everyone as they stood before it); empty: the round is fine.
    ``exhaustive=False``: the score groups are judged pair for pair only, as on a
    large field, whatever the size."""
    where = f"round {round_no}"
    field = _Field(entrants)
    problems: list[str] = []
    seen = [p for pair in round_.pairs for p in pair]
    if round_.bye is not None:
        seen.append(round_.bye)
    for name in sorted(set(seen)):
        if seen.count(name) > 1:
            problems.append(f"{where}: {name} appears {seen.count(name)} times")
        if name not in field.by_name:
            problems.append(f"{where}: {name} is not an entrant")
    for name in sorted(set(field.by_name) - set(seen)):
        problems.append(f"{where}: {name} is neither paired nor given the bye")
    odd = len(field.by_name) % 2 == 1
    if odd and round_.bye is None:
        problems.append(f"{where}: an odd count and no bye")
    if not odd and round_.bye is not None:
        problems.append(f"{where}: an even count and a bye ({round_.bye})")
    if problems:
        return problems  # the rest assumes a well-formed round

    for blue, red in round_.pairs:
        if red in field.met[blue]:
            problems.append(f"{where}: {blue} and {red} have met before")

    fewest = min((e.byes for e in entrants), default=0)
    eligible = [n for n in reversed(field.rank) if field.by_name[n].byes == fewest]
    small = len(entrants) <= PAIRABLE_UP_TO
    forced = [(b, r) for b, r in round_.pairs
              if (m := _must(field.by_name[b])) is not None and m == _must(field.by_name[r])]

    def legal_without(bye: str | None) -> bool:
        return field.pairable([n for n in field.rank if n != bye], colours=True)

    if round_.bye is not None:
        if field.by_name[round_.bye].byes != fewest and (not small or any(
                field.pairable([n for n in field.rank if n != e], colours=False)
                for e in eligible)):
            problems.append(f"{where}: the bye to {round_.bye}, who has had "
                            f"{field.by_name[round_.bye].byes}, while others have had {fewest}")
        elif small and not forced:
            had = field.by_name[round_.bye].byes
            tier = [n for n in reversed(field.rank) if field.by_name[n].byes == had]
            for lower in tier[:tier.index(round_.bye)]:
                if legal_without(lower):
                    problems.append(f"{where}: the bye to {round_.bye}, though {lower} ranks "
                                    "lower, has had no more byes and the rest could be paired")
                    break
    colours_avoidable = bool(forced) and small and any(
        legal_without(b) for b in (eligible if odd else [None]))
    for blue, red in round_.pairs:
        pair_forced = (blue, red) in forced and not colours_avoidable
        for name, seat in ((blue, "blue"), (red, "red")):
            if _broken(field.by_name[name], seat) and not pair_forced:
                problems.append(f"{where}: {name} has {seat}: three of a colour running, or "
                                "more than two of one colour beyond the other")
        wb, wr = _wants(field.by_name[blue]), _wants(field.by_name[red])
        if wb is not None and wr is not None and wb != wr and (wb, wr) != ("blue", "red"):
            problems.append(f"{where}: {blue} (wants {wb}) and {red} (wants {wr}) could both "
                            "have had their colour")

    # Score groups, pair for pair: re-pair any two pairs' four players (with no more
    # colour clashes than they had: a clash is a colour rule given up, counted first).
    def clashes(pairs: Sequence[tuple[str, str]]) -> int:
        return sum(1 for a, b in pairs if not field.may_meet(a, b, colours=True))

    pairs = list(round_.pairs)
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            (a, b), (c, d) = pairs[i], pairs[j]
            now = field.key([(a, b), (c, d)])
            for alt in (((a, c), (b, d)), ((a, d), (b, c))):
                if all(field.may_meet(x, y, colours=False) for x, y in alt) and \
                        clashes(alt) <= clashes([(a, b), (c, d)]) and field.key(alt) < now:
                    problems.append(f"{where}: {a}-{b} and {c}-{d} float more (or further) "
                                    f"than {alt[0][0]}-{alt[0][1]} and {alt[1][0]}-{alt[1][1]}")
    # ...and on small fields against every pairing of the same players.
    paired = [n for n in field.rank if n != round_.bye]
    if exhaustive and len(paired) <= BRUTE_FORCE_UP_TO:
        allowed = clashes(pairs)
        best = min((field.key(p) for p in _pairings(paired, field, colours=False)
                    if clashes(p) <= allowed), default=None)
        if best is not None and best < field.key(pairs):
            problems.append(f"{where}: the score groups allow fewer or shorter floats "
                            f"({best} against {field.key(pairs)})")
    return problems
