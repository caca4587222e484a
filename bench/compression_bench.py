"""permessage-deflate for this protocol's frames: the CPU it costs against the bytes it saves.

Two parts, on ``numbridge serve`` with the load bench's bot players (docs/load.md):

1. The frames of real games (Blitz, Bridge, Domains; batched events, as the
   clients ask), recorded per connection, then compressed as aiohttp does with
   its default settings (level 1, 15-bit window, the context kept from one
   message to the next, a sync flush per message) and inflated as the server
   inflates the clients' frames: bytes before and after, microseconds per
   frame, by size of frame.
2. The server's own cost: the same load with clients that offer the extension
   (as browsers and the ``websockets`` library do) and clients that do not,
   alternating, on one server: its CPU ms per action and ack p95.

``BENCH_COMPRESSION_SECONDS`` sizes each run (10).
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from bench.load.compare import summary
from bench.load.player import Player
from bench.load.runs import run_games
from bench.load.server import Server
from bench.load.stats import HEADER, Result

BUCKETS = (256, 1024, 4096, 32768)
DEFLATE_TRAILER = b"\x00\x00\xff\xff"
ROUNDS = 3


class RecordingPlayer(Player):
    """A bench player that keeps every text frame of its connection, both ways."""

    recorded: ClassVar[list[tuple[list[str], list[str]]]] = []  # (received, sent) a connection

    async def _read(self) -> None:
        received: list[str] = []
        sent: list[str] = []
        RecordingPlayer.recorded.append((received, sent))
        ws: Any = self._ws
        send = ws.send

        async def recording_send(message: Any, *args: Any, **kwargs: Any) -> None:
            sent.append(message)
            await send(message, *args, **kwargs)

        ws.send = recording_send
        original = ws.recv

        async def recording_recv(*args: Any, **kwargs: Any) -> Any:
            message = await original(*args, **kwargs)
            received.append(message)
            return message

        ws.recv = recording_recv
        await super()._read()


def _deflate_all(messages: Sequence[bytes]) -> tuple[list[int], float]:
    """Each message's compressed size, and the seconds it all took (aiohttp's defaults)."""
    compressor = zlib.compressobj(level=1, wbits=-15)
    sizes = []
    started = time.perf_counter()
    for message in messages:
        out = (compressor.compress(message) + compressor.flush(zlib.Z_SYNC_FLUSH))
        sizes.append(len(out.removesuffix(DEFLATE_TRAILER)))
    return sizes, time.perf_counter() - started


def _inflate_all(messages: Sequence[bytes]) -> float:
    """The seconds the server spends inflating a client's frames (compressed as the
    ``websockets`` client does: default level, context kept)."""
    compressor = zlib.compressobj(wbits=-15)
    compressed = [(compressor.compress(m) + compressor.flush(zlib.Z_SYNC_FLUSH))
                  for m in messages]
    decompressor = zlib.decompressobj(wbits=-15)
    started = time.perf_counter()
    for data in compressed:
        decompressor.decompress(data)
    return time.perf_counter() - started


def _bucket(size: int) -> str:
    low = 0
    for high in BUCKETS:
        if size < high:
            return f"{low}-{high - 1} B"
        low = high
    return f">= {BUCKETS[-1]} B"


def _frames_report(actions: int, server_ms_per_action: float) -> None:
    rows: dict[str, list[float]] = {}
    deflate_s = inflate_s = 0.0
    raw_total = packed_total = frames = sent_frames = 0
    for received, sent in RecordingPlayer.recorded:
        out = [m.encode() if isinstance(m, str) else m for m in received]
        sizes, seconds = min((_deflate_all(out) for _ in range(5)), key=lambda r: r[1])
        deflate_s += seconds
        inbound = [m.encode() if isinstance(m, str) else m for m in sent]
        inflate_s += min(_inflate_all(inbound) for _ in range(5))
        sent_frames += len(inbound)
        for message, packed in zip(out, sizes, strict=True):
            row = rows.setdefault(_bucket(len(message)), [0, 0, 0])
            row[0] += 1
            row[1] += len(message)
            row[2] += packed
            raw_total += len(message)
            packed_total += packed
            frames += 1
    print(f"{'frames to clients':<20}{'frames':>8}{'share':>7}{'bytes':>11}{'deflated':>10}"
          f"{'saved':>7}")
    for name in sorted(rows, key=lambda n: int(n.split("-")[0].split()[-1])):
        count, raw, packed = rows[name]
        print(f"{name:<20}{count:>8.0f}{count / frames:>7.0%}{raw:>11,.0f}{packed:>10,.0f}"
              f"{1 - packed / raw:>7.0%}")
    print(f"{'all':<20}{frames:>8}{1:>7.0%}{raw_total:>11,}{packed_total:>10,}"
          f"{1 - packed_total / raw_total:>7.0%}")
    per_action_us = (deflate_s + inflate_s) * 1e6 / actions
    print(f"  deflate {deflate_s * 1e6 / frames:.1f} us a frame to a client; inflate "
          f"{inflate_s * 1e6 / max(sent_frames, 1):.1f} us a client's frame; "
          f"{frames / actions:.1f} frames out and {sent_frames / actions:.1f} in per action: "
          f"zlib alone {per_action_us:.0f} us per action, against the server's "
          f"{server_ms_per_action * 1000:.0f} us per action in that run; "
          f"{(raw_total - packed_total) / actions:,.0f} bytes saved per action")


@contextmanager
def _clients_offer_deflate(offer: bool) -> Iterator[None]:
    """The players' ``websockets.connect`` with or without the extension in its offer."""
    import websockets

    connect = websockets.connect
    if not offer:
        websockets.connect = functools.partial(connect, compression=None)  # type: ignore[misc]
    try:
        yield
    finally:
        websockets.connect = connect  # type: ignore[misc]


def main(argv: Sequence[str] = ()) -> None:
    seconds = float(os.environ.get("BENCH_COMPRESSION_SECONDS", "10"))
    work = Path(tempfile.mkdtemp(prefix="numbridge-deflate-"))
    server = Server(work / "data")
    server.start()
    try:
        print(f"the frames of real games ({seconds:g} s of 4 games at once per room), "
              "deflated as aiohttp does by default (level 1, 15-bit window, context kept)")
        actions, cpu_s = 0, 0.0
        for room in ("blitz", "bridge", "domains"):
            result = run_games(server, room, 4, 0.0, seconds, room, player=RecordingPlayer)
            actions += result.stats.actions
            cpu_s += result.cpu * result.seconds
        _frames_report(actions, cpu_s * 1000 / actions)
        print()
        print(f"the server, 10 Blitz games at once, clients offering permessage-deflate "
              f"(before) or not (after), {ROUNDS} runs each, alternating "
              f"(load average {os.getloadavg()[0]:.1f})")
        print(HEADER)
        results: dict[bool, list[Result]] = {True: [], False: []}
        for n in range(ROUNDS):
            for offer in ((True, False) if n % 2 == 0 else (False, True)):
                with _clients_offer_deflate(offer):
                    label = f"{'deflate' if offer else 'plain'}, load {os.getloadavg()[0]:.1f}"
                    result = run_games(server, label, 10, 0.0, seconds)
                results[offer].append(result)
                print(result.row(), flush=True)
        print(summary(results[True], results[False]).replace("before", "deflate")
              .replace("after", "plain"))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
