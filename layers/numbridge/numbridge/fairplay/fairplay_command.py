"""``numbridge fairplay report``: each player's hard placements against the club's pace
and guesses against chance, from the reviews of every finished game in the club's
archive (docs/coach.md, "Fair play").

On the store ``numbridge serve`` uses (``--data-dir``, or ``--store dynamodb --table``):
one read per finished game. Prints a table, the players to look at first, then each hard
reading's threshold; exits 0 either way (a report, not a verdict: nothing is acted on).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store

EXIT_REFUSED = 2
HEADER = ("player", "games", "placed", "proven", "hard", "fast", "usual", "z-fast",
          "guesses", "paid", "chance", "z-guess", "")


def register(subparsers: Any) -> None:
    fairplay = subparsers.add_parser(
        "fairplay", help="fair play: hard placements faster than people make them, guesses "
        "that pay more often than chance",
        description="Fair play from the coach's reviews of the club's finished games.")
    sub = fairplay.add_subparsers(dest="fairplay_command", required=True)
    report = sub.add_parser(
        "report", help="each player's pace and guesses against the club (most suspicious "
        "first)",
        description="Each player's placements that needed a hard reading (locked "
        "candidates, pairs, beyond) in rated games, and how many came at or under that "
        "reading's threshold (the club's own 5th percentile, never under the bot's pace), "
        "against the club's share ('usual'); those at least --z standard deviations above "
        "it over at least --min-hard of them are marked 'fast'. Beside it, guesses paid "
        "against what fair guesses would have paid; those at least --z above chance over at "
        "least --min-guesses guesses are marked 'look'. Nothing is acted on.")
    report.add_argument("--min-guesses", type=int, default=20, metavar="N",
                        help="guesses a player needs before being marked (default 20)")
    report.add_argument("--min-hard", type=int, default=10, metavar="N",
                        help="hard placements a player needs before being marked fast "
                        "(default 10)")
    report.add_argument("--z", type=float, default=3.0,
                        help="standard deviations above chance that mark a player (default 3)")
    report.add_argument("--bot-ms", type=int, default=None, metavar="MS",
                        help="the bot's pause, the floor of every threshold where the "
                        "archive holds no bot move of that reading (default: $BOT_DELAY_MS, "
                        "else 800)")
    add_store_arguments(report)
    report.set_defaults(func=_report)


def _records(store: Any) -> Iterator[dict[str, Any]]:
    from numbridge.store import keys
    from numbridge.store.club import Archive

    archive = Archive(store)
    for pk in store.partitions(keys.GAME_PREFIX):
        record = archive.get(keys.game_id_of(pk))
        if record is not None:
            yield record


def _report(args: argparse.Namespace) -> int:
    from numbridge.coach.fairplay import BOT_PAUSE_MS, fast, paces, suspicious, tally

    try:
        store, where, close = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        print(f"numbridge fairplay: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        records = list(_records(store))  # read twice: the club's pace, then each player
    finally:
        close()
    bot_ms = args.bot_ms if args.bot_ms is not None else _bot_delay(BOT_PAUSE_MS)
    pace = paces(records, bot_pause_ms=bot_ms)
    players = tally(records, pace)
    looked = {p.name for p in suspicious(players, min_guesses=args.min_guesses, z=args.z)}
    hurried = {p.name for p in fast(players, min_hard=args.min_hard, z=args.z)}

    def worst(p: Any) -> float:
        return max(p.z if p.z is not None else -99.0, p.fast_z if p.fast_z is not None else -99.0)

    rows = [(p.name, str(p.games), str(p.placements),
             f"{p.proven / p.placements:.0%}" if p.placements else "-",
             str(p.hard), str(p.fast), f"{p.fast_expected:.1f}",
             "-" if p.fast_z is None else f"{p.fast_z:+.1f}",
             str(p.guesses), str(p.paid), f"{p.expected:.1f}",
             "-" if p.z is None else f"{p.z:+.1f}",
             " ".join(m for m, on in (("fast", p.name in hurried), ("look", p.name in looked))
                      if on))
            for p in sorted(players.values(), key=lambda p: (-worst(p), p.name))]
    print(f"{len(players)} players in the reviewed games of {where}; "
          f"{len(hurried)} fast (z >= {args.z:g} over >= {args.min_hard} hard placements), "
          f"{len(looked)} to look at (z >= {args.z:g} over >= {args.min_guesses} guesses)")
    if rows:
        widths = [max(len(r[i]) for r in [*rows, HEADER]) for i in range(len(HEADER))]
        for row in [HEADER, *rows]:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    print("thresholds (rated games; a move at or under its reading's is fast):")
    for known in pace.values():
        club = ("too few moves" if known.club_ms is None
                else f"club 5th percentile {known.club_ms / 1000:.1f} s")
        bot = (f"bot {known.bot_ms / 1000:.1f} s over {known.bot_moves} moves"
               if known.bot_moves else f"bot pause {known.bot_ms / 1000:.1f} s")
        print(f"  {known.reading}: {known.threshold_ms / 1000:.1f} s ({club}, {bot}); "
              f"{known.moves} moves, {known.share:.0%} of them fast")
    return 0


def _bot_delay(default: int) -> int:
    import os

    raw = os.environ.get("BOT_DELAY_MS")
    try:
        return max(0, int(raw)) if raw else default
    except ValueError:
        return default
