"""What the browser tests share: Debian's Chromium under Playwright, one player's page,
phones, waiting, and the ways into a game.

A module's tests share one ``numbridge serve`` and one browser (conftest.py's module
fixtures): a test makes its players with fresh names, so games and proposals of the
module's other tests never stand in its way, and each page load counts (the browser
tests run in ``make test``).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_server import LocalServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
# The README's screenshots are taken anew only when asked (NUMBRIDGE_README_SHOTS=1): a
# plain run leaves the checkout as it was and keeps its screenshots with the artifacts.
SCREENSHOTS = (Path(__file__).resolve().parents[2] / "docs" / "screenshots"
               if os.environ.get("NUMBRIDGE_README_SHOTS") == "1" else ARTIFACTS)
TIMEOUT_MS = 30_000
DESKTOP = {"width": 1400, "height": 1000}
# The phones the client is checked on (CSS pixels), portrait; landscape is the same turned.
PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

# Console errors a test that cuts the server off (or the socket) makes on purpose.
EXPECTED = ("WebSocket connection", "ERR_CONNECTION_REFUSED", "Failed to load resource")

_names = itertools.count(1)


# A page script: every frame the page sends, parsed, in window.__sent (one that is not
# JSON as {"action": "?"}). Read back with :func:`sent`.
RECORD_SENT = """
(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (e) { window.__sent.push({ action: '?' }); }
    return send.call(this, data);
  };
})();
"""


def sent(player: Page) -> list[dict[str, Any]]:
    """The frames ``player``'s page has sent so far (its script included RECORD_SENT)."""
    return list(player.page.evaluate("window.__sent"))


def fresh_name(stem: str) -> str:
    """A player name no other test of this server has used."""
    return f"{stem}{next(_names)}"


def landscape(size: dict[str, int]) -> dict[str, int]:
    return {"width": size["height"], "height": size["width"]}


class Page:
    """One player's browser context and page, recording what goes wrong in it.

    ``phone``: a viewport in CSS pixels with touch and a phone's pixel ratio (taps, no
    hover); else a desktop window with a mouse. ``profile``: a folder for a profile of its
    own (a browser of its own too) instead of a fresh private context: Chromium installs
    nothing from a private window."""

    def __init__(self, browser: Any, name: str, init_script: str | None = None,
                 phone: dict[str, int] | None = None, profile: Path | None = None,
                 **options: Any) -> None:
        self.name = name
        # English unless a test asks for another language: the tests read the English words
        # (test_languages.py reads the others).
        options = {"locale": "en-US", **options}
        if phone:
            options = {"viewport": phone, "has_touch": True, "is_mobile": True,
                       "device_scale_factor": 2, **options}
        else:
            options = {"viewport": DESKTOP, **options}
        self.touch = bool(options.get("has_touch"))
        if profile is None:
            self.context = browser.new_context(**options)
        else:
            self.context = browser.browser_type.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **options)
        if init_script:
            self.context.add_init_script(init_script)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # Failed (re)connection attempts are expected where a test cuts the server off.
        if message.type == "error" and not any(known in message.text for known in EXPECTED):
            self.problems.append(f"console: {message.text}")

    def wait_connected(self) -> None:
        self.page.wait_for_selector("#conn[data-state=open]")

    def cell(self, r: int, c: int) -> Any:
        return self.page.locator(f"#board g.cell[data-r='{r}'][data-c='{c}']")

    def shot(self, label: str, full_page: bool = True) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{label}-{self.name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        self.context.close()


def eventually(check: Callable[[], Any], what: str, timeout_s: float = 20.0,
               shown: Page | None = None) -> Any:
    """``check``'s first true result; on a timeout, what ``shown``'s page shows then."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            if shown is not None:
                shown.shot("stuck")
                raise AssertionError(f"timed out waiting for {what}: {what_it_shows(shown)}")
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def refreshed_until(player: Page, button: str, check: Callable[[], Any], what: str,
                    timeout_s: float = 30.0, every_s: float = 1.5) -> Any:
    """`check` true, pressing the list's Refresh now and then: My games is not pushed
    (the club's other lists are, while it is shown), and the page never asks on a timer."""
    last = 0.0

    def refreshing() -> Any:
        nonlocal last
        if check():
            return True
        if time.monotonic() - last > every_s:
            player.page.click(button)
            last = time.monotonic()
        return False

    return eventually(refreshing, what, timeout_s)


def box_of(locator: Any) -> dict[str, float]:
    """An element's box on screen. The page draws the board anew whenever its model
    changes (a list's answer, a presence): the cell found may be gone by the time it is
    measured, and its successor is measured then."""
    return dict(eventually(locator.bounding_box, "the element's box", timeout_s=5))


def open_with_token(player: Page, server: LocalServer) -> None:
    """The page, signed in by a token in the address (no sign-in form to fill)."""
    player.page.goto(f"{server.url}/?token={server.token(player.name)}")
    player.wait_connected()


def propose(player: Page, room: str = "bridge", colour: str = "blue") -> None:
    page = player.page
    page.wait_for_selector(f"#p-room option[value={room}]", state="attached")
    page.select_option("#p-room", room)
    page.select_option("#p-blocks", "regular")
    page.select_option("#p-colour", colour)
    page.click("#propose")
    page.wait_for_selector("#proposals li.proposal.mine")


def accept_from(player: Page, proposer: str) -> None:
    # The club's proposals are pushed to it: the proposal comes by itself.
    player.page.locator(f"#proposals li.proposal[data-by='{proposer}'] button.accept").first.click()


def play_the_bot(player: Page, room: str = "blitz", colour: str = "blue",
                 level: str = "easy") -> None:
    page = player.page
    page.wait_for_selector(f"#b-room option[value={room}]", state="attached")
    page.select_option("#b-level", level)
    page.select_option("#b-room", room)
    page.select_option("#b-blocks", "regular")
    page.select_option("#b-colour", colour)
    page.click("#play-bot")
    page.wait_for_selector("#board svg g.cell", timeout=60_000)


def board_now(player: Page) -> list[dict[str, str]]:
    """Every cell as the page shows it: index, digit, block, owner, clue."""
    return list(player.page.eval_on_selector_all(
        "#board g.cell",
        "cells => cells.map(g => ({index: g.dataset.index, digit: g.dataset.digit,"
        " block: g.dataset.block, owner: g.dataset.owner, clue: g.dataset.clue}))",
    ))


def version(player: Page) -> int:
    """The shown game's version: kept in the title's data for support, never shown."""
    return int(player.page.locator("#game-title").get_attribute("data-v") or "-1")


def shown_game_id(player: Page) -> str:
    """The shown game's id: kept in the title's data for support, never shown."""
    return str(player.page.locator("#game-title").get_attribute("data-game") or "")


def shown_past(player: Page, before: int, what: str) -> None:
    """Until the page shows a version after `before`: a move is shown, and the status
    line turned, only when the server's event for it arrives (not when it is sent)."""
    eventually(lambda: version(player) > before, what, shown=player)


def what_it_shows(player: Page) -> str:
    """What a stuck test's page says: version, status, toasts, hand, the log's last lines,
    and what went wrong in it."""
    page = player.page
    hand = page.locator("#hand button.tile").evaluate_all("ts => ts.map(t => t.dataset.digit)")
    return (f"v{version(player)}; status {page.locator('#status-line').inner_text()!r}; "
            f"toasts {page.locator('#toasts .toast').all_inner_texts()}; hand {hand}; "
            f"log {page.locator('#log li').all_inner_texts()[-4:]}; problems {player.problems}; "
            f"focus {page.evaluate(_FOCUS)}; actions {page.evaluate(_ACTIONS)}")


_FOCUS = "() => document.activeElement && document.activeElement.outerHTML.slice(0, 120)"
_ACTIONS = """() => [...document.querySelectorAll('#actions button')]
  .map((b) => `${b.className}${b.disabled ? ' (disabled)' : ''}`)"""


def my_move_or_end(player: Page) -> str | None:
    if player.page.locator("#result:not([hidden])").count():
        return "end"
    if player.page.locator("#status-line.mine").count():
        return "mine"
    return None


# axe-core, vendored (vendor/axe-core/README.md): checked before it runs in a page.
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "b511cd9dec01c76f4b2ad1723b66b6db37d4c2eb4ed199076e1829d9ee7b75e3"
# What stops a player: axe's two worst impacts (moderate and minor are reported, not failed).
BLOCKING = ("serious", "critical")
AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
  }));
}"""


def axe_violations(player: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (its context needs ``bypass_csp``:
    the page's policy lets no script in but its own)."""
    source = AXE.read_bytes()
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, "vendored axe.min.js changed"
    if not player.page.evaluate("() => typeof window.axe === 'object'"):
        player.page.add_script_tag(content=source.decode("utf-8"))
    return list(player.page.evaluate(AXE_RUN))


