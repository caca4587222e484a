"""``numbridge serve`` and ``numbridge token``: the local runtime's commands."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``serve`` and ``token`` to the ``numbridge`` command."""
    serve = subparsers.add_parser(
        "serve",
        help="run the whole backend locally (WebSocket gateway, embedded DynamoDB)",
        description="Run the Numbridge backend on this machine: a WebSocket endpoint routed "
        "like API Gateway to the Lambda handlers, the @connections API, DynamoDB and SQS "
        "from an embedded moto server, timers, and snapshots in the data directory.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port to listen on (8080; 0: any)")
    serve.add_argument("--data-dir", help="where games and the token secret are kept")
    serve.add_argument(
        "--dynamodb-endpoint",
        metavar="URL",
        help="an external DynamoDB-compatible endpoint instead of the embedded one "
        "(also AWS_ENDPOINT_URL_DYNAMODB; SQS: AWS_ENDPOINT_URL_SQS)",
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
            dynamodb_endpoint=args.dynamodb_endpoint,
        )
    )


def _token(args: argparse.Namespace) -> int:
    import sys

    from numbridge.auth import issue_token
    from numbridge.local.datadir import data_dir, token_secret

    secret = token_secret(data_dir(args.data_dir))
    try:
        print(issue_token(args.name, secret, ttl_s=int(args.ttl_days * 86400)))
    except ValueError as exc:
        print(f"numbridge token: {exc}", file=sys.stderr)
        return 2
    return 0
