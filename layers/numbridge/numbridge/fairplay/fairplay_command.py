"""``numbridge fairplay report``: each player's guesses against chance, from the reviews
of every finished game in the club's archive (docs/coach.md, "Fair play").

On the store ``numbridge serve`` uses (``--data-dir``, or ``--store dynamodb --table``):
one read per finished game. Prints a table, the players to look at first; exits 0
either way (a report, not a verdict).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store

EXIT_REFUSED = 2
HEADER = ("player", "games", "placed", "proven", "guesses", "paid", "chance", "z", "")


def register(subparsers: Any) -> None:
    fairplay = subparsers.add_parser(
        "fairplay", help="fair play: players whose guesses pay more often than chance",
        description="Fair play from the coach's reviews of the club's finished games.")
    sub = fairplay.add_subparsers(dest="fairplay_command", required=True)
    report = sub.add_parser(
        "report", help="each player's guesses against chance (most suspicious first)",
        description="Each player's placements proven and guesses paid against what fair "
        "guesses would have paid; those at least --z standard deviations above chance over "
        "at least --min-guesses guesses are marked to look at.")
    report.add_argument("--min-guesses", type=int, default=20, metavar="N",
                        help="guesses a player needs before being marked (default 20)")
    report.add_argument("--z", type=float, default=3.0,
                        help="standard deviations above chance that mark a player (default 3)")
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
    from numbridge.coach.fairplay import suspicious, tally

    try:
        store, where, close = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        print(f"numbridge fairplay: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        players = tally(_records(store))
    finally:
        close()
    marked = {p.name for p in suspicious(players, min_guesses=args.min_guesses, z=args.z)}
    rows = [(p.name, str(p.games), str(p.placements),
             f"{p.proven / p.placements:.0%}" if p.placements else "-",
             str(p.guesses), str(p.paid), f"{p.expected:.1f}",
             "-" if p.z is None else f"{p.z:+.1f}", "look" if p.name in marked else "")
            for p in sorted(players.values(), key=lambda p: (-(p.z or -99.0), p.name))]
    print(f"{len(players)} players in the reviewed games of {where}; "
          f"{len(marked)} to look at (z >= {args.z:g} over >= {args.min_guesses} guesses)")
    if rows:
        widths = [max(len(r[i]) for r in [*rows, HEADER]) for i in range(len(HEADER))]
        for row in [HEADER, *rows]:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return 0