def blocking(violations: list[dict[str, Any]]) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
            for v in violations if v["impact"] in BLOCKING]


def press(player: Page, locator: Any) -> None:
    """A finger's tap on a phone, a mouse's click elsewhere."""
    if player.touch:
        locator.tap()
    else:
        locator.click()


def play_one_turn(player: Page, solution: str, wrong: bool) -> str:
    """One turn as a player would make it (taps on a phone, clicks elsewhere): a tile onto
    its cell (solved from the givens shown) or, with `wrong`, onto a cell where it does not
    go; with no tile that goes anywhere, a free clue taken (paid with a tile when the hand
    has any), else an exchange, else (an empty bag) a tile where it does not go."""
    page = player.page
    cells = board_now(player)
    size = round(len(cells) ** 0.5)
    tiles = page.locator("#hand button.tile")
    hand = [int(tiles.nth(k).get_attribute("data-digit")) for k in range(tiles.count())]
    empty = [int(c["index"]) for c in cells if c["digit"] == "" and c["clue"] == "0"]
    choices = [(k, i) for k, d in enumerate(hand) for i in empty
               if (solution[i] != str(d)) == wrong]

    def select(k: int) -> None:
        if "selected" not in (tiles.nth(k).get_attribute("class") or ""):
            press(player, tiles.nth(k))
            eventually(lambda: "selected" in (tiles.nth(k).get_attribute("class") or ""),
                       "the tile selected")

    def insist() -> None:
        # A digit the board already contradicts is asked about first (highlighting on):
        # the player here means it.
        warning = page.locator("#place-warning")
        if warning.is_visible():
            press(player, page.locator("#place-warning-place"))

    if choices:
        k, index = choices[0]
        select(k)
        press(player, player.cell(index // size, index % size))
        insist()
        return "mistake" if wrong else "place"
    free = [int(c["index"]) for c in cells if c["clue"] == "1" and c["owner"] == ""]
    if free:
        if hand:
            select(0)
        press(player, player.cell(free[0] // size, free[0] % size))
        press(player, page.locator("#actions button.take"))
        return "take"
    exchange = page.locator("#actions button.exchange")
    if hand and empty and not exchange.is_enabled():
        # An empty bag, no free clue, no tile that goes anywhere: a mistake is what is left.
        select(0)
        press(player, player.cell(empty[0] // size, empty[0] % size))
        insist()
        return "forced mistake"
    press(player, exchange)
    return "exchange"
