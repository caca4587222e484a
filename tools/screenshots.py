"""The README's screenshots (docs/screenshots/*.png), taken with Playwright against a real
``numbridge serve``: each variant mid-game, a finished Domains board with its deciding
blocks outlined, and the replay of that game from the archive.

Two WebSocket players, ana (blue) and bob (red), play by the seeded script of
``capture_web_fixtures.py`` (which solves the board from the givens, and makes a
mistake now and then); the page is ana's, in headless Debian Chromium.

    PYTHONPATH=layers/numbridge .venv/bin/python tools/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
sys.path.insert(0, str(REPO / "tools"))

from capture_web_fixtures import Match, Recording  # noqa: E402
from e2e_server import LocalServer  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

OUT = REPO / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def decided(view: dict[str, Any]) -> bool:
    """Domains: some block has an owner (its outline shows)."""
    table = view.get("block_table") or {}
    return bool(table.get("blue") or table.get("red"))


def mid_game(server: LocalServer, room: str, seed: int, turns: int,
             options: dict[str, Any], until: Any = None) -> Match:
    """A game `turns` turns in (and on until `until(view)`, and blue to move), left running."""
    ana, bob = Recording("ana", server), Recording("bob", server)
    match = Match(ana, bob, room, seed, options)
    for k in range(turns + 60):
        view = match.view
        ready = k >= turns and (until is None or until(view)) and view["turn"] == "blue"
        if ready or view["status"] != "playing":
            break
        match.move(k)
    assert match.view["status"] == "playing", match.view["result"]
    return match


def finished_early(server: LocalServer, seed: int, options: dict[str, Any]) -> Match:
    """A Domains game that ended early (blocks left undecided), the first of a few seeds."""
    for attempt in range(10):
        ana, bob = Recording("ana", server), Recording("bob", server)
        match = Match(ana, bob, "domains", seed + attempt, options)
        for k in range(400):
            if match.view["status"] != "playing":
                break
            match.move(k)
        table = (match.view["result"] or {}).get("block_table") or {}
        if table.get("undecided"):
            return match
    return match


def open_game(page: Any, game: str) -> None:
    """A game in play from the header's list of them; a finished one from My games, in
    the club (put away while a game in play is shown)."""
    page.wait_for_selector("#in-play button.in-play")
    chip = page.locator(f"#in-play button.in-play[data-game='{game}']")
    if chip.count():
        chip.click()
    else:
        if page.locator("#to-club").is_visible():
            page.click("#to-club")
        row = page.locator(f"#games li.game-row[data-game='{game}'] button.open")
        row.wait_for()
        row.click()
    page.wait_for_selector(f"#game-title[data-game='{game}']")  # its id is not shown
    page.wait_for_selector("#board svg g.cell")


def shot(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    if name != "bridge-mid-game":
        page.mouse.move(1, 1)
    page.wait_for_timeout(300)
    page.locator("#game").screenshot(path=str(path))
    print(path.relative_to(REPO))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LocalServer(Path(tmp) / "data", Path(tmp))
        server.start()
        try:
            games = {
                "bridge": mid_game(server, "bridge", 41, 26, {"blocks": "regular"}),
                "blitz": mid_game(server, "blitz", 42, 12, {"blocks": "irregular"}),
                "domains": mid_game(server, "domains", 43, 44,
                                    {"blocks": "irregular", "clues": 28}, until=decided),
            }
            done = finished_early(server, 50, {"blocks": "regular", "clues": 30})
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.goto(f"{server.url}/?token={server.token('ana')}")
                page.wait_for_selector("#conn[data-state=open]")
                for variant in ("blitz", "domains", "bridge"):
                    open_game(page, games[variant].game)
                    page.wait_for_selector("#status-line.mine")
                    # A tile selected: its candidate cells light up.
                    page.locator("#hand button.tile").first.click()
                    page.wait_for_selector("#board g.cell[data-candidate='1']")
                    if variant == "bridge":
                        # The three zones of a cell under the pointer.
                        page.locator("#board g.cell[data-r='4'][data-c='3']").hover()
                        page.wait_for_selector("#board g.cell.zone-focus")
                    shot(page, f"{variant}-mid-game")
                open_game(page, done.game)
                page.wait_for_selector("#record:not([hidden]) #replay-slider")
                page.wait_for_selector("#board line.outline.won")
                shot(page, "domains-finished")
                # The replay, stopped on a mistake two thirds of the way in.
                last = int(page.locator("#replay-slider").get_attribute("max"))
                rows = page.locator("table.moves tbody tr.mistake")
                steps = [int(rows.nth(k).get_attribute("data-step")) for k in range(rows.count())]
                step = min(steps, key=lambda s: abs(s - 2 * last // 3)) if steps else last // 2
                page.locator(f"table.moves tbody tr[data-step='{step}']").click()
                page.wait_for_selector(f"#record[data-step='{step}']")
                shot(page, "replay")
                browser.close()
        finally:
            server.kill()


if __name__ == "__main__":
    main()
