"""The bot's levels against each other: a round robin with the pure rules engine (no server).

Per variant (bridge, blitz, domains) and pairing (strong-normal, normal-easy,
strong-easy), ``BENCH_BOT_GAMES`` games (default 50) on freshly dealt boards
(``numbridge.puzzles.deal_board``, the rooms' default settings of RULES.md
§11, regular and irregular blocks in turn). Each board is played twice with
the colours swapped. Prints the win rate of the stronger level per pairing
and variant, and the think time per move (one ``decide`` call that returned
an action) per level: p50, p95, p99, max.

Targets: strong beats normal >= 70 %, normal beats easy >= 70 %, strong thinks
<= 200 ms at p95. ``BENCH_BOT_SEED`` makes a run reproducible (default 1); ``BENCH_BOT_VARIANTS``
and ``BENCH_BOT_PAIRINGS`` (e.g. ``"blitz"``, ``"strong-normal"``) run a part.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from numbridge import rules
from numbridge.bot import Knowledge, Level, decide
from numbridge.bot.selfplay import play
from numbridge.puzzles import deal_board
from numbridge.rules.seats import SEATS, Seat, Variant

from bench.measure import machine_speed, percentile

GAMES = int(os.environ.get("BENCH_BOT_GAMES", "50"))
SEED = int(os.environ.get("BENCH_BOT_SEED", "1"))
# BENCH_BOT_VARIANTS="blitz domains", BENCH_BOT_PAIRINGS="strong-normal": a part only.
VARIANTS: tuple[Variant, ...] = tuple(
    os.environ.get("BENCH_BOT_VARIANTS", "bridge blitz domains").split()  # type: ignore[arg-type]
)
PAIRINGS: tuple[tuple[Level, Level], ...] = tuple(
    tuple(p.split("-"))  # type: ignore[misc]
    for p in os.environ.get("BENCH_BOT_PAIRINGS", "strong-normal normal-easy strong-easy").split()
)
# The rooms' defaults (RULES.md §11): size, clues, take price, move and game limits.
ROOMS: dict[Variant, tuple[int, int, int, int, int]] = {
    "bridge": (9, 30, 1, 45_000, 900_000),
    "blitz": (6, 12, 2, 30_000, 300_000),
    "domains": (9, 30, 1, 45_000, 1_200_000),
}
STEP_MS = 2_000  # the clock between two actions: no move limit is ever reached
def new_game(variant: Variant, blocks: str, rng: random.Random) -> rules.GameState:
    size, clues, price, move_ms, game_ms = ROOMS[variant]
    board = deal_board(size, blocks, clues, rng)  # type: ignore[arg-type]
    options = rules.GameOptions(
        room=variant, variant=variant, size=size, blocks=blocks,  # type: ignore[arg-type]
        clues=clues, take_price=price, move_ms=move_ms, game_ms=game_ms,
        highlighting=True, rated=False,
    )
    return rules.new_game(
        "g-bench", options, rules.Board(board.layout, board.givens, board.solution),
        {"blue": "bot-a", "red": "bot-b"}, rng, 0,
    )


@dataclass
class Tally:
    wins: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    games: int = 0
    actions: list[int] = field(default_factory=list)
    mistakes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    exchanges: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def timed(level: Level, rng: random.Random, times: dict[Level, list[float]]) -> Any:
    def player(view: Mapping[str, Any], knowledge: Knowledge) -> dict[str, Any] | None:
        started = time.perf_counter()
        frame = decide(view, knowledge, level, rng)
        if frame is not None:
            times[level].append(time.perf_counter() - started)
        return frame

    return player


def run_pairing(
    variant: Variant, levels: tuple[Level, Level], rng: random.Random,
    times: dict[Level, list[float]],
) -> Tally:
    tally = Tally()
    state = None
    for game in range(GAMES):
        if game % 2 == 0:  # a new board, played twice with the colours swapped
            state = new_game(variant, "regular" if game % 4 == 0 else "irregular", rng)
        assert state is not None
        seats: dict[Seat, Level] = dict(zip(SEATS, levels if game % 2 == 0 else levels[::-1],
                                           strict=True))
        players = {seat: timed(level, random.Random(rng.getrandbits(32)), times)
                   for seat, level in seats.items()}
        result = play(state, players, random.Random(rng.getrandbits(32)), 1_000, STEP_MS)
        final = result.state
        winner = final.result.winner if final.result is not None else None
        tally.wins[seats[winner] if winner is not None else "draw"] += 1
        tally.games += 1
        tally.actions.append(len(result.actions))
        for seat in SEATS:
            tally.mistakes[seats[seat]] += final.side(seat).mistakes
        for seat, frame in result.actions:
            if frame["action"] == "exchange":
                tally.exchanges[seats[seat]] += 1
    return tally


def main() -> None:
    print(f"machine speed: {machine_speed():.1f} ms for a fixed Python loop (lower is faster)")
    print(f"{GAMES} games per pairing and variant, seed {SEED}\n")
    rng = random.Random(SEED)
    times: dict[Level, list[float]] = defaultdict(list)
    by_variant: dict[tuple[Variant, Level], list[float]] = {}
    print(f"{'variant':<9}{'pairing':<17}{'games':>6}{'won':>6}{'lost':>6}{'rate':>7}"
          f"{'actions':>9}  mistakes/exchanges per game")
    for variant in VARIANTS:
        for levels in PAIRINGS:
            local: dict[Level, list[float]] = defaultdict(list)
            tally = run_pairing(variant, levels, rng, local)
            for level, values in local.items():
                times[level].extend(values)
                by_variant.setdefault((variant, level), []).extend(values)
            strong, weak = levels
            won, lost = tally.wins[strong], tally.wins[weak]
            per_game = [
                (lv, tally.mistakes[lv] / tally.games, tally.exchanges[lv] / tally.games)
                for lv in levels
            ]
            mistakes = "  ".join(f"{lv} {m:.1f}/{x:.1f}" for lv, m, x in per_game)
            print(f"{variant:<9}{strong + '-' + weak:<17}{tally.games:>6}{won:>6}{lost:>6}"
                  f"{won / tally.games:>7.0%}{statistics.mean(tally.actions):>9.1f}"
                  f"  {mistakes}", flush=True)
    print("\nthink time per move (ms)")
    print(f"{'level':<18}{'moves':>7}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    rows = [(level, times[level]) for level in ("strong", "normal", "easy")]
    rows += [(f"{level} {variant}", by_variant[variant, level])
             for variant in VARIANTS for level in ("strong", "normal", "easy")
             if (variant, level) in by_variant]
    for name, values in rows:
        ms = [v * 1000 for v in values]
        print(f"{name:<18}{len(ms):>7}{percentile(ms, 0.5):>8.1f}{percentile(ms, 0.95):>8.1f}"
              f"{percentile(ms, 0.99):>8.1f}{max(ms):>8.1f}")


if __name__ == "__main__":
    main()
