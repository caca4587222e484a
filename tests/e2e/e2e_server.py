"""``numbridge serve`` as a subprocess, and WebSocket players that talk to it.

``LocalServer`` starts the real command with its own data directory on a port the
server binds itself (``--port 0``, read back from ``--port-file``: a port chosen here
and bound by the server later could be taken in between by any outgoing connection),
waits until it answers, stops it with SIGTERM (as Ctrl-C would) and restarts it on
the same port and data. ``Player`` is one client connection
that sends requests and sorts the frames it receives into answers (by request
``id``) and pushed frames.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import boto3
from numbridge.auth import issue_token
from numbridge.local.data.datadir import token_secret
from numbridge.local.data.stores import TABLE_NAME
from websockets.sync.client import ClientConnection, connect

Frame = dict[str, Any]

COMMAND = [sys.executable, "-m", "numbridge", "serve"]
START_TIMEOUT_S = 60.0
# A restart binds the port it had (clients reconnect to the same URL). While the server
# was down, another process's outgoing connection may have been given that port: the
# server then cannot bind it and exits, and is started again until the port is free (a
# connection's TIME_WAIT on it lasts 60 s).
REBIND_TIMEOUT_S = 90.0
CANNOT_LISTEN = "cannot listen on"  # what numbridge serve says when the port is held
STOP_TIMEOUT_S = 30.0
# Variables that would point the server away from its embedded moto server.
ISOLATE = ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS", "AWS_PROFILE")


def free_port() -> int:
    """A port nothing listens on now. Not for a server of ours (it binds ``--port 0``):
    between this probe's close and a later bind anyone may take it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerFailed(RuntimeError):
    pass


# The bot's pause before it moves (800 ms by default, so that a person sees the turn
# change): a test that plays it would spend most of its time waiting for it.
QUICK_BOT = {"BOT_DELAY_MS": "100"}


def with_rooms(root: Path, rooms_yaml: str, env: Mapping[str, str] | None = None
               ) -> LocalServer:
    """A server (not started) keeping its data and log under ``root``, whose rooms are
    ``rooms_yaml``'s (written to ``root``/rooms.yaml, ``ROOMS_CONFIG``)."""
    rooms = root / "rooms.yaml"
    rooms.write_text(rooms_yaml)
    return LocalServer(root / "data", root, env={**(env or {}), "ROOMS_CONFIG": str(rooms)})


@contextmanager
def serving(root: Path, rooms_yaml: str | None = None) -> Iterator[LocalServer]:
    """A started ``numbridge serve`` keeping its data and log under ``root`` (with
    ``rooms_yaml``'s rooms when given), killed after; its bot moves after QUICK_BOT's
    pause."""
    local = (LocalServer(root / "data", root, env=QUICK_BOT) if rooms_yaml is None
             else with_rooms(root, rooms_yaml, QUICK_BOT))
    local.start()
    try:
        yield local
    finally:
        local.kill()


