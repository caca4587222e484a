"""``numbridge serve`` and ``numbridge token``: the local runtime's commands."""

from __future__ import annotations

import argparse
from typing import Any


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
    serve.add_argument("--port", type=int, default=8080, help="port to listen on (8080; 0: any)")
    serve.add_argument("--data-dir", help="where games and the token secret are kept")
    serve.add_argument(
        "--public-url", metavar="URL",
        help="where people reach this server, when not at --host (a TLS proxy in front: "
        "https://club.example.org; a LAN name: http://clubpc.local:8080); requests for "
        "that host, and pages from that origin, are accepted as this server's own",
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
    token.add_argument("--data-dir", help="the data directory `numbridge serve` uses")
    token.add_argument("--ttl-days", type=float, default=30.0, help="days until it expires (30)")
    token.set_defaults(func=_token)


def _serve(args: argparse.Namespace) -> int:
    from numbridge.local.server import ServeOptions, serve

    return serve(
        ServeOptions(
            host=args.host,
            port=args.port,
            data_dir=args.data_dir,
            store=args.store or ("dynamodb" if args.dynamodb_endpoint else "sqlite"),
            dynamodb_endpoint=args.dynamodb_endpoint,
            synchronous=args.synchronous,
            public_url=args.public_url,
        )
    )


def _token(args: argparse.Namespace) -> int:
    import sys

    from numbridge.auth import issue_token
    from numbridge.local.datadir import data_dir, token_secret

    try:
        secret = token_secret(data_dir(args.data_dir))
        print(issue_token(args.name, secret, ttl_s=int(args.ttl_days * 86400)))
    except ValueError as exc:
        print(f"numbridge token: {exc}", file=sys.stderr)
        return 2
    return 0
