"""``numbridge serve --port 0``: the system picks a free port, the server says which.

The e2e helpers used to pick a port themselves (bind port 0, close, pass it on), and the
server bound it half a second later: any outgoing connection could be given that port
in between, and the test failed to start. Now the server binds port 0 itself and names
the port in its banner and in ``--port-file``; a restart binds that port again.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from pathlib import Path

import pytest
from e2e_server import CANNOT_LISTEN, LocalServer, ServerFailed


def answered(server: LocalServer) -> bool:
    """A player connects on the port and gets an answer from this server."""
    with server.player("ana") as ana:
        rooms = ana.request("rooms")
        return rooms["type"] == "rooms" and bool(rooms["rooms"])


def banner_port(log: str) -> int:
    found = re.search(r"^  Listening +127\.0\.0\.1:(\d+)$", log, re.MULTILINE)
    assert found, log
    return int(found.group(1))


def test_port_0_binds_a_free_port_and_names_it_in_the_banner_and_the_port_file(
        tmp_path: Path) -> None:
    """Catches a server that reports the port it was asked for (0) instead of the one bound,
    a port file written before the server answers, or one left behind by a clean stop."""
    server = LocalServer(tmp_path / "data", tmp_path)
    server.start()
    try:
        assert server.port_path is not None
        written = server.port_path.read_text()
        assert written == f"{server.port}\n" and server.port != 0
        log = server.log()
        assert banner_port(log) == server.port
        assert f"Browser       http://127.0.0.1:{server.port}/ " in log
        assert answered(server)
    finally:
        assert server.stop() == 0
    assert not server.port_path.exists()  # stopped: the port no longer answers


def test_a_killed_server_comes_back_on_its_port(tmp_path: Path) -> None:
    """Clients reconnect to the same URL: a restart after SIGKILL (the durability tests')
    must bind the port of the first start, not ask for a new one."""
    server = LocalServer(tmp_path / "data", tmp_path)
    server.start()
    port = server.port
    try:
        server.kill()
        server.start()
        assert server.port == port and banner_port(server.log()) == port
        assert answered(server)
    finally:
        server.kill()


def test_a_restart_waits_for_its_port_while_another_process_holds_it(tmp_path: Path) -> None:
    """While the server is down another process may be given its port (an outgoing
    connection's, say): the restart is tried again until the port is free, instead of
    failing the test."""
    server = LocalServer(tmp_path / "data", tmp_path)
    server.start()
    port = server.port
    server.kill()
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the old one's TIME_WAIT
    holder.bind(("127.0.0.1", port))
    holder.listen()
    refused = threading.Event()

    def release_once_refused() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            logs = [p.read_text(errors="replace") for p in tmp_path.glob("serve-*.log")]
            if any(CANNOT_LISTEN in log for log in logs):
                refused.set()
                break
            time.sleep(0.1)
        holder.close()

    releaser = threading.Thread(target=release_once_refused, daemon=True)
    releaser.start()
    try:
        server.start()
        assert refused.is_set()  # the port really was held at the first try
        assert server.port == port and banner_port(server.log()) == port
        assert answered(server)
    finally:
        server.kill()
        releaser.join()


def test_a_port_file_that_cannot_be_written_fails_the_start(tmp_path: Path) -> None:
    """A script waiting for the file would wait for ever: the server says why and exits."""
    missing = tmp_path / "no such folder" / "port"
    server = LocalServer(tmp_path / "data", tmp_path, args=["--port-file", str(missing)])
    with pytest.raises(ServerFailed) as failed:
        server.start()
    assert "numbridge serve:" in str(failed.value) and "no such folder" in str(failed.value)
