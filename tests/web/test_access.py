"""The client for a keyboard and a screen reader: axe-core (vendored, injected by
Playwright) finds nothing serious or critical on the sign-in page, the lobby, a game (and
its keys' help), a game watched, and a finished game's replay."""

from __future__ import annotations

from typing import Any

from browser_kit import (
    Page,
    accept_from,
    axe_violations,
    blocking,
    fresh_name,
    open_with_token,
    propose,
)
from e2e_server import LocalServer


def check(player: Page, screen: str, seen: dict[str, list[str]]) -> None:
    violations = axe_violations(player)
    seen[screen] = blocking(violations)
    player.shot(f"axe-{screen}")


def test_axe_finds_nothing_serious_on_any_screen(browser: Any, club: LocalServer) -> None:
    ana = Page(browser, fresh_name("ana"), bypass_csp=True)
    bob = Page(browser, fresh_name("bob"), bypass_csp=True)
    cy = Page(browser, fresh_name("cy"), bypass_csp=True)
    seen: dict[str, list[str]] = {}
    try:
        ana.page.goto(f"{club.url}/")
        ana.page.wait_for_selector("#name-input")
        check(ana, "sign-in", seen)

        open_with_token(ana, club)
        ana.page.wait_for_selector("#rooms li")
        propose(ana)
        check(ana, "lobby", seen)

        open_with_token(bob, club)
        accept_from(bob, ana.name)
        for player in (ana, bob):
            player.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        ana.page.wait_for_selector("#status-line.mine")
        ana.page.locator("#hand button.tile").first.click()
        ana.page.wait_for_selector("#board g.cell[data-candidate='1']")
        check(ana, "game", seen)
        ana.page.keyboard.press("?")
        ana.page.wait_for_selector("#keys-help:not([hidden])")
        check(ana, "keys-help", seen)
        ana.page.keyboard.press("Escape")

        open_with_token(cy, club)
        cy.page.locator("#live li.live-game button.watch").first.click()
        cy.page.wait_for_selector("#board svg g.cell")
        cy.page.wait_for_selector("#game-title .badge.watching")
        check(cy, "watching", seen)

        bob.page.click("#actions button.resign")
        bob.page.click("#actions button.resign.armed")
        ana.page.wait_for_selector("#record:not([hidden]) #replay-slider")
        ana.page.click("#replay-first")
        check(ana, "replay", seen)

        assert seen == {screen: [] for screen in seen}, seen
        assert ana.problems == bob.problems == cy.problems == [], (
            ana.problems + bob.problems + cy.problems)
    finally:
        for player in (ana, bob, cy):
            player.close()
