"""``numbridge serve``: the whole backend on one machine.

Start-up: data dir and token secret → port bound → DynamoDB/SQS (embedded moto
unless endpoints are given) → tables and timer queue → snapshot restored →
handler environment → handlers imported → gateway listening → timers and
snapshots running. Shutdown (Ctrl-C / SIGTERM): sockets closed with 1001 and
their ``$disconnect`` handlers run, timers stopped, a last snapshot written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import warnings
from dataclasses import dataclass
from functools import partial

from numbridge.local import backend, environment
from numbridge.local.banner import Started, banner
from numbridge.local.datadir import SNAPSHOT_FILE, data_dir, token_secret
from numbridge.local.functions import (
    Invoker,
    repo_root,
    route_functions,
    template_functions,
    template_routes,
)
from numbridge.local.http_server import GatewayServer, base_url, bind
from numbridge.local.quiesce import Quiesce
from numbridge.local.snapshots import Snapshots
from numbridge.local.timers import SWEEP_INTERVAL_S, Timers

log = logging.getLogger("numbridge.local")

TIMEOUT_FUNCTION = "timeout"
SNAPSHOT_INTERVAL_S = 2.0


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8080
    data_dir: str | None = None
    dynamodb_endpoint: str | None = None
    snapshot_interval_s: float = SNAPSHOT_INTERVAL_S
    sweep_interval_s: float = SWEEP_INTERVAL_S


def serve(options: ServeOptions) -> int:
    """Run until Ctrl-C or SIGTERM; the exit status."""
    from numbridge.store.schema import TemplateError

    _configure_logging()
    try:
        asyncio.run(_serve(options))
    except (OSError, TemplateError) as exc:  # a clear message; anything else: its traceback
        print(f"numbridge serve: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("numbridge serve: interrupted; changes since the last snapshot are lost",
              file=sys.stderr)
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


async def _snapshot_every(
    snapshots: Snapshots, quiesce: Quiesce, interval_s: float, stop: asyncio.Event
) -> None:
    """Save every ``interval_s`` (when changed), between handlers, until ``stop``."""

    def save() -> None:
        with quiesce.alone():
            snapshots.save()

    loop = asyncio.get_running_loop()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval_s)
        try:
            await loop.run_in_executor(None, save)
        except Exception:
            log.exception("snapshot failed")


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()

    def request_stop(signum: int) -> None:
        if stop.is_set():
            return
        print(f"\n{signal.Signals(signum).name}: stopping (saving state)...", flush=True)
        stop.set()
        # A second Ctrl-C quits at once.
        loop.remove_signal_handler(signal.SIGINT)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, request_stop, signum)


async def _serve(options: ServeOptions) -> None:
    root = repo_root()
    if not (root / "template.yaml").is_file() or not (root / "functions").is_dir():
        raise FileNotFoundError(
            f"no template.yaml and functions/ in {root}: run from a Numbridge checkout "
            "or set NUMBRIDGE_ROOT to one"
        )
    directory = data_dir(options.data_dir)
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

    endpoints = backend.start_endpoints(options.dynamodb_endpoint)
    try:
        creds = backend.credentials(endpoints)
        dynamodb = backend.client("dynamodb", endpoints.dynamodb, creds)
        sqs = backend.client("sqs", endpoints.sqs, creds)
        tables = backend.create_tables(dynamodb, root / "template.yaml")
        queue_url = backend.create_queue(sqs)
        snapshots = (
            Snapshots(dynamodb, tables.values(), directory / SNAPSHOT_FILE)
            if endpoints.dynamodb_embedded
            else None
        )
        restored = snapshots.restore() if snapshots else {}

        environment.apply(
            environment.handler_environment(
                tables=tables,
                queue_url=queue_url,
                management_endpoint=http_url,
                token_secret=secret,
                dynamodb_endpoint=endpoints.dynamodb,
                sqs_endpoint=endpoints.sqs,
                credentials=creds,
            )
        )
        functions = template_functions(root)
        routes = route_functions(template_routes(root), functions)

        invoker = Invoker()
        server = GatewayServer(routes, invoker)
        timers = Timers(
            sqs,
            queue_url,
            partial(invoker.invoke, functions[TIMEOUT_FUNCTION]),
            sweep_interval_s=options.sweep_interval_s,
        )
        stop = asyncio.Event()
        _stop_on_signals(stop)
        await server.start(sock)
        timers.start()
        saver = (
            asyncio.create_task(
                _snapshot_every(snapshots, invoker.quiesce, options.snapshot_interval_s, stop)
            )
            if snapshots
            else None
        )
        print(
            banner(
                Started(
                    ws_url=base_url(options.host, port, "ws") + "/",
                    http_url=http_url,
                    data_dir=directory,
                    default_data_dir=options.data_dir is None,
                    dynamodb=endpoints.dynamodb,
                    sqs=endpoints.sqs,
                    embedded=frozenset(endpoints.embedded),
                    tables=tables,
                    restored=restored,
                    persisted=snapshots is not None,
                )
            ),
            flush=True,
        )

        await stop.wait()
        await server.stop()
        await timers.stop()
        if saver is not None:
            await saver
        invoker.shutdown()
        if snapshots is not None:
            snapshots.save()
            log.info("state saved to %s", snapshots.path)
    finally:
        endpoints.stop()
