"""The real ``numbridge serve`` in a subprocess, with its CPU and memory from /proc.

``checkout`` runs another checkout of the project instead of this one (its own
``.venv``), for a before/after comparison on the same machine."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, data_dir: Path, args: Sequence[str] = (),
                 checkout: Path | None = None) -> None:
        self.data_dir = data_dir
        self.checkout = checkout
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        self.args = list(args)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"serve-{self.port}.log"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_ENDPOINT")}
        python = sys.executable
        if self.checkout is not None:
            python = str(self.checkout / ".venv" / "bin" / "python")
            if not Path(python).is_file():
                raise FileNotFoundError(f"no {python}: run `make setup` in {self.checkout}")
            env["NUMBRIDGE_ROOT"] = str(self.checkout)
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [python, "-m", "numbridge", "serve", "--port", str(self.port),
                 "--data-dir", str(self.data_dir), *self.args],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                cwd=self.checkout)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def cpu_s(self) -> float:
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def token(self, name: str) -> str:
        from numbridge.auth import issue_token
        from numbridge.local.data.datadir import token_secret

        return issue_token(name, token_secret(self.data_dir))
