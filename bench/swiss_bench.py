"""A Swiss of bot players against ``numbridge serve`` (``python -m bench swiss``; ``--help``).

``--players`` (33: an odd number, so a bye every round) bot players (the client of
``numbridge bot --tournament``, easy, each move after ``--think`` s) join an unrated
Blitz Swiss of ``--rounds`` (5) made with ``numbridge tournament create``, in a Blitz
room with short clocks, and play it out.

Checked, from what the server shows once it has finished:

- **every round's pairing** with ``check_swiss_round`` (tests/unit/tournaments/
  checker.py: the rules written apart from the pairing code), given each player as
  the rounds before left them (their opponents, seats, results and byes);
- **the final standings against the archive**: each game's result read from its
  archive record (``record``), the scores (a win 1, a draw 1/2, a bye 1) and the
  tie-breaks (Buchholz cut-1, Sonneborn-Berger) computed here again from those, and
  compared with the standings the server keeps; the ranks in that order.

Also reported: how long each round took, from its first game dealt to its last
game's end, and the load average beside the server's CPU.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.tournament_players import run_on_server

ROOT = Path(__file__).resolve().parents[1]
Frame = dict[str, Any]


def checker() -> ModuleType:
    """tests/unit/tournaments/checker.py, the rules written apart from the pairing code."""
    path = ROOT / "tests" / "unit" / "tournaments" / "checker.py"
    spec = importlib.util.spec_from_file_location("tournament_checker", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tournament_checker"] = module
    spec.loader.exec_module(module)
    return module


def outcomes_of(record: Frame) -> tuple[str, str, str | None]:
    """(blue, red, winning seat or None) of an archive record."""
    players = record["players"]
    result = record.get("result") or {}
    return str(players["blue"]), str(players["red"]), result.get("winner")


def scores_from(games: list[tuple[int, str, str, str | None]], byes: list[tuple[int, str]]
                ) -> tuple[dict[str, float], dict[str, list[tuple[str, float]]]]:
    """Each player's score (win 1, draw 1/2, bye 1) and their games as (opponent, points)."""
    score: dict[str, float] = defaultdict(float)
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for _, blue, red, winner in games:
        got = {"blue": 1.0, "red": 0.0} if winner == "blue" else \
            {"blue": 0.0, "red": 1.0} if winner == "red" else {"blue": 0.5, "red": 0.5}
        score[blue] += got["blue"]
        score[red] += got["red"]
        met[blue].append((red, got["blue"]))
        met[red].append((blue, got["red"]))
    for _, name in byes:
        score[name] += 1.0
    return dict(score), dict(met)


def tiebreaks(score: dict[str, float], met: dict[str, list[tuple[str, float]]],
              byes: Counter[str]) -> dict[str, tuple[float, float]]:
    """(Buchholz cut-1, Sonneborn-Berger) of each player, in points (FIDE C.07): the
    opponents' final scores less the lowest, a bye counting as an opponent with the
    player's own score; the scores of those beaten plus half of those drawn (a bye
    brings nothing)."""
    out = {}
    for name in score:
        theirs = sorted([score.get(o, 0.0) for o, _ in met.get(name, [])]
                        + [score[name]] * byes[name])
        buchholz = sum(theirs[1:]) if theirs else 0.0
        sb = sum(score.get(o, 0.0) * points for o, points in met.get(name, []))
        out[name] = (buchholz, sb)
    return out


def check_rounds(check: ModuleType, swiss: Any, results: Any, rounds: int,
                 games: list[tuple[int, str, str, str | None]], byes: list[tuple[int, str]],
                 players: Sequence[str], rating: int) -> list[str]:
    problems = []
    for round_no in range(1, rounds + 1):
        history: dict[str, list[Any]] = {p: [] for p in players}
        had_bye: Counter[str] = Counter(name for r, name in byes if r < round_no)
        for r, blue, red, winner in games:
            if r >= round_no:
                continue
            for me, other, seat in ((blue, red, "blue"), (red, blue, "red")):
                outcome = "draw" if winner is None else "win" if winner == seat else "loss"
                history[me].append(results.Played(other, seat, outcome))
        entrants = [swiss.Entrant(p, rating, tuple(history[p]), had_bye[p]) for p in players]
        pairs = tuple((b, r) for n, b, r, _ in games if n == round_no)
        [bye] = [name for n, name in byes if n == round_no] or [None]
        found = check.check_swiss_round(entrants, results.Round(pairs=pairs, bye=bye), round_no)
        problems += [f"round {round_no}: {v}" for v in found]
    return problems


