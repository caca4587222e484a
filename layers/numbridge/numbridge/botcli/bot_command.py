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
    bot.add_argument("--games", type=int, default=1, help="games at once (1)")
    bot.add_argument("--url", default="ws://127.0.0.1:8080/",
                     help="the server's WebSocket URL (ws://127.0.0.1:8080/)")
    bot.add_argument("--name", help="the player's name when minting a local token "
                     "(robot-LEVEL; names starting bot- are the club's own)")
    bot.add_argument("--token", help="the player's token (default for a local URL: one "
                     "signed with the data directory's secret, as `numbridge token`)")
    bot.add_argument("--data-dir", help="the data directory of the local server")
    bot.add_argument("--stop-after", type=int, metavar="N",
                     help="exit after N games have finished (default: run on)")
    bot.add_argument("--poll", type=float, default=3.0, metavar="S",
                     help="seconds between looks at the open proposals (3)")
    bot.set_defaults(func=_bot)


def _token(args: argparse.Namespace, name: str) -> str | None:
    if args.token:
        return str(args.token)
    if urlparse(args.url).hostname not in LOCAL_HOSTS:
        return None
    from numbridge.auth import issue_token
    from numbridge.local.datadir import data_dir, token_secret

    return issue_token(name, token_secret(data_dir(args.data_dir)))


def _bot(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from numbridge.botcli.client import BotClient, BotOptions

    name = args.name or f"robot-{args.level}"
    try:
        token = _token(args, name)
    except ValueError as exc:
        print(f"numbridge bot: {exc}", file=sys.stderr)
        return 2
    if token is None:
        print("numbridge bot: --token is needed for a server that is not local",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s numbridge-bot %(levelname)s %(message)s")
    options = BotOptions(url=args.url, token=token, name=name, level=args.level,
                         room=args.room, games=max(1, args.games),
                         stop_after=args.stop_after, poll_s=args.poll)
    try:
        return asyncio.run(BotClient(options).run())
    except KeyboardInterrupt:
        return 130
