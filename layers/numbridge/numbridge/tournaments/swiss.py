"""Swiss pairing: score groups, no rematch, colours balanced, one bye a round.

The rules are FIDE's Dutch system (Handbook C.04.3) as far as the club needs them; see
docs/tournaments-pairing.md. Why our own code rather than a library: the maintained Python
Dutch engine on PyPI (caissify-pairings 0.5, Apache-2.0, checked against bbpPairings) took
4 s for the second round of 100 players here and did not finish three rounds of 200 in
two minutes; the club wants a round of 1,000 in well under a second. bbpPairings and
JaVaFo are programs, not Python dependencies.

What a round must be, in order (each criterion counts only among pairings equal on the
ones before it):

0. absolute: nobody meets anyone twice; everyone is paired once or has the bye; with an
   odd count exactly one bye, to a player with the fewest byes so far (none, while anyone
   has none; another only if no such player can sit out with the rest still paired);
1. colours, absolute: never the same colour three games in a row, blues minus reds never
   beyond ±2 — relaxed (as few times as can be) only when no pairing keeps them;
2. the bye to the lowest-ranked of those players for whom the rest can be paired;
3. score groups (Dutch C.5-C.7): the fewest players float down out of the top score
   group, then out of the top two, and so on; then the smallest score differences (the
   sum of their squares, so one float over two groups is worse than two over one);
4. colour preferences met: strong ones (a colour behind) first, then mild (alternation);
5. Dutch order inside a score group: the top half meets the bottom half, 1 v h+1, 2 v
   h+2, ... (a transposition in S2 before two of one half meet); a player floating down
   meets the top of the group below.

Method: up to EXACT_UP_TO players, a maximum-weight perfect matching over the allowed
pairs (numbridge.tournaments.matching), each pair weighed by the criteria above as the
digits of one integer, a phantom player standing for the bye: exact on every criterion.
Larger fields (a matching of 1,000 players can take minutes) follow the Dutch procedure
bracket by bracket, top down: a bracket is a score group and the players floating into
it (MDPs), who meet the highest residents they may; then the top half meets the bottom
half in order (a pair that may not meet takes the next in S2; two left over are placed
by swapping partners with a pair made). If that leaves more than one over, the bracket
alone is paired exactly when it can be; whoever is still left floats on down. When the
last bracket cannot be paired it is paired again exactly (absolute colours kept)
together with the brackets above it, one more at a time — FIDE's re-pairing of the
previous bracket — while they number at most WIDEST; beyond that, only with the pairs
made nearest them (at most WIDEST players in all), so that no round of a large field
waits on a matching of the whole of it. Last, two pairs are re-paired
while that floats fewer players, or less far. On large fields criteria 0 to 3 hold pair
for pair (no swap of two pairs improves them: the tests' checker verifies it) rather
than over the whole field at once.

Seats: ``"blue"`` moves first (as white in chess). Colours within a pair follow FIDE's
C.04.3 E: both preferences when they differ; else the stronger one; else (equal) alternate
from the last round the two had different colours; else the higher-ranked player's
preference; with no history at all the higher-ranked player has blue on odd boards.
Ranking (for boards, halves and the bye): score, then rating, then name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import Literal

from .matching import cheapest_perfect_matching
from .results import SWISS_HALF_POINTS, Played, Round, Seat, colour_difference, opposite

__all__ = ["BadEntrants", "Entrant", "NoPairing", "Round", "allocate_colours", "pair_swiss",
           "preference"]

# Up to this many players a round is one exact matching (about 0.2 s at 96); above, the
# Dutch procedure bracket by bracket.
EXACT_UP_TO = 96
# No exact matching on the Dutch path takes more players than this (about 0.5 s at 200):
# one of the whole of 1,000 players takes over a minute, past the tournament function's
# 29 s, and a step that always times out would leave the round unpaired for good.
WIDEST = 2 * EXACT_UP_TO


class NoPairing(Exception):
    """No pairing of these entrants avoids a rematch (e.g. more rounds than n - 1)."""


class BadEntrants(ValueError):
    """Entrants that cannot be paired as given: a name twice, or a player listed as their
    own opponent."""


@dataclass(frozen=True)
class Entrant:
    """A player to pair this round, with everything the pairing needs from the past."""

    name: str
    rating: int
    history: tuple[Played, ...] = ()  # games played, in round order
    byes: int = 0  # rounds received as a bye (each worth a win: 1 point)

    @cached_property
    def points2(self) -> int:
        """Score in half-points: win 2, draw 1, loss 0, bye 2."""
        return sum(SWISS_HALF_POINTS[g.outcome] for g in self.history) + 2 * self.byes

    @cached_property
    def colour_preference(self) -> tuple[Seat | None, int]:
        """:func:`preference` of the history (kept: a round asks it many times)."""
        return preference(self.history)


# Preference strengths (FIDE C.04.3 A.6).
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


def preference(history: Sequence[Played]) -> tuple[Seat | None, int]:
    """The colour a player should have next and how strongly (NONE..ABSOLUTE)."""
    if not history:
        return None, NONE
    diff = colour_difference(history)
    last = history[-1].seat
    if diff >= 2 or (len(history) >= 2 and history[-2].seat == last == "blue"):
        return "red", ABSOLUTE
    if diff <= -2 or (len(history) >= 2 and history[-2].seat == last == "red"):
        return "blue", ABSOLUTE
    if diff == 1:
        return "red", STRONG
    if diff == -1:
        return "blue", STRONG
    return opposite(last), MILD


def rank_key(e: Entrant) -> tuple[int, int, str]:
    return (-e.points2, -e.rating, e.name)


def allocate_colours(higher: Entrant, lower: Entrant, board: int) -> tuple[str, str]:
    """(blue, red) for a pair, ``higher`` the better-ranked, ``board`` from 1 (FIDE E)."""
    ca, sa = higher.colour_preference
    cb, sb = lower.colour_preference
    if ca is None and cb is None:
        first_blue = board % 2 == 1
    elif cb is None or (ca is not None and ca != cb):
        first_blue = ca == "blue"
    elif ca is None:
        first_blue = cb == "red"
    elif sa != sb:
        first_blue = (ca == "blue") == (sa > sb)
    elif sa == ABSOLUTE and abs(colour_difference(higher.history)) != abs(
            colour_difference(lower.history)):
        wider = abs(colour_difference(higher.history)) > abs(colour_difference(lower.history))
        first_blue = (ca == "blue") == wider
    else:
        first_blue = ca == "blue"
        for ga, gb in zip(reversed(higher.history), reversed(lower.history), strict=False):
            if ga.seat != gb.seat:  # alternate from the last time they differed
                first_blue = ga.seat == "red"
                break
    return (higher.name, lower.name) if first_blue else (lower.name, higher.name)


def _clash(a: Entrant, b: Entrant) -> bool:
    """Both must have the same colour next (an absolute preference each)."""
    ca, sa = a.colour_preference
    cb, sb = b.colour_preference
    return sa == ABSOLUTE and sb == ABSOLUTE and ca == cb


def _unmet(a: Entrant, b: Entrant) -> int:
    """The strength of the preference a pair cannot meet (0 when both can be met)."""
    ca, sa = a.colour_preference
    cb, sb = b.colour_preference
    if ca is None or ca != cb:
        return NONE
    return min(sa, sb)


def pair_swiss(entrants: Sequence[Entrant], round_no: int) -> Round:
    """Pair one Swiss round (module docstring: the criteria, in order).

    ``entrants`` are the players to pair this round (the caller leaves out whoever has
    withdrawn or is absent); ``round_no`` counts from 1 and only names the round in
    errors. Raises :class:`NoPairing` when no pairing avoids a rematch,
    :class:`BadEntrants` for a name listed twice."""
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise BadEntrants("a player is listed twice")
    for e in entrants:
        if any(g.opponent == e.name for g in e.history):
            raise BadEntrants(f"{e.name} is listed as their own opponent")
    ranked = sorted(entrants, key=rank_key)
    if len(ranked) < 2:
        return Round(pairs=(), bye=ranked[0].name if ranked else None)
    played = {e.name: frozenset(g.opponent for g in e.history) for e in ranked}
    if len(ranked) <= EXACT_UP_TO:
        pairs, bye = _matching(ranked, played, round_no, "bye" if len(ranked) % 2 else None)
    else:
        pairs, bye = _dutch(ranked, played, round_no)
    return _seat(ranked, pairs, bye)


def _seat(ranked: list[Entrant], pairs: list[tuple[Entrant, Entrant]],
          bye: Entrant | None) -> Round:
    order = {e.name: i for i, e in enumerate(ranked)}
    boards = sorted(
        (sorted(pair, key=lambda e: order[e.name]) for pair in pairs),
        key=lambda pair: (-max(pair[0].points2, pair[1].points2), order[pair[0].name]))
    seated = tuple(allocate_colours(hi, lo, n) for n, (hi, lo) in enumerate(boards, start=1))
    return Round(pairs=seated, bye=bye.name if bye else None)


def _bye_order(ranked: list[Entrant]) -> list[Entrant]:
    """Who may have the bye, best first: fewest byes, then lowest-ranked."""
    return sorted(reversed(ranked), key=lambda e: e.byes)


def _groups(ranked: list[Entrant]) -> dict[str, tuple[int, int]]:
    """Each player's score group (0 = top) and place in it."""
    out: dict[str, tuple[int, int]] = {}
    group, place, last = -1, 0, None
    for e in ranked:
        if e.points2 != last:
            group, place, last = group + 1, 0, e.points2
        out[e.name] = (group, place)
        place += 1
    return out