def run(players: int, rounds: int, think_s: float, processes: int) -> None:
    from numbridge.club.ratings import DEFAULT_RATING
    from numbridge.tournaments import results, swiss

    check = checker()
    played = run_on_server("swiss", players, think_s, rounds * 240 + 120, processes,
                           "--kind", "swiss", "--room", "blitz", "--name", "Bench Swiss",
                           "--rounds", str(rounds), "--unrated")
    log, stored, shown, table = played.log, played.stored, played.shown, played.table
    elapsed, cpu, load = played.elapsed_s, played.cpu_s, played.load_after

    round_of = {str(p.game): p.round for p in stored.pairings if p.game}
    games = [(round_of[g], *outcomes_of(record)) for g, record in stored.records.items()]
    byes = [(p.round, str(p.bye)) for p in stored.pairings if p.bye]
    names = sorted(p.name for p in stored.players)  # those who joined
    rating = int(DEFAULT_RATING)  # every bot is new to the room: all start there
    round_problems = check_rounds(check, swiss, results, int(shown.get("round") or rounds),
                                  games, byes, names, rating)
    score, met = scores_from(games, byes)
    breaks = tiebreaks(score, met, Counter(name for _, name in byes))
    table_problems = []
    unconverted = 0  # tie-breaks shown in the server's half- and quarter-points
    for row in table:
        name = str(row["player"])
        if abs(float(row["score"]) - score.get(name, 0.0)) > 1e-9:
            table_problems.append(f"{name}: score {row['score']}, archive {score.get(name)}")
        kept = tuple(float(t) for t in row.get("tiebreaks") or ())
        buchholz, sb = breaks[name]
        if kept == (2 * buchholz, 4 * sb) and kept != (buchholz, sb):
            unconverted += 1
        elif kept != (buchholz, sb):
            table_problems.append(f"{name}: tie-breaks {kept}, archive {breaks[name]}")
    order = [str(r["player"]) for r in sorted(table, key=lambda r: int(r["rank"]))]
    expected = sorted(order, key=lambda n: (-score.get(n, 0.0), *(-b for b in breaks[n])))
    ties_only = all(
        (score.get(a, 0.0), breaks[a]) == (score.get(b, 0.0), breaks[b])
        for a, b in zip(order, expected, strict=True) if a != b)
    if not ties_only:
        table_problems.append("the ranks are not in the order of score and tie-breaks")
    if len(table) != len(names):
        table_problems.append(f"{len(table)} players in the standings, {len(names)} joined")

    by_round: dict[int, list[float]] = defaultdict(list)
    ends: dict[int, list[float]] = defaultdict(list)
    for g in log.games:
        if g.game in round_of:
            by_round[round_of[g.game]].append(g.dealt)
            if g.ended is not None:
                ends[round_of[g.game]].append(g.ended)
    print(f"swiss: {players} bot players (easy, think {think_s:.1f} s a move), {rounds} "
          f"rounds in a Blitz room of 10 s moves and 1 min games; {elapsed:.0f} s from its "
          f"creation to the last player's exit; server CPU {100 * cpu / elapsed:.0f}%; load "
          f"average {', '.join(f'{x:.2f}' for x in load)} ({os.cpu_count()} cores)")
    print(f"status {shown.get('status')}, round {shown.get('round')}/{shown.get('rounds')}; "
          f"joined {len(names)}/{players}; games {len(games)}, byes {len(byes)}; exit statuses "
          f"{dict(Counter(log.exits.values()))}")
    for r in sorted(by_round):
        span = (max(ends[r]) - min(by_round[r])) if ends[r] else float("nan")
        print(f"  round {r}: {len(set(g for g, n in round_of.items() if n == r))} games, "
              f"first dealt to last ended {span:.0f} s")
    print(f"{'every round obeys the rules (check_swiss_round)':52} "
          f"{'yes' if not round_problems else 'NO: ' + '; '.join(round_problems[:5])}")
    print(f"{'final standings = recomputed from the archive':52} "
          f"{'yes' if not table_problems else 'NO: ' + '; '.join(table_problems[:5])}")
    if unconverted:
        print(f"  tie-breaks of {unconverted} players shown as the server keeps them, Buchholz in "
              "half-points and Sonneborn-Berger in quarter-points (equal to the archive's "
              "once converted)")


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench swiss", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=33)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.3, metavar="S")
    parser.add_argument("--processes", type=int, default=2)
    options = parser.parse_args(list(argv))
    run(options.players, options.rounds, options.think, max(1, options.processes))
