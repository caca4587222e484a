"""``numbridge serve``: the whole backend on one machine.

Start-up: data dir checked and locked, token secret → port bound → the database (SQLite in the
data dir, or DynamoDB) → stale connections forgotten → handler environment →
handlers imported → gateway built → services wired (store, the management client —
a call into the gateway's own sockets, whatever the store — deadline timers, the bot,
lobby, review and tournament queues) → gateway listening →
every pending deadline armed (and a bot turn owed sent again), sweeps running (the
games' every minute, the tournaments' every few seconds).
Shutdown (Ctrl-C / SIGTERM): sockets closed with 1001 and their ``$disconnect``
handlers run, timers and bot queue stopped, the database closed. Every
acknowledged action is already committed: nothing is saved at shutdown, and a
killed process loses nothing that was acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time
import warnings
from functools import partial
from pathlib import Path

from numbridge.local.accounts.sign_in import LocalSignIn
from numbridge.local.accounts.signing import SignIns
from numbridge.local.apigateway.gateway import TOKEN_EXPIRED, TOKEN_EXPIRED_REASON
from numbridge.local.apigateway.http_server import GatewayServer, base_url, bind
from numbridge.local.apigateway.origins import (
    PublicUrl,
    ServerNames,
    TrustedProxies,
    is_loopback,
)
from numbridge.local.apigateway.posting import LocalManagementClient
from numbridge.local.banner import Started, banner, listening
from numbridge.local.data.datadir import DataDirLock, data_dir, token_secret
from numbridge.local.data.stores import OpenStore, open_store
from numbridge.local.lambdas import environment
from numbridge.local.lambdas.bots import LocalBotTurns
from numbridge.local.lambdas.deadline_timers import SWEEP_INTERVAL_S, DeadlineTimers
from numbridge.local.lambdas.functions import (
    Function,
    Invoker,
    load_handler,
    repo_root,
    route_functions,
    template_functions,
    template_routes,
)
from numbridge.local.lambdas.lobby_queue import LocalLobbyFeed
from numbridge.local.lambdas.reviews import LocalReviews
from numbridge.local.lambdas.tournaments import LocalTournamentSteps
from numbridge.service.aws.sqs_bot_turns import delay_ms_from
from numbridge.service.context import Services
from numbridge.store.accounts import Accounts
from numbridge.values import frozen

log = logging.getLogger("numbridge.local")

TIMEOUT_FUNCTION = "timeout"
BOT_FUNCTION = "bot"
FANOUT_FUNCTION = "fanout"
REVIEW_FUNCTION = "review"
TOURNAMENT_FUNCTION = "tournament"


@frozen
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8080  # 0: a free one, chosen by the system
    # Where the port bound is written once the server answers (--port-file).
    port_file: str | None = None
    data_dir: str | None = None
    store: str = "sqlite"
    dynamodb_endpoint: str | None = None
    synchronous: str = "FULL"
    sweep_interval_s: float = SWEEP_INTERVAL_S
    public_url: str | None = None
    # Name-only sign-in, as before accounts: loopback only, no --public-url
    # (check_open_sign_in).
    open_sign_in: bool = False
    # Whose X-Forwarded-For names a client (--trusted-proxy; none: loopback with
    # --public-url).
    trusted_proxies: tuple[str, ...] = ()


def serve(options: ServeOptions) -> int:
    """Run until Ctrl-C or SIGTERM; the exit status."""
    from numbridge.sam_template import TemplateError

    _configure_logging()
    try:
        asyncio.run(_serve(options))
    except (OSError, TemplateError, ValueError) as exc:  # a clear message; else a traceback
        print(f"numbridge serve: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("numbridge serve: interrupted", file=sys.stderr)
        return 130
    return 0


def _configure_logging() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s numbridge %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    # Handlers that emit no metric in an invocation (a sweep with nothing due) warn each time.
    warnings.filterwarnings("ignore", message="No application metrics to publish")


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()

    def request_stop(signum: int) -> None:
        if stop.is_set():
            return
        print(f"\n{signal.Signals(signum).name}: stopping...", flush=True)
        stop.set()
        # A second Ctrl-C quits at once.
        loop.remove_signal_handler(signal.SIGINT)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, request_stop, signum)


def _housekeeping(opened: OpenStore) -> None:
    from numbridge.store.sqlite import SqliteStore

    if isinstance(opened.store, SqliteStore):
        removed = opened.store.purge_expired(int(time.time()))
        if removed:
            log.info("removed %d expired items", removed)


async def _serve(options: ServeOptions) -> None:
    root = repo_root()
    if not (root / "template.yaml").is_file() or not (root / "functions").is_dir():
        raise FileNotFoundError(
            f"no template.yaml and functions/ in {root}: run from a Numbridge checkout "
            "or set NUMBRIDGE_ROOT to one"
        )
    check_open_sign_in(options)
    proxies = TrustedProxies.of(options.trusted_proxies, bool(options.public_url))
    names = ServerNames(options.host,
                        PublicUrl.parse(options.public_url) if options.public_url else None)
    os.umask(0o077)  # whatever the server writes is its own
    directory = data_dir(options.data_dir)
    with DataDirLock(directory):
        await _serve_in(options, root, names, proxies, directory)


async def _serve_in(options: ServeOptions, root: Path, names: ServerNames,
                    proxies: TrustedProxies, directory: Path) -> None:
    """The server, once its data directory is locked: no other server on it since."""
    secret = token_secret(directory)
    try:
        sock = bind(options.host, options.port)
    except OSError as exc:
        raise OSError(
            f"cannot listen on {options.host}:{options.port} ({exc.strerror}); "
            "is another server running? Choose another --port"
        ) from exc
    port = sock.getsockname()[1]
    http_url = base_url(options.host, port)
    port_file = PortFile(options.port_file, port)

    opened = open_store(options.store, directory, dynamodb_endpoint=options.dynamodb_endpoint,
                        synchronous=options.synchronous, template_path=root / "template.yaml")
    try:
        port_file.draft()
        _forget_connections(opened)
        _rekey_accounts(opened)
        environment.apply(environment.handler_environment(
            token_secret=secret, management_endpoint=http_url))
        functions = template_functions(root)
        routes = route_functions(template_routes(root), functions)

        invoker = Invoker()
        timers = DeadlineTimers(
            partial(invoker.invoke, functions[TIMEOUT_FUNCTION]),
            sweep_interval_s=options.sweep_interval_s,
            housekeeping=partial(_housekeeping, opened),
        )
        bots = LocalBotTurns(partial(invoker.invoke, functions[BOT_FUNCTION]),
                             delay_ms=delay_ms_from(os.environ.get("BOT_DELAY_MS")))
        lobby = LocalLobbyFeed(partial(invoker.invoke, functions[FANOUT_FUNCTION]))
        reviews = LocalReviews(partial(invoker.invoke, functions[REVIEW_FUNCTION]))
        steps = LocalTournamentSteps(partial(invoker.invoke, functions.get(
            TOURNAMENT_FUNCTION) or Function(TOURNAMENT_FUNCTION,
                                             load_handler(root, TOURNAMENT_FUNCTION))))
        server = GatewayServer(routes, invoker, names=names, sign_in=LocalSignIn(
            SignIns(Accounts(opened.store), secret), open_sign_in=options.open_sign_in,
            proxies=proxies))
        management = LocalManagementClient(
            server.registry, asyncio.get_running_loop(),
            lambda connection: server.gateway.close(connection, TOKEN_EXPIRED,
                                                    TOKEN_EXPIRED_REASON))
        svc = _services(opened, management, timers, bots, secret, lobby, reviews, steps)
        stop = asyncio.Event()
        _stop_on_signals(stop)
        await server.start(sock)
        bots.start()
        lobby.start()
        reviews.start()
        steps.start()
        pending = svc.games.deadlines(svc.rooms.ids)
        armed = timers.start(pending)
        _wake_bots(svc, pending)
        print(banner(Started(
            ws_url=base_url(options.host, port, "ws") + "/", http_url=http_url,
            data_dir=directory, default_data_dir=options.data_dir is None,
            store=opened.where, database_file=opened.database_file,
            armed=armed,
            listening=listening(options.host, port, names.public),
            open_sign_in=options.open_sign_in,
        )), flush=True)
        port_file.publish()

        await stop.wait()
        await server.stop()
        await timers.stop()
        await bots.stop()
        await lobby.stop()
        await reviews.stop()
        await steps.stop()
        invoker.shutdown()
    finally:
        port_file.remove()
        opened.close()


class PortFile:
    """``--port-file``: the port, written beside its path before anything runs (a path
    that cannot be written fails the start) and moved there once the server answers, so
    whoever waits for the file reads a whole number, of a server ready for it."""

    def __init__(self, path: str | None, port: int) -> None:
        self.path = Path(path) if path else None
        self.port = port
        self._draft: Path | None = None

    def draft(self) -> None:
        if self.path is not None:
            self._draft = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            self._draft.write_text(f"{self.port}\n")

    def publish(self) -> None:
        if self.path is not None and self._draft is not None:
            os.replace(self._draft, self.path)
            self._draft = None

    def remove(self) -> None:
        """Stopped: the port no longer answers (a killed server leaves the file)."""
        for path in (self._draft, self.path):
            if path is not None:
                path.unlink(missing_ok=True)
        self.path = self._draft = None


def check_open_sign_in(options: ServeOptions) -> None:
    """Name-only sign-in trusts whoever reaches the port: this machine only. Neither a
    non-loopback ``--host`` nor a ``--public-url`` (a proxy in front of a loopback
    port serves it to whoever reaches the proxy)."""
    if not options.open_sign_in:
        return
    if not is_loopback(options.host):
        raise ValueError(f"--open-sign-in lets anyone who reaches {options.host} play as "
                         "anyone: it needs a loopback --host (127.0.0.1, ::1, localhost)")
    if options.public_url:
        raise ValueError(f"--open-sign-in lets anyone who reaches {options.public_url} play "
                         "as anyone: it is for a one-person machine, without --public-url "
                         "(a proxy in front of the loopback port lets everyone in)")


def _rekey_accounts(opened: OpenStore) -> None:
    """Records from before look-alike names folded alike, moved under their keys: a
    data directory of an earlier version then keeps every name unique (a few reads
    once there is nothing left to move)."""
    moved, left = Accounts(opened.store).rekey()
    if moved:
        log.info("moved %d players' records under their folded names", len(moved))
    for name in left:
        log.warning("the record of %r stays under its earlier key: a look-alike name "
                    "has the new one (both from before); both still sign in", name)


def _forget_connections(opened: OpenStore) -> None:
    """No socket outlives the server: connection items and watches left by a crash are
    stale (the data directory's lock says no other server holds them)."""
    from numbridge.store import keys
    from numbridge.store.sqlite import SqliteStore

    if isinstance(opened.store, SqliteStore):
        opened.store.purge_partitions(keys.CONN_PREFIX)
        opened.store.purge_partitions(keys.WATCH_PREFIX)
        opened.store.purge_partitions(keys.CONNECTION_SLOT_PREFIX)
        # Subscriptions, seeks and the online count belong to connections too.
        for prefix in ("TOPIC#", keys.SEEK, "ONLINE#", keys.LOBBY):
            opened.store.purge_partitions(prefix)
        _forget_watchers(opened)


def _forget_watchers(opened: OpenStore) -> None:
    """The games' counts of watchers, now that no watch is left."""
    from numbridge.club.rooms_config import load_rooms
    from numbridge.store.live import PlayingGames

    PlayingGames(opened.store).forget_watchers(list(load_rooms().ids))


def _wake_bots(svc: Services, pending: list[tuple[str, int, int]]) -> None:
    """A bot turn queued before a restart was in memory: send it again."""
    from numbridge import rules
    from numbridge.service.bots.seats import owing

    for game_id, _, _ in pending:
        row = svc.games.load(game_id)
        if row is None:
            continue
        for turn in owing(rules.GameState.from_dict(row.state)):
            svc.bots.send(turn.game, turn.seat, turn.v)


def _services(opened: OpenStore, management: LocalManagementClient, timers: DeadlineTimers,
              bots: LocalBotTurns, secret: str, lobby: LocalLobbyFeed,
              reviews: LocalReviews, steps: LocalTournamentSteps) -> Services:
    from numbridge.club.rooms_config import load_rooms
    from numbridge.service import context

    # Posts go one at a time: each only queues its frame for the event loop that holds
    # the sockets, so posting from threads at once would add nothing but contention.
    svc = context.Services(store=opened.store, management=management, timers=timers,
                           token_secret=lambda: secret, rooms=load_rooms(), bots=bots,
                           posts_at_once=False, lobby=lobby, reviews=reviews,
                           tournament_steps=steps)
    context.install(svc)
    return svc