Pairs = list[tuple[Entrant, Entrant]]


def _matching(ranked: list[Entrant], played: dict[str, frozenset[str]], round_no: int,
              spare: Literal["bye", "float"] | None, strict: bool = False
              ) -> tuple[Pairs, Entrant | None]:
    """The exact pairing of ``ranked`` (module docstring: the criteria) as a matching.
    ``spare``: one of them left over — with the bye, or floating down to the bracket
    below (the lowest-ranked first, the score groups permitting). ``strict``: the
    absolute colour rules are not relaxed (NoPairing instead)."""
    n = len(ranked)
    where = _groups(ranked)
    n_groups = max(g for g, _ in where.values()) + 1
    sizes = [0] * n_groups
    for g, _ in where.values():
        sizes[g] += 1
    # Criteria as digits, most significant first:
    # [byes beyond the fewest, clash, bye order, cut 1 .. cut G-1, squares, strong unmet,
    # mild unmet, order].
    fewest = min(e.byes for e in ranked)
    most = [max(e.byes for e in ranked) - fewest, 1, n, *([1] * (n_groups - 1)),
            (ranked[0].points2 - ranked[-1].points2) ** 2, 1, 1, 3 * n]
    costs: dict[tuple[int, int], list[int]] = {}
    for i, a in enumerate(ranked):
        ga, pa = where[a.name]
        for j in range(i + 1, n):
            b = ranked[j]
            clash = _clash(a, b)
            if b.name in played[a.name] or (strict and clash):
                continue
            gb, pb = where[b.name]
            cuts = [1 if ga <= k < gb else 0 for k in range(n_groups - 1)]
            unmet = _unmet(a, b)
            # in a group: 1 v h+1, 2 v h+2... (S1 v S2; two of one half meet only after
            # every transposition); a floater: the bottom one down to the top one
            half = sizes[ga] // 2
            order = (abs(pb - pa - half) + (0 if pa < half <= pb else n) if ga == gb
                     else sizes[ga] - 1 - pa + pb)
            costs[i, j] = [0, 1 if clash else 0, 0, *cuts, (a.points2 - b.points2) ** 2,
                           1 if unmet >= STRONG else 0, 1 if unmet == MILD else 0, order]
    if spare == "bye":  # node n stands for the bye
        index = {e.name: i for i, e in enumerate(ranked)}
        for k, e in enumerate(_bye_order(ranked)):
            costs[index[e.name], n] = [e.byes - fewest, 0, k] + [0] * (len(most) - 3)
    elif spare == "float":
        for i in range(n):
            costs[i, n] = [0] * (len(most) - 1) + [n - 1 - i]
    mate = cheapest_perfect_matching(n + (1 if spare else 0), costs, most)
    if mate is None:
        raise NoPairing(f"round {round_no}: no pairing of {n} players avoids a rematch")
    pairs = [(ranked[i], ranked[j]) for i, j in mate if j < n]
    left = next((ranked[i] for i, j in mate if j == n), None)
    return pairs, left


