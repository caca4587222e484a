"""The pure tournament modules (``numbridge.tournaments``) as the steps call them: the
players' stored items in, their values built, the answers back in the store's terms.

Nothing here decides a rule: scores, pairings and tie-breaks are the pure modules'.
"""

from __future__ import annotations

from collections.abc import Sequence

from numbridge.store.tournaments import Entrant, Kind
from numbridge.tournaments import results


def played(entrant: Entrant) -> tuple[results.Played, ...]:
    return tuple(results.Played(p.opponent, p.seat, p.outcome)  # type: ignore[arg-type]
                 for p in entrant.history)


def score2(kind: Kind, entrant: Entrant) -> int:
    """Twice the score shown: a Swiss or round robin's half-points (byes worth a win), an
    arena's points (streaks doubled) twice over."""
    if kind == "arena":
        from numbridge.tournaments.arena import arena_points

        points, _ = arena_points(played(entrant))
        return round(2 * points)
    return (sum(results.SWISS_HALF_POINTS[p.outcome] for p in entrant.history)
            + results.SWISS_HALF_POINTS["win"] * entrant.byes)


def arena_pairs(waiting: Sequence[tuple[Entrant, int]]) -> list[tuple[str, str]]:
    """The pairs among the free arena players (each with the instant they became free)."""
    from numbridge.tournaments import arena

    return [(str(b), str(r)) for b, r in arena.arena_pairs([
        arena.ArenaPlayer(e.name, round(e.rating), played(e), since) for e, since in waiting])]


def swiss_round(entrants: Sequence[Entrant], round_no: int) -> results.Round | None:
    """A Swiss round's pairs and bye; None when no pairing is left (every pair met)."""
    from numbridge.tournaments import swiss

    try:
        return swiss.pair_swiss([swiss.Entrant(e.name, round(e.rating), played(e), e.byes)
                                 for e in entrants], round_no)
    except swiss.NoPairing:
        return None


def round_robin_rounds(players: int) -> int:
    from numbridge.tournaments.round_robin import rounds_needed

    return int(rounds_needed(players))


def round_robin_round(order: Sequence[str], round_no: int) -> results.Round:
    from numbridge.tournaments.round_robin import berger_round

    return berger_round(list(order), round_no)


def final_table(kind: Kind,
                entrants: Sequence[Entrant]) -> list[tuple[str, int, tuple[float, ...]]]:
    """(player, rank, tie-breaks) of the final table, best first: a Swiss's or round
    robin's Buchholz cut-1 and Sonneborn-Berger in points, an arena's performance."""
    from numbridge.tournaments import arena, standings, swiss

    if kind == "arena":
        table = standings.arena_standings([
            arena.ArenaPlayer(e.name, round(e.rating), played(e)) for e in entrants])
    else:
        table = standings.swiss_standings([
            swiss.Entrant(e.name, round(e.rating), played(e), e.byes) for e in entrants])
    # In points as shown: the pure module keeps a Swiss's Buchholz in half-points and its
    # Sonneborn-Berger in quarter-points (integers); an arena's performance is a rating.
    scale = (1,) if kind == "arena" else (2, 4)
    return [(str(s.player), int(s.rank),
             tuple(t / unit for t, unit in zip(s.tiebreaks, scale, strict=True)))
            for s in table]
