"""``numbridge tournament create|list|start|cancel``: the host makes the club's events, on
either store (``--data-dir`` for SQLite, ``--store dynamodb --table T``), also while
``numbridge serve`` runs on that data directory: the server's sweep finds a new
tournament within seconds and starts it on time (``service.usecases.tournament_steps``).

``create`` prints the new tournament's id on its last line. ``start`` moves an upcoming
one's start (now by default): the host starts it once the players they wait for are in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store

EXIT_REFUSED = 2


def register(subparsers: Any) -> None:
    """Add ``tournament`` (``create``, ``list``, ``start``, ``cancel``) to the ``numbridge``
    command."""
    tournament = subparsers.add_parser(
        "tournament", help="make the club's tournaments: create, list, start, cancel",
        description="Make an arena, a Swiss or a round robin in a room: it starts by "
        "itself at its time and runs with no one watching over it, in `numbridge serve` or "
        "in AWS alike.")
    sub = tournament.add_subparsers(dest="tournament_command", required=True)
    create = sub.add_parser("create", help="make a tournament (its id on the last line)")
    create.add_argument("--kind", required=True, choices=("arena", "swiss", "round_robin"))
    create.add_argument("--room", required=True, help="the room whose games it plays")
    create.add_argument("--name", help="as the players see it (default: the room and kind)")
    create.add_argument("--starts", metavar="+SECONDS|ISO", default="+0",
                        help="when it starts: in SECONDS from now, or an ISO 8601 instant "
                        "(UTC unless it says otherwise); default now")
    create.add_argument("--minutes", type=float,
                        help="an arena's length (default 30; a fraction for a quick test)")
    create.add_argument("--rounds", type=int, help="a Swiss's rounds (default 5)")
    create.add_argument("--unrated", action="store_true",
                        help="games not rated (bots may then take part)")
    add_store_arguments(create)
    create.set_defaults(func=_create)
    listing = sub.add_parser("list", help="the tournaments, upcoming, running and finished")
    add_store_arguments(listing)
    listing.set_defaults(func=_list)
    start = sub.add_parser("start", help="move an upcoming tournament's start (now by "
                           "default), e.g. once the players awaited are in")
    start.add_argument("tournament", metavar="TID")
    start.add_argument("--starts", metavar="+SECONDS|ISO", default="+0",
                       help="its new start, as create takes it; default now")
    add_store_arguments(start)
    start.set_defaults(func=_start)
    cancel = sub.add_parser("cancel", help="end a tournament now (no pairing after)")
    cancel.add_argument("tournament", metavar="TID")
    add_store_arguments(cancel)
    cancel.set_defaults(func=_cancel)


def starts_at(text: str, now_ms: int) -> int:
    """``+SECONDS`` from now, or an ISO 8601 instant (UTC when it names no zone), in ms."""
    if text.startswith("+"):
        try:
            return now_ms + round(float(text[1:]) * 1000)
        except ValueError as exc:
            raise ValueError(f"--starts {text!r}: +SECONDS wants a number") from exc
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"--starts {text!r}: neither +SECONDS nor an ISO 8601 instant") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _on_store(command: str, args: argparse.Namespace, *, must_exist: bool,
              act: Callable[[Any, str], str], refusals: tuple[type[Exception], ...]) -> int:
    """Open the store named by the arguments, ``act`` on it, print what it says; a store
    that cannot be opened or a refusal among ``refusals`` is said on stderr (exit 2)."""
    try:
        store, where, close = open_named_store(args, must_exist=must_exist)
    except StoreRefused as exc:
        return _refused(command, str(exc))
    try:
        said = act(store, where)
    except refusals as exc:
        return _refused(command, str(exc))
    finally:
        close()
    if said:
        print(said)
    return 0


def _create(args: argparse.Namespace) -> int:
    from numbridge.service.context import wall_clock_ms
    from numbridge.service.usecases.tournaments import TournamentRefused, create_tournament

    try:
        starts = starts_at(args.starts, wall_clock_ms())
    except ValueError as exc:
        return _refused("create", str(exc))

    def create(store: Any, where: str) -> str:
        tournament_id = create_tournament(
            store, wall_clock_ms, kind=args.kind, room=args.room, name=args.name,
            starts_ms=starts, minutes=args.minutes, rounds=args.rounds,
            rated=not args.unrated)
        return f"created in {where}, starting {_when(starts)}\n{tournament_id}"

    return _on_store("create", args, must_exist=False, act=create,
                     refusals=(TournamentRefused,))


def _list(args: argparse.Namespace) -> int:
    from numbridge.store.tournaments import STATUSES, Tournaments

    def listing(store: Any, _: str) -> str:
        found = Tournaments(store)
        lines = []
        for status in STATUSES:
            listed = found.all_in_status(status)
            counted = found.counted([t.id for t in listed if t.status != "finished"])
            for t in listed:
                extent = (f"{((t.ends_ms or t.starts_ms) - t.starts_ms) / 60_000:g} min"
                          if t.kind == "arena" else f"round {t.round}/{t.rounds or '?'}")
                lines.append(
                    f"{t.id}  {t.status:<8}  {t.kind:<11}  {t.room:<10}  "
                    f"{_when(t.starts_ms)}  {extent}  {counted.get(t.id, t.players)} players  "
                    f"{'rated' if t.rated else 'unrated'}  {t.name}")
        return "\n".join(lines)

    return _on_store("list", args, must_exist=True, act=listing, refusals=())


def _start(args: argparse.Namespace) -> int:
    from numbridge.service.context import wall_clock_ms
    from numbridge.service.usecases.tournaments import TournamentRefused, start_tournament

    try:
        starts = starts_at(args.starts, wall_clock_ms())
    except ValueError as exc:
        return _refused("start", str(exc))

    def start(store: Any, _: str) -> str:
        moved = start_tournament(store, wall_clock_ms, args.tournament, starts)
        return f"{moved.id} starts {_when(moved.starts_ms)}"

    return _on_store("start", args, must_exist=True, act=start,
                     refusals=(LookupError, TournamentRefused))


def _cancel(args: argparse.Namespace) -> int:
    from numbridge.service.usecases.tournaments import cancel_tournament

    def cancel(store: Any, _: str) -> str:
        ended = cancel_tournament(store, args.tournament)
        return f"{ended.id} {'cancelled' if ended.cancelled else 'had finished already'}"

    return _on_store("cancel", args, must_exist=True, act=cancel, refusals=(LookupError,))


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _refused(command: str, message: str) -> int:
    print(f"numbridge tournament {command}: {message}", file=sys.stderr)
    return EXIT_REFUSED