def _dutch(ranked: list[Entrant], played: dict[str, frozenset[str]], round_no: int
           ) -> tuple[Pairs, Entrant | None]:
    """The Dutch procedure bracket by bracket, top down: a bracket is its score group
    and the players floating into it (MDPs), paired first. Whoever a bracket cannot
    pair floats on down. When the last bracket cannot be paired, it is paired again
    exactly together with the brackets above it, one more at a time (FIDE's re-pairing
    of the previous bracket), at most WIDEST players; beyond, :func:`_repair_near`."""
    bye: Entrant | None = None
    rest = ranked
    if len(ranked) % 2:
        bye = _bye_order(ranked)[0]
        rest = [e for e in ranked if e is not bye]
    groups: list[list[Entrant]] = []
    for e in rest:
        if groups and groups[-1][0].points2 == e.points2:
            groups[-1].append(e)
        else:
            groups.append([e])
    made: list[Pairs] = []  # the pairs of each bracket done
    entered: list[list[Entrant]] = []  # the players of each bracket done
    carry: list[Entrant] = []
    for group in groups:
        pairs, left = _bracket(carry, group, played, round_no)
        made.append(pairs)
        entered.append(carry + group)
        carry = left
    top = len(entered) - 1
    while carry:  # the last bracket left players over: widen upwards
        window = sorted({p.name: p for ps in entered[top:] for p in ps}.values(),
                        key=rank_key)
        if len(window) > WIDEST:  # too many to re-pair at once: only the pairs nearest
            flat = [p for pairs in made for p in pairs]
            return _swap_floats(ranked, _repair_near(flat, carry, played, round_no),
                                played), bye
        try:
            pairs, _ = _matching(window, played, round_no, None, strict=True)
        except NoPairing:
            if top == 0:  # nothing pairs with the colours kept: relax them, exactly
                return _matching(ranked, played, round_no, "bye" if bye else None)
            top -= 1
            continue
        del made[top:]
        made.append(pairs)
        carry = []
    return _swap_floats(ranked, [p for pairs in made for p in pairs], played), bye


