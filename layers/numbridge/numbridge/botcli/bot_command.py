"""``numbridge bot``: run the bot brain as a player against a server."""

from __future__ import annotations

import argparse
import sys
from typing import Any
from urllib.parse import urlparse

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def register(subparsers: Any) -> None:
    bot = subparsers.add_parser(
        "bot",
        help="play open proposals with the bot (a WebSocket client of any server)",
        description="Connect to a Numbridge server as a player, accept open proposals "
        "(those of one room with --room) and play them out with the bot brain, up to "
        "--games at once; reconnects and catches up by v when the connection drops.",
    )
    bot.add_argument("--level", choices=("easy", "normal", "strong"), default="normal")
    bot.add_argument("--room", help="accept only proposals in this room")
    bot.add_argument("--seek", metavar="ROOM",
                     help="seek games in ROOM (quick pairing: paired with whoever else "
                     "seeks there, ratings close) instead of accepting proposals")
    bot.add_argument("--tournament", metavar="TID",
                     help="join tournament TID (an unrated one) and play every game it "
                     "pairs the bot into until it has finished, then exit; instead of "
                     "accepting proposals")
    bot.add_argument("--games", type=int, default=1, help="games at once (1)")
    bot.add_argument("--url", default="ws://127.0.0.1:8080/",
                     help="the server's WebSocket URL (ws://127.0.0.1:8080/)")
    bot.add_argument("--name", help="the player's name when minting a local token "
                     "(robot-LEVEL; names starting bot- are the club's own)")
    given = bot.add_mutually_exclusive_group()
    given.add_argument("--token-file", metavar="PATH",
                       help="read the player's token from PATH (or set NUMBRIDGE_TOKEN); "
                       "default for a local URL: one signed with the data directory's "
                       "secret, as `numbridge token`")
    given.add_argument("--token", help="the player's token on the command line: every user "
                       "of the machine sees it in `ps` (prefer --token-file)")
    bot.add_argument("--data-dir", help="the data directory of the local server")
    bot.add_argument("--stop-after", type=int, metavar="N",
                     help="exit after N games have finished (default: run on)")
    bot.add_argument("--poll", type=float, default=3.0, metavar="S",
                     help="seconds between looks at the open proposals (3)")
    bot.set_defaults(func=_bot)


TOKEN_VARIABLE = "NUMBRIDGE_TOKEN"


def _token(args: argparse.Namespace, name: str) -> str | None:
    """The token from --token, --token-file or NUMBRIDGE_TOKEN, else one minted for a
    local URL; None if there is none to be had. ValueError if the file cannot be read."""
    import os
    from pathlib import Path

    if args.token:
        return str(args.token)
    if args.token_file:
        try:
            token = Path(args.token_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read --token-file {args.token_file}: {exc}") from None
        if not token:
            raise ValueError(f"--token-file {args.token_file} is empty")
        return token
    if os.environ.get(TOKEN_VARIABLE, "").strip():
        return os.environ[TOKEN_VARIABLE].strip()
    if urlparse(args.url).hostname not in LOCAL_HOSTS:
        return None
    from numbridge.local.serve_command import local_token

    return local_token(name, args.data_dir)


def _bot(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from numbridge.botcli.client import BotClient, BotOptions

    name = args.name or f"robot-{args.level}"
    if args.seek and args.tournament:
        print("numbridge bot: --seek or --tournament, not both", file=sys.stderr)
        return 2
    if args.token:
        print("numbridge bot: a token given with --token is seen by every user of the "
              f"machine (ps); prefer --token-file PATH or {TOKEN_VARIABLE}", file=sys.stderr)
    try:
        token = _token(args, name)
    except ValueError as exc:
        print(f"numbridge bot: {exc}", file=sys.stderr)
        return 2
    if token is None:
        print("numbridge bot: a server that is not local needs a token: --token-file PATH "
              f"or {TOKEN_VARIABLE}",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s numbridge-bot %(levelname)s %(message)s")
    options = BotOptions(url=args.url, token=token, name=name, level=args.level,
                         room=args.room, games=max(1, args.games),
                         stop_after=args.stop_after, poll_s=args.poll, seek=args.seek,
                         tournament=args.tournament)
    try:
        return asyncio.run(BotClient(options).run())
    except KeyboardInterrupt:
        return 130
