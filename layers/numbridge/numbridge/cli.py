"""The ``numbridge`` command: ``puzzle``, ``serve``, ``token``, ``bot``, ``club``, ``account``,
``fairplay`` and ``tournament`` subcommands.

Each subcommand module exposes ``register(subparsers)`` and sets ``func`` on its
parser; heavy imports (python-sat, moto) happen inside the command, not here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    import numbridge.botcli.bot_command as bot_cli
    import numbridge.clubfile.club_command as club_cli
    import numbridge.clubfile.tournament_command as tournament_cli
    import numbridge.fairplay.fairplay_command as fairplay_cli
    import numbridge.local.accounts.account_command as account_cli
    import numbridge.local.serve_command as local_cli
    import numbridge.puzzles.puzzle_command as puzzle_cli

    parser = argparse.ArgumentParser(
        prog="numbridge",
        description="Numbridge: a two-player sudoku on a hex board. Run a club on this "
        "machine (serve), sign players in (token), keep their accounts (account), play as a "
        "bot (bot), count and deal boards (puzzle), move a club between stores (club), or "
        "look at fair play from the coach's reviews (fairplay).")
    sub = parser.add_subparsers(dest="command", required=True)
    puzzle_cli.register(sub)
    local_cli.register(sub)
    bot_cli.register(sub)
    club_cli.register(sub)
    account_cli.register(sub)
    fairplay_cli.register(sub)
    tournament_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