def _bracket(floaters: list[Entrant], residents: list[Entrant],
             played: dict[str, frozenset[str]], round_no: int
             ) -> tuple[Pairs, list[Entrant]]:
    """One bracket: each player floating in meets the highest resident who fits, then
    the residents top half against bottom half. If that leaves more than one over, the
    bracket is paired exactly (a matching) when it can be. Returns the pairs and who
    floats on down."""
    pairs: Pairs = []
    members = list(residents)
    left: list[Entrant] = []
    for mdp in floaters:
        mate = next((m for m in members if _fits(mdp, m, played)), None)
        if mate is None:
            left.append(mdp)
            continue
        members.remove(mate)
        pairs.append((mdp, mate))
    left += _pair_bracket(members, played, pairs)
    # A bracket too big to match at once lets its leftovers float (bounded, as above).
    if len(left) > 1 and len(floaters) + len(residents) <= WIDEST:
        everyone = sorted(floaters + residents, key=rank_key)
        spare: Literal["float"] | None = "float" if len(everyone) % 2 else None
        try:
            exact, floater = _matching(everyone, played, round_no, spare, strict=True)
        except NoPairing:
            return pairs, sorted(left, key=rank_key)
        return exact, [floater] if floater else []
    return pairs, left


def _repair_near(made: Pairs, carry: list[Entrant], played: dict[str, frozenset[str]],
                 round_no: int) -> Pairs:
    """Pair ``carry`` (whom no bracket could pair) when the brackets above them are too
    many to re-pair exactly: the carry and the players of the pairs made nearest them
    (those with someone the carry has not met first, then the lowest brackets first) are
    re-paired exactly, at most :data:`WIDEST` of them, the window doubling until it
    pairs with the absolute colours kept, else with them relaxed at its widest. Criterion
    0 always holds; the others hold inside the window. :class:`NoPairing` if even the
    widest window cannot pair them (a carry that has met nearly all of its neighbours)."""
    nearest = list(reversed(range(len(made))))
    met = frozenset().union(*(played[c.name] for c in carry))
    nearest.sort(key=lambda k: all(p.name in met for p in made[k]))  # stable: lowest first
    sizes = [s for s in (16, 32, 64, 128) if s < WIDEST] + [WIDEST]
    tries = [(size, True) for size in sizes] + [(WIDEST, False)]
    for size, strict in tries:
        room = max(size - len(carry), len(carry)) // 2  # whole pairs, at least one each
        taken = set(nearest[:room])
        window = sorted(carry + [p for k in taken for p in made[k]], key=rank_key)
        try:
            pairs, _ = _matching(window, played, round_no, None, strict=strict)
        except NoPairing:
            continue
        return [pair for k, pair in enumerate(made) if k not in taken] + pairs
    raise NoPairing(f"round {round_no}: {len(carry)} players could not be paired near "
                    "their score group")