class LocalServer:
    """One ``numbridge serve`` process at a time, on ``port``, keeping ``data_dir``."""

    def __init__(
        self,
        data_dir: Path,
        log_dir: Path,
        port: int | None = None,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``args``: more ``serve`` options; ``env``: more environment (e.g. ``ROOMS_CONFIG``)."""
        self.data_dir = data_dir
        self.args = list(args)
        self.env = dict(env or {})
        self._port = port  # None: the server picks one at its first start
        self._log_dir = log_dir
        self._runs = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None
        self.port_path: Path | None = None  # where the last start was told to write its port

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("not started yet: the server picks its port when it binds")
        return self._port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    # ---------------------------------------------------------------- process

    def start(self) -> None:
        """Start on a port of the server's choosing, or, once it has one, on that port
        again (started anew while another process holds it, for REBIND_TIMEOUT_S)."""
        if self._process is not None:
            raise RuntimeError("already running")
        deadline = time.monotonic() + REBIND_TIMEOUT_S
        while True:
            self._launch()
            try:
                self._wait_until_ready()
                return
            except ServerFailed as failed:
                held = self._port is not None and CANNOT_LISTEN in str(failed)
                if not held or time.monotonic() > deadline:
                    raise
            time.sleep(0.5)

    def _launch(self) -> None:
        env = {key: value for key, value in os.environ.items() if key not in ISOLATE}
        env.update(self.env, PYTHONUNBUFFERED="1")
        run = next(self._runs)
        self.log_path = self._log_dir / f"serve-{run}.log"
        self.port_path = self._log_dir / f"serve-{run}.port"
        port = ["--port", str(self._port)] if self._port is not None else [
            "--port", "0", "--port-file", str(self.port_path)]
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(
                [*COMMAND, *port, "--data-dir", str(self.data_dir), *self.args],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
            )

    def _check_running(self) -> None:
        assert self._process is not None
        if self._process.poll() is not None:
            code = self._process.returncode
            self._process = None
            raise ServerFailed(f"numbridge serve exited with {code}:\n{self.log()}")

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            self._check_running()
            if self._port is None:
                assert self.port_path is not None
                if not self.port_path.exists():  # moved into place whole, once it answers
                    time.sleep(0.1)
                    continue
                self._port = int(self.port_path.read_text())
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).close()
                return
            except urllib.error.HTTPError:
                return  # 426 Upgrade Required: the gateway answers
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise ServerFailed(f"numbridge serve not ready after {START_TIMEOUT_S}s:\n{self.log()}")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop as Ctrl-C (SIGINT) or a service manager (SIGTERM) would; the exit code."""
        process, self._process = self._process, None
        if process is None:
            return 0
        process.send_signal(sig)
        try:
            return process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise ServerFailed(f"numbridge serve ignored {sig}:\n{self.log()}") from None

    def kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()

    def restart(self) -> None:
        """Stop gracefully and start again on the same port and data directory."""
        code = self.stop()
        if code != 0:
            raise ServerFailed(f"numbridge serve exited with {code} on SIGTERM:\n{self.log()}")
        self.start()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def log(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")[-6000:]

    def stored_keys(self) -> list[tuple[str, str]]:
        """(pk, sk) of every item in the server's database, whichever store it uses."""
        if "--dynamodb-endpoint" in self.args:
            endpoint = self.args[self.args.index("--dynamodb-endpoint") + 1]
            client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                                  aws_access_key_id="test", aws_secret_access_key="test")
            return [(i["pk"]["S"], i["sk"]["S"]) for page in client.get_paginator("scan")
                    .paginate(TableName="numbridge-games") for i in page["Items"]]
        with sqlite3.connect(self.data_dir / "numbridge.db") as db:
            return [(str(pk), str(sk)) for pk, sk in db.execute("SELECT pk, sk FROM items")]

    # ---------------------------------------------------------------- clients

    def store_args(self) -> list[str]:
        """The store arguments of a host command (``numbridge account``) for this server."""
        if "--dynamodb-endpoint" in self.args:
            endpoint = self.args[self.args.index("--dynamodb-endpoint") + 1]
            return ["--store", "dynamodb", "--table", TABLE_NAME, "--dynamodb-endpoint",
                    endpoint]
        return ["--data-dir", str(self.data_dir)]

    def post(self, path: str, payload: object) -> tuple[int, dict[str, Any]]:
        """A JSON POST (``/local/token``, ``/local/password``): status and answer."""
        request = urllib.request.Request(self.url + path, data=json.dumps(payload).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def sign_in(self, name: str, password: str) -> tuple[int, dict[str, Any]]:
        return self.post("/local/token", {"name": name, "password": password})

    def token(self, name: str) -> str:
        """A token for player ``name``, signed with this server's secret."""
        return issue_token(name, token_secret(self.data_dir))

    def player(self, name: str, batch: bool = False) -> Player:
        """A connected player (use as a context manager); ``batch``: asking for batched
        events."""
        url = f"{self.ws_url}?token={self.token(name)}" + ("&batch=1" if batch else "")
        return Player(name, connect(url, open_timeout=10, legacy=True))


class Player:
    """One connection of one player: requests and their answers, pushed frames apart."""

    _ids = itertools.count(1)

    def __init__(self, name: str, ws: ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.pushed: deque[Frame] = deque()
        self._answers: dict[str, Frame] = {}

    def __enter__(self) -> Player:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.ws.close()

    def send(self, action: str, **fields: Any) -> str:
        """Send a request; its id."""
        request_id = fields.pop("id", None) or f"{self.name}-{next(self._ids)}"
        self.ws.send(json.dumps({"action": action, "id": request_id, **fields}))
        return str(request_id)

    def request(self, action: str, timeout: float = 30.0, **fields: Any) -> Frame:
        """Send a request and wait for the frame that answers it."""
        return self.answer(self.send(action, **fields), timeout)

    def answer(self, request_id: str, timeout: float = 30.0) -> Frame:
        deadline = time.monotonic() + timeout
        while request_id not in self._answers:
            self._receive(deadline)
        return self._answers.pop(request_id)

    def expect(self, match: Callable[[Frame], bool], timeout: float = 30.0) -> Frame:
        """The first pushed frame (received or to come) that ``match``es."""
        deadline = time.monotonic() + timeout
        while True:
            for frame in list(self.pushed):
                if match(frame):
                    self.pushed.remove(frame)
                    return frame
            self._receive(deadline)

    def _receive(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{self.name}: nothing matched; pushed: {list(self.pushed)}")
        frame = json.loads(self.ws.recv(timeout=remaining))
        if isinstance(frame, dict) and frame.get("id") is not None:
            self._answers[str(frame["id"])] = frame
        else:
            self.pushed.append(frame)
