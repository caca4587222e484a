"""An arena of bot players against ``numbridge serve`` (``python -m bench arena``; ``--help``).

``--players`` (64) bot players (the client of ``numbridge bot --tournament``, the brain
at ``easy``, each move after a think of ``--think`` s) join an unrated Blitz arena of
``--minutes`` (10) made with ``numbridge tournament create``, in a Blitz room with short
clocks (10 s a move, 1 min a game each), and play every game it pairs them into until
it has finished (the games running at its end finish and count).

Reported:

- **re-pairing**: for each game after a player's first, from the moment both of its
  players were free (the later of their previous games' ends, as each client saw its
  `finished`) to both holding the new game's `state`: samples, median, p95, max (ms).
  The target: 2 s at p95. Beside it, a player's own wait from its game's end to its
  next game (which includes waiting for an opponent to be free).
- **standings**: every game the players were dealt is among the tournament's pairings
  exactly once and in each of its two players' items once (read from the server's
  database once it has stopped); the standings (every page, over the protocol) count
  each player's games as the archive does, and each player's score is the arena's
  scoring (win 2, draw 1, doubled after two wins in a row) recomputed here from the
  games' archive records.
- **paired twice at once**: a game dealt to a player before their previous one ended.

The players run in ``--processes`` (2) processes beside the server on the same machine:
note the load average printed with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from bench.measure import percentile
from bench.tournament_players import Played, Stored, overlaps, run_on_server


def _summary(name: str, samples: list[float]) -> str:
    if not samples:
        return f"{name:48} no samples"
    return (f"{name:48} {len(samples):6d}  median {percentile(samples, 0.5):7.0f}  "
            f"p95 {percentile(samples, 0.95):7.0f}  max {max(samples):7.0f}")


def repairing(games: Sequence[Played]) -> tuple[list[float], list[float]]:
    """(both free → both hold the state, own end → next state), in ms."""
    by_player: dict[str, list[Played]] = defaultdict(list)
    for g in games:
        by_player[g.player].append(g)
    for mine in by_player.values():
        mine.sort(key=lambda g: g.dealt)
    previous_end: dict[tuple[str, str], float | None] = {}
    for mine in by_player.values():
        for before, after in itertools.pairwise(mine):
            previous_end[(after.player, after.game)] = before.ended
    dealt: dict[str, list[Played]] = defaultdict(list)
    for g in games:
        dealt[g.game].append(g)
    both_free, own = [], []
    for game, sides in dealt.items():
        if len(sides) != 2:
            continue
        ends = [previous_end.get((s.player, game)) for s in sides]
        held = max(s.dealt for s in sides)
        for s, end in zip(sides, ends, strict=True):
            if end is not None:
                own.append((s.dealt - end) * 1000)
        if all(e is not None for e in ends):
            both_free.append((held - max(e for e in ends if e is not None)) * 1000)
    return both_free, own


def arena_score(outcomes: Sequence[str]) -> float:
    """The arena's points for one player's results in order: a win 2, a draw 1, a loss
    0; after two wins in a row each further win counts double until a game is not won
    (written here again, apart from the server's code, to check it)."""
    points, streak = 0, 0
    for outcome in outcomes:
        if outcome == "win":
            points += 4 if streak >= 2 else 2
            streak += 1
        else:
            points += 1 if outcome == "draw" else 0
            streak = 0
    return float(points)


def check_standings(games: Sequence[Played], shown: list[dict[str, Any]],
                    stored: Stored, tournament: str) -> list[str]:
    """What is wrong with the final table against the games the players were dealt and
    their archive records."""
    problems = []
    paired = Counter(str(p.game) for p in stored.pairings if p.game)
    twice = [g for g, n in paired.items() if n > 1]
    if twice:
        problems.append(f"{len(twice)} games paired more than once: {twice[:3]}")
    dealt = {g.game for g in games}
    if dealt - set(paired):
        problems.append(f"{len(dealt - set(paired))} games dealt but not among the pairings")
    if set(paired) - dealt:
        problems.append(f"{len(set(paired) - dealt)} games paired that nobody was dealt")
    sides = Counter(h.game for p in stored.players for h in p.history)
    if set(sides) != set(paired) or set(sides.values()) - {2}:
        wrong = [g for g in set(sides) | set(paired) if sides.get(g) != 2]
        problems.append(f"{len(wrong)} games not counted once for each player: {wrong[:3]}")
    # Each player's results from the archive, in the order they were dealt.
    first_dealt = {g.game: g.dealt for g in games}
    results: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for game, record in stored.records.items():
        if record.get("tournament") != tournament:
            problems.append(f"{game}: its record does not name the tournament")
        names = {seat: str(name) for seat, name in record.get("players", {}).items()}
        winner = (record.get("result") or {}).get("winner")
        for seat, name in names.items():
            outcome = "draw" if winner is None else "win" if winner == seat else "loss"
            results[name].append((first_dealt.get(game, 0.0), outcome))
    for row in shown:
        name = str(row["player"])
        mine = [o for _, o in sorted(results.get(name, []))]
        if int(row["games"]) != len(mine):
            problems.append(f"{name}: {row['games']} games in the standings, {len(mine)} "
                            "in the archive")
        if abs(float(row["score"]) - arena_score(mine)) > 1e-9:
            problems.append(f"{name}: score {row['score']} in the standings, "
                            f"{arena_score(mine)} from the archive")
    return problems


def server_times(stored: Stored) -> dict[str, tuple[int, int]]:
    """Each game's (dealt, ended) on the server's clock: the instant in its id (the deal's
    ``now``) and its record's last entry."""
    times = {}
    for game, record in stored.records.items():
        ends = [int(m.get("at_ms") or 0) for m in record.get("moves") or []]
        times[game] = (int(game[2:13], 16), max(ends, default=0))
    return times


def server_overlaps(stored: Stored) -> list[tuple[str, str, str, int]]:
    """(player, game, next game, ms the next was dealt before the first ended) for each
    player the server put in a game before their previous one had ended."""
    times = server_times(stored)
    mine: dict[str, list[str]] = defaultdict(list)
    for p in stored.pairings:
        if p.game and p.game in times:
            for name in (p.blue, p.red):
                if name is not None:
                    mine[name].append(p.game)
    found = []
    for name, games in mine.items():
        games.sort(key=lambda g: times[g][0])
        for before, after in itertools.pairwise(games):
            early = times[before][1] - times[after][0]
            if early > 0:
                found.append((name, before, after, early))
    return found


def client_overlaps(games: Sequence[Played], stored: Stored) -> list[str]:
    """The players who got a game's state before their previous game's `finished`, with
    the server's times of the two games (a `finished` overtaken on the way, or a real
    overlap)."""
    times = server_times(stored)
    by_player: dict[str, list[Played]] = defaultdict(list)
    for g in games:
        by_player[g.player].append(g)
    said = []
    for mine in by_player.values():
        mine.sort(key=lambda g: g.dealt)
        for before, after in itertools.pairwise(mine):
            if before.ended is not None and after.dealt < before.ended:
                gap = times[after.game][0] - times[before.game][1] \
                    if before.game in times and after.game in times else None
                ahead = 1000 * (before.ended - after.dealt)
                said.append(f"{before.player}: {after.game}'s state {ahead:.0f} ms before "
                            f"{before.game}'s finished; on the server dealt {gap} ms after "
                            "that game ended")
    return said


def run(players: int, minutes: float, think_s: float, processes: int) -> None:
    played = run_on_server("arena", players, think_s, minutes * 60 + 300, processes,
                           "--kind", "arena", "--room", "blitz", "--name", "Bench arena",
                           "--minutes", f"{minutes:g}", "--unrated")
    log, stored, shown, table = played.log, played.stored, played.shown, played.table
    elapsed, cpu = played.elapsed_s, played.cpu_s
    load_before, load_after = played.load_before, played.load_after
    both_free, own = repairing(log.games)
    unfinished = sum(1 for g in log.games if g.ended is None)
    problems = check_standings(log.games, table, stored, played.tournament)
    print(f"arena: {players} bot players (easy, think {think_s:.1f} s a move), "
          f"{minutes:g} min in a Blitz room of 10 s moves and 1 min games; {elapsed:.0f} s "
          f"from its creation to the last player's exit; server CPU "
          f"{100 * cpu / elapsed:.0f}%; load average before "
          f"{', '.join(f'{x:.2f}' for x in load_before)}, after "
          f"{', '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} cores)")
    print(f"status {shown.get('status')}; players joined {len(log.joined)}/{players}; "
          f"exit statuses {dict(Counter(log.exits.values()))}")
    print(_summary("re-paired: both free → both hold state (ms)", both_free))
    print(_summary("a player's own end → next state (ms)", own))
    print(f"{'games dealt':48} {len({g.game for g in log.games}):6d}  "
          f"(paired {sum(1 for p in stored.pairings if p.game)}, "
          f"a player's `finished` never seen {unfinished})")
    print(f"{'in the standings exactly once':48} "
          f"{'yes' if not problems else 'NO: ' + '; '.join(problems[:5])}")
    twice = server_overlaps(stored)
    print(f"{'players paired twice at once (server)':48} {len(twice):6d}"
          + "".join(f"\n  {name}: {after} dealt {ms} ms before {before} ended"
                    for name, before, after, ms in twice[:5]))
    seen, unseen = overlaps(log.games)
    print(f"{'  as the players saw it':48} {seen:6d}  (a next game's state before the "
          f"previous one's `finished`; that `finished` never seen: {unseen})"
          + "".join(f"\n    {line}" for line in client_overlaps(log.games, stored)[:5]))


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.3, metavar="S")
    parser.add_argument("--processes", type=int, default=2)
    options = parser.parse_args(list(argv))
    run(options.players, options.minutes, options.think, max(1, options.processes))