def _swap_floats(ranked: list[Entrant], pairs: Pairs, played: dict[str, frozenset[str]]
                 ) -> Pairs:
    """Re-pair two pairs' four players while that floats fewer players over a score
    boundary (top first), or over less distance: the brackets done one by one cannot
    see a lower bracket's pair that would have taken a floater closer to home. Only a
    pair across groups can gain, so only those are tried against the rest."""
    group = {name: g for name, (g, _) in _groups(ranked).items()}

    improved = True
    while improved:
        improved = False
        for i, (a, b) in enumerate(pairs):
            if group[a.name] == group[b.name]:
                continue
            for j, (c, d) in enumerate(pairs):
                if j == i:
                    continue
                now = _float_key(group, [(a, b), (c, d)])
                for alt in (((a, c), (b, d)), ((a, d), (b, c))):
                    if _float_key(group, alt) < now and all(_fits(x, y, played) for x, y in alt):
                        pairs[i], pairs[j] = alt
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break
    return pairs


def _float_key(group: dict[str, int], two: Sequence[tuple[Entrant, Entrant]]
               ) -> tuple[tuple[int, ...], int]:
    """Players floating over each score boundary, top down, then the squared score
    differences: smaller is better (criterion 3 of the module docstring). Only the
    boundaries between the players' own groups count, so keys of the same players
    compare."""
    low = min(group[p.name] for pair in two for p in pair)
    high = max(group[p.name] for pair in two for p in pair)
    over = [0] * (high - low)
    for a, b in two:
        lo, hi = sorted((group[a.name], group[b.name]))
        for k in range(lo, hi):
            over[k - low] += 1
    return tuple(over), sum((a.points2 - b.points2) ** 2 for a, b in two)


def _fits(a: Entrant, b: Entrant, played: dict[str, frozenset[str]]) -> bool:
    return b.name not in played[a.name] and not _clash(a, b)


def _pair_bracket(members: list[Entrant], played: dict[str, frozenset[str]],
                  pairs: list[tuple[Entrant, Entrant]]) -> list[Entrant]:
    """Top half against bottom half in order, each S1 player taking the first S2 player
    from its own place on who fits (colour preferences met if any such is near); then
    two left over who may not meet are placed by swapping partners with a pair already
    made. Returns who is left over (at most one when it works)."""
    half = len(members) // 2
    s1, s2 = members[:half], members[half:]
    made: list[tuple[Entrant, Entrant]] = []
    left: list[Entrant] = []
    for i, a in enumerate(s1):
        start = min(i, len(s2) - 1) if s2 else 0
        order = s2[start:] + s2[:start]
        fitting = list(islice((b for b in order if _fits(a, b, played)), 4))
        if not fitting:
            left.append(a)
            continue
        mate = next((b for b in fitting if _unmet(a, b) == NONE), fitting[0])
        s2.remove(mate)
        made.append((a, mate))
    rest = left + s2
    while len(rest) > 1:
        x = rest.pop(0)
        other = next((y for y in rest if _fits(x, y, played)), None)
        if other is not None:
            rest.remove(other)
            made.append((x, other))
            continue
        placed = False
        for y in rest:  # x and y both enter a made pair (a, b): (x, a) and (y, b)
            for k, (a, b) in enumerate(made):
                for p, q in ((a, b), (b, a)):
                    if _fits(x, p, played) and _fits(y, q, played):
                        made[k] = (p, x)
                        made.append((q, y))
                        rest.remove(y)
                        placed = True
                        break
                if placed:
                    break
            if placed:
                break
        if not placed:
            rest.insert(0, x)
            break
    pairs.extend(made)
    return rest
