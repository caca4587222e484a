"""``numbridge account``: the host's commands over players' records, on either store.

``list``; ``reset NAME`` (a new password, printed once: the only way a name without
a password — an operator token's player, one from before records — gets one);
``revoke NAME`` (every token of the player stops working); ``disable NAME`` /
``enable NAME`` (a club's last resort: a disabled player can neither sign in nor
connect); ``rekey`` (records from before look-alike names folded alike, moved under
their new keys). NAME is held to the names' rule (:mod:`numbridge.names`) and names
the player in any case, never a look-alike's record. Each works while the server
runs: the server reads the record at every sign-in and connect. Connections already
open stay until their token expires or they close.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store

EXIT_REFUSED = 2


def register(subparsers: Any) -> None:
    account = subparsers.add_parser(
        "account", help="list players' accounts; reset, revoke, disable or enable one",
        description="The host's commands over players' accounts, on the store "
        "`numbridge serve` uses (--data-dir, or --store dynamodb --table).")
    sub = account.add_subparsers(dest="account_command", required=True)
    listing = sub.add_parser("list", help="every player's account")
    add_store_arguments(listing)
    listing.set_defaults(func=_list)
    for name, help_text in (
        ("reset", "give NAME a new password (printed once); their tokens stop working"),
        ("revoke", "end every token of NAME (they sign in again)"),
        ("disable", "refuse NAME's sign-ins and connections, and end their tokens"),
        ("enable", "let a disabled NAME sign in again"),
    ):
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.add_argument("name", metavar="NAME", help="the player (any case)")
        add_store_arguments(command)
        command.set_defaults(func=_change, change=name)
    rekey = sub.add_parser(
        "rekey", help="move records from before look-alike names folded alike under "
        "their new keys (numbridge serve does it at its start; once for a DynamoDB table)")
    add_store_arguments(rekey)
    rekey.set_defaults(func=_rekey)


def _refused(why: str) -> int:
    print(f"numbridge account: {why}", file=sys.stderr)
    return EXIT_REFUSED


def _list(args: argparse.Namespace) -> int:
    from numbridge.store.accounts import Accounts

    try:
        store, where, close = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        return _refused(str(exc))
    try:
        rows = [(a.name, _when(a.created_ms), str(a.generation), _how(a),
                 "disabled" if a.disabled else "") for a in Accounts(store).all()]
    finally:
        close()
    print(f"{len(rows)} accounts in {where}")
    if rows:
        widths = [max(len(r[i]) for r in [*rows, _HEADER]) for i in range(len(_HEADER))]
        for row in [_HEADER, *rows]:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return 0


_HEADER = ("name", "created", "generation", "signs in with", "")


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


def _how(account: Any) -> str:
    if account.password_hash is not None:
        return "password"
    if account.sub is not None:
        return "Cognito"
    return "tokens only"


def _rekey(args: argparse.Namespace) -> int:
    from numbridge.store.accounts import Accounts

    try:
        store, where, close = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        return _refused(str(exc))
    try:
        moved, left = Accounts(store).rekey()
    finally:
        close()
    print(f"{len(moved)} records moved under their folded names in {where}")
    for name in left:
        print(f"left under its earlier key: {name} (a look-alike from before has its new "
              "key; both still sign in)")
    return 0


def _reset(accounts: Any, name: str, password_hash: str) -> Any:
    """A new password for ``name``: its record's, or, for a player with games from before
    records, a record made with it (a sign-in never claims one: the host does)."""
    from numbridge.names import same_player
    from numbridge.store.accounts import Account, NoSuchAccount

    try:
        return accounts.set_password(name, password_hash)
    except NoSuchAccount:
        earlier = accounts.earlier_player(name)
        if earlier is None or not same_player(earlier, name):  # none, or a look-alike's
            raise
    made = Account(name=earlier, created_ms=time.time_ns() // 1_000_000, generation=1,
                   password_hash=password_hash)  # generation 1: earlier tokens end
    return made if accounts.add(made) else accounts.set_password(name, password_hash)


def _change(args: argparse.Namespace) -> int:
    from numbridge.local.accounts.passwords import Passwords, new_password
    from numbridge.names import BadName, check_player_name, same_player
    from numbridge.store.accounts import Accounts, NoSuchAccount

    try:
        args.name = check_player_name(args.name)
    except BadName as exc:
        return _refused(str(exc))
    try:
        store, where, close = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        return _refused(str(exc))
    accounts = Accounts(store)
    found = accounts.get(args.name)
    if found is not None and not same_player(found.name, args.name):
        close()  # a look-alike's record: not the player the host named
        return _refused(f"no player {args.name!r} in {where} ({found.name!r} looks the same)")
    password = new_password() if args.change == "reset" else None
    try:
        if password is not None:
            done = _reset(accounts, args.name, Passwords().hash(password))
        elif args.change == "revoke":
            done = accounts.revoke(args.name)
        else:
            done = accounts.set_disabled(args.name, args.change == "disable")
    except NoSuchAccount:
        return _refused(f"no player {args.name!r} in {where}")
    finally:
        close()
    said = {"reset": "has a new password", "revoke": "must sign in again",
            "disable": "is disabled", "enable": "is enabled"}[args.change]
    print(f"{done.name} {said} (token generation {done.generation})")
    if password is not None:
        print(f"new password (shown once): {password}")
    return 0
