"""``numbridge serve`` and ``numbridge token``: the local runtime's commands."""

from __future__ import annotations

import argparse
import time
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store


def register(subparsers: Any) -> None:
    """Add ``serve`` and ``token`` to the ``numbridge`` command."""
    serve = subparsers.add_parser(
        "serve",
        help="run the whole backend locally (WebSocket gateway, SQLite database)",
        description="Run the Numbridge backend on this machine: a WebSocket endpoint routed "
        "like API Gateway to the Lambda handlers, the @connections API, per-move timers, and "
        "the club in one SQLite database file in the data directory (numbridge.db). Every "
        "acknowledged action is committed to it before the answer goes out.",
        epilog="Backing up: copy numbridge.db (with its -wal file) while the server is "
        "stopped, or while it runs use SQLite's backup API: "
        "sqlite3 DATA_DIR/numbridge.db \".backup /path/to/backup.db\".",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (127.0.0.1: this machine only; 0.0.0.0: "
                       "every address, see docs/hosting.md)")
    serve.add_argument("--port", type=int, default=8080,
                       help="port to listen on (8080; 0: a free one the system picks, "
                       "named in the banner's Listening line and in --port-file)")
    serve.add_argument("--port-file", metavar="PATH",
                       help="once the server answers, write the port it listens on to PATH "
                       "(for a script that started it with --port 0); removed when it stops")
    serve.add_argument("--data-dir", help="where games and the token secret are kept")
    serve.add_argument(
        "--public-url", metavar="URL",
        help="where people reach this server, when not at --host (a TLS proxy in front: "
        "https://club.example.org; a LAN name: http://clubpc.local:8080); requests for "
        "that host, and pages from that origin, are accepted as this server's own",
    )
    serve.add_argument(
        "--trusted-proxy", metavar="ADDR", action="append", default=[],
        help="a proxy (address or network; repeatable) whose X-Forwarded-For names the "
        "client a failed sign-in is charged to (default: loopback with --public-url, "
        "else none; docs/hosting.md)",
    )
    serve.add_argument(
        "--store", choices=("sqlite", "dynamodb"),
        help="sqlite (default): numbridge.db in the data dir; dynamodb (the default with "
        "--dynamodb-endpoint): the DynamoDB adapter, on that endpoint or an embedded moto "
        "server (in memory, to try the AWS path)",
    )
    serve.add_argument(
        "--dynamodb-endpoint",
        metavar="URL",
        help="with --store dynamodb: a DynamoDB-compatible endpoint "
        "(also AWS_ENDPOINT_URL_DYNAMODB)",
    )
    serve.add_argument(
        "--open-sign-in", action="store_true",
        help="sign in by name alone, no password (a one-person machine: refused with a "
        "--host that is not loopback, and with --public-url)",
    )
    serve.add_argument(
        "--synchronous", choices=("FULL", "NORMAL"), default="FULL",
        help="SQLite's durability: FULL (default) survives a power cut; NORMAL survives a "
        "killed server only, and commits faster",
    )
    serve.set_defaults(func=_serve)

    token = subparsers.add_parser(
        "token",
        help="print a player token for the local server",
        description="Print a signed token for player NAME, for ws://HOST:PORT/?token=TOKEN. "
        "The secret is TOKEN_SECRET if set, else the one in the data directory.",
    )
    token.add_argument("name", metavar="NAME", help="the player's name (1-32 of A-Z a-z 0-9 _ . -)")
    token.add_argument("--ttl", default="7d", type=duration_s,
                       help="how long it lasts: 3600, 90s, 15m, 12h, 7d (default 7d; "
                       "from 60 s to 90 d)")
    add_store_arguments(token)  # the player's account: its token generation
    token.set_defaults(func=_token)


def _serve(args: argparse.Namespace) -> int:
    from numbridge.local.server import ServeOptions, serve

    return serve(
        ServeOptions(
            host=args.host,
            port=args.port,
            port_file=args.port_file,
            data_dir=args.data_dir,
            store=args.store or ("dynamodb" if args.dynamodb_endpoint else "sqlite"),
            dynamodb_endpoint=args.dynamodb_endpoint,
            synchronous=args.synchronous,
            public_url=args.public_url,
            open_sign_in=args.open_sign_in,
            trusted_proxies=tuple(args.trusted_proxy),
        )
    )


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration_s(text: str) -> int:
    """``3600``, ``90s``, ``15m``, ``12h``, ``7d`` in seconds, within a token's lifetimes."""
    from numbridge.auth import BadTtl, check_ttl

    text = text.strip().lower()
    unit = _UNITS.get(text[-1:])
    number = text[:-1] if unit is not None else text
    try:
        value = float(number) * (unit or 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (e.g. 7d, 12h)") from None
    try:
        return check_ttl(value)
    except BadTtl as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _token(args: argparse.Namespace) -> int:
    import sys

    from numbridge.auth import issue_token
    from numbridge.local.data.datadir import token_secret

    try:
        generation = _generation(args)
        secret = token_secret(_secret_dir(args))
        print(issue_token(args.name, secret, ttl_s=args.ttl, generation=generation))
    except (ValueError, StoreRefused) as exc:
        print(f"numbridge token: {exc}", file=sys.stderr)
        return 2
    return 0


def local_token(name: str, data_dir: str | None) -> str:
    """A token for ``name`` from the local server's data directory: its secret, the
    player's generation in its database (``numbridge bot`` against a local server)."""
    from numbridge.auth import DEFAULT_TTL_S, issue_token
    from numbridge.local.data.datadir import token_secret

    args = argparse.Namespace(name=name, data_dir=data_dir, store=None, table=None,
                              dynamodb_endpoint=None)
    generation = _generation(args)
    return issue_token(name, token_secret(_secret_dir(args)), ttl_s=DEFAULT_TTL_S,
                       generation=generation)


def _secret_dir(args: argparse.Namespace) -> Any:
    from numbridge.local.data.datadir import data_dir

    return data_dir(args.data_dir)


def _generation(args: argparse.Namespace) -> int:
    """The player's token generation in the store (0 if the data directory has no
    database yet); a disabled player gets no token. A player without a record gets one
    now, without a password: the name is the token's owner's from the moment it is
    minted, not from their first connect — a sign-up between the two would otherwise
    take the name, and the token would then enter that account."""
    from numbridge.local.data.datadir import DATABASE_FILE, data_dir
    from numbridge.names import check_player_name, same_player
    from numbridge.store.accounts import Accounts

    name = check_player_name(args.name)  # in NFC, as the token will name it
    if (args.store or "sqlite") == "sqlite" and not args.table and not args.dynamodb_endpoint \
            and not (data_dir(args.data_dir) / DATABASE_FILE).exists():
        return 0
    store, where, close = open_named_store(args, must_exist=True)
    try:
        accounts = Accounts(store)
        account = accounts.get(name)
        if account is None:  # neither the name's nor a look-alike's
            account = accounts.ensure(name, int(time.time() * 1000))
    finally:
        close()
    if account.disabled:
        raise ValueError(f"{account.name} is disabled in {where} (numbridge account enable)")
    if not same_player(account.name, name):
        raise ValueError(f"the name {name!r} is taken: it looks the same as {account.name!r}")
    if account.name != name:
        raise ValueError(f"the player is called {account.name!r}")
    return account.generation
