"""Round robin by FIDE's Berger tables (FIDE Handbook C.05, Annex 1): everyone meets
everyone once, colours alternating as the tables alternate them.

Players are numbered 1..n in seeding order. With an odd count a phantom number n+1 is
added and whoever meets it has the bye that round. Round ``r`` of the table for an even
``m`` (the count, phantom included): player ``m`` meets the player ``p`` with
``2p ≡ r + 1 (mod m - 1)``; ``p`` has blue in odd rounds and red in even ones. On board
``k`` (2, 3, ...) ``p + k - 1`` (blue) meets ``p - k + 1`` (numbers taken cyclically in
1..m-1). This is the published table, board for board: for six players round 2 is
6-4, 5-3, 1-2 (tests/unit/tournaments/test_round_robin.py holds the tables).

Scored as a Swiss (a win 1 point, a draw ½, the bye a win): see
:func:`numbridge.tournaments.standings.swiss_standings`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .results import Round


class BadRound(ValueError):
    """A round number outside 1..rounds_needed(n), or the same player twice."""


def rounds_needed(n_players: int) -> int:
    """Rounds for everyone to meet everyone once (an odd field: each sits out once)."""
    if n_players < 2:
        return 0
    return n_players - 1 if n_players % 2 == 0 else n_players


def berger_round(players: Sequence[str], round_no: int) -> Round:
    """Round ``round_no`` (from 1) of the Berger table for ``players`` in seeding order."""
    n = len(players)
    if len(set(players)) != n:
        raise BadRound("a player is listed twice")
    if not 1 <= round_no <= rounds_needed(n):
        raise BadRound(f"round {round_no} of {rounds_needed(n)}")
    m = n + (n % 2)  # with the phantom
    cycle = m - 1  # odd, so 2 has an inverse modulo it
    half = (cycle + 1) // 2
    p = ((round_no + 1) * half - 1) % cycle + 1

    def number(k: int) -> int:  # cyclic in 1..cycle
        return (k - 1) % cycle + 1

    table: list[tuple[int, int]] = [(p, m) if round_no % 2 else (m, p)]
    for k in range(2, m // 2 + 1):
        table.append((number(p + k - 1), number(p - k + 1)))
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for blue, red in table:
        if blue > n:
            bye = players[red - 1]
        elif red > n:
            bye = players[blue - 1]
        else:
            pairs.append((players[blue - 1], players[red - 1]))
    return Round(pairs=tuple(pairs), bye=bye)
