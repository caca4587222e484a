"""The reference client in a real browser against the real ``numbridge serve``.

Two browser contexts, ana and bob: ana proposes, bob accepts, both see the
board; ana places a tile (a candidate cell: right or a mistake) and both
boards show what happened. A second test drops ana's socket while bob moves
and checks that she catches up by ``sync``. Screenshots: tests/web/artifacts/.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_server import LocalServer

playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[web]'")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
TIMEOUT_MS = 30_000

# Lets a test cut a page's WebSocket and hold off its reconnection (the client
# itself is unchanged: it sees a dropped connection and failing reconnects).
SOCKET_SWITCH = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.__holdSockets = false;
  function Switched(url, protocols) {
    if (window.__holdSockets) throw new Error('held by the test');
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    sockets.push(ws);
    return ws;
  }
  Switched.prototype = Native.prototype;
  for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Switched[key] = Native[key];
  window.WebSocket = Switched;
  window.__dropSockets = () => { for (const ws of sockets.splice(0)) ws.close(); };
})();
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)"
        if os.environ.get("NUMBRIDGE_WEB_TESTS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    local = LocalServer(tmp_path / "data", tmp_path)
    local.start()
    try:
        yield local
    finally:
        local.kill()


class Page:
    """One player's browser context and page, recording what goes wrong in it."""

    def __init__(self, browser: Any, name: str, init_script: str | None = None) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        if init_script:
            self.context.add_init_script(init_script)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # Failed reconnection attempts are expected in the reconnect test.
        if message.type == "error" and "WebSocket connection" not in message.text:
            self.problems.append(f"console: {message.text}")

    def wait_connected(self) -> None:
        self.page.wait_for_selector("#conn[data-state=open]")

    def cell(self, r: int, c: int) -> Any:
        return self.page.locator(f"#board g.cell[data-r='{r}'][data-c='{c}']")

    def shot(self, label: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{label}-{self.name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        self.context.close()


def eventually(check: Callable[[], Any], what: str, timeout_s: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def start_game(server: LocalServer, ana: Page, bob: Page) -> None:
    """Ana (token in the URL) proposes a Bridge game as blue; bob (pasted token) accepts."""
    ana.page.goto(f"{server.url}/?token={server.token('ana')}")
    ana.wait_connected()
    assert "token=" not in ana.page.url  # taken out of the address bar
    assert ana.page.locator("#who").inner_text() == "Playing as ana"
    ana.page.wait_for_selector("#p-room option[value=bridge]", state="attached")
    ana.page.select_option("#p-room", "bridge")
    ana.page.select_option("#p-blocks", "regular")
    ana.page.select_option("#p-colour", "blue")
    ana.page.click("#propose")
    ana.page.wait_for_selector("#proposals li.proposal.mine")

    bob.page.goto(f"{server.url}/")
    bob.page.wait_for_selector("#token-input")
    bob.page.fill("#token-input", server.token("bob"))
    bob.page.click("#token-form button[type=submit]")
    bob.wait_connected()
    bob.page.click("#refresh-proposals")
    accept = bob.page.locator("#proposals li.proposal[data-by=ana] button.accept")
    accept.first.click()

    for player in (ana, bob):
        player.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        assert player.page.locator("#board svg g.cell").count() == 81
    ana.page.wait_for_selector("#status-line.mine")
    assert bob.page.locator("#status-line.mine").count() == 0


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_propose_accept_and_place(browser: Any, server: LocalServer) -> None:
    ana, bob = Page(browser, "ana"), Page(browser, "bob")
    try:
        start_game(server, ana, bob)

        # The board is a rhombus of hexagons: each row half a cell right of the one above.
        first = ana.cell(0, 0).locator("polygon").bounding_box()
        right = ana.cell(0, 1).locator("polygon").bounding_box()
        below = ana.cell(1, 0).locator("polygon").bounding_box()
        (x00, y00), (x01, y01), (x10, y10) = centre(first), centre(right), centre(below)
        pitch = x01 - x00
        assert pitch > 10 and abs(y01 - y00) < 1
        assert abs((x10 - x00) - pitch / 2) < 1.5  # (1,0) is down-right of (0,0)
        assert y10 > y00 + pitch * 0.7
        # Blue's sides (top, bottom) and red's (left, right) are drawn.
        assert ana.page.locator("#board line.side.blue").count() == 2 * 9 * 2
        assert ana.page.locator("#board line.side.red").count() == 2 * 9 * 2 - 2
        assert ana.page.locator("#board g.cell.clue").count() == 30

        tile = ana.page.locator("#hand button.tile").first
        digit = int(tile.get_attribute("data-digit"))
        tile.click()
        candidate = ana.page.locator("#board g.cell[data-candidate='1']").first
        candidate.wait_for()
        r, c = int(candidate.get_attribute("data-r")), int(candidate.get_attribute("data-c"))
        ana.shot("selected")
        candidate.click()

        def outcome(player: Page) -> str | None:
            cell = player.cell(r, c)
            if cell.get_attribute("data-digit") == str(digit):
                assert cell.get_attribute("data-owner") == "b"
                return "placed"
            if player.page.locator("#log li[data-kind=mistake]").count():
                return "mistake"
            return None

        seen = {
            p.name: eventually(lambda p=p: outcome(p), f"{p.name}: the move") for p in (ana, bob)
        }
        assert seen["ana"] == seen["bob"], seen
        if seen["ana"] == "mistake":
            for player in (ana, bob):
                text = player.page.locator("#log li[data-kind=mistake]").first.inner_text()
                assert re.search(rf"mistake — {digit} does not go at \({r},{c}\)", text)
        bob.page.wait_for_selector("#status-line.mine")
        for player in (ana, bob):
            assert re.search(r"v3\b", player.page.locator("#game-title").inner_text())
        ana.shot("placed")
        bob.shot("placed")
        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_reconnect_catches_up_with_sync(browser: Any, server: LocalServer) -> None:
    ana, bob = Page(browser, "ana", SOCKET_SWITCH), Page(browser, "bob")
    try:
        start_game(server, ana, bob)
        # Ana moves: the exchange is always legal at the start (the bag is full).
        ana.page.click("#actions button.exchange")
        bob.page.wait_for_selector("#status-line.mine")

        ana.page.evaluate("window.__holdSockets = true; window.__dropSockets()")
        ana.page.wait_for_selector("#conn[data-state=waiting]")
        bob.page.locator("#hand button.tile").first.click()
        candidate = bob.page.locator("#board g.cell[data-candidate='1']").first
        candidate.wait_for()
        r, c = int(candidate.get_attribute("data-r")), int(candidate.get_attribute("data-c"))
        candidate.click()
        bob.page.wait_for_selector("#status-line:not(.mine)")
        bob_log = bob.page.locator("#log li").last.inner_text()

        ana.page.evaluate("window.__holdSockets = false")
        ana.wait_connected()
        ana.page.wait_for_selector("#status-line.mine")
        # What bob did reached ana through the sync: the same cell, the same last entry.
        assert ana.cell(r, c).get_attribute("data-digit") == bob.cell(r, c).get_attribute(
            "data-digit"
        )
        assert ana.page.locator("#log li").last.inner_text() == bob_log.replace(
            "bob (you)", "bob"
        )
        assert ana.page.locator("#game-title").inner_text().split()[-1] == (
            bob.page.locator("#game-title").inner_text().split()[-1]
        )
        ana.shot("reconnected")
        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()
