"""The client on a phone: 390x844 and 360x740 CSS pixels, portrait and landscape, touch
only (``has_touch``: taps, no hover). Nothing scrolls sideways on any screen; buttons are
at least 44 px high; each way a game opens (dealt by the bot, a proposal accepted, a game
watched, a finished one replayed), in portrait and in landscape, brings its board and
clocks into view; on a 390 px portrait screen a cell of the 9x9 board is at least 32 px
across (the board is drawn turned, docs/client.md); a tap on a tile, then on a cell,
plays; and a whole game against the bot is played by taps alone, at both sizes."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import (
    PHONES,
    SCREENSHOTS,
    Page,
    accept_from,
    board_now,
    eventually,
    fresh_name,
    landscape,
    my_move_or_end,
    open_with_token,
    play_one_turn,
    play_the_bot,
    press,
    propose,
    refreshed_until,
    shown_past,
    version,
)
from client import solve
from e2e_server import LocalServer

MIN_CELL_PX = 32  # a fingertip's target, on a 390 px portrait screen
MIN_BUTTON_PX = 44

WIDE = """() => document.documentElement.scrollWidth - window.innerWidth"""
SMALL_BUTTONS = f"""() => [...document.querySelectorAll('button')]
  .filter((b) => b.offsetParent !== null)
  .filter((b) => b.getBoundingClientRect().height < {MIN_BUTTON_PX} - 0.5)
  .map((b) => `${{b.id || b.className}} "${{b.textContent.trim()}}"`
    + ` ${{b.getBoundingClientRect().height.toFixed(1)}} px`)"""


def fits_across(player: Page, where: str, problems: list[str]) -> None:
    """No sideways scroll, upright and on its side; buttons big enough to press."""
    held = player.page.viewport_size
    for size in (held, landscape(held)):
        turn = "portrait" if size["height"] > size["width"] else "landscape"
        player.page.set_viewport_size(size)
        player.page.wait_for_timeout(100)  # the board is drawn anew when the screen turns
        extra = player.page.evaluate(WIDE)
        if extra > 0:
            problems.append(f"{where}, {turn}: {extra} px wider than the screen")
        small = player.page.evaluate(SMALL_BUTTONS)
        if small:
            problems.append(f"{where}, {turn}: buttons under {MIN_BUTTON_PX} px: {small}")
    player.page.set_viewport_size(held)
    player.page.wait_for_timeout(100)


def in_view(player: Page, selector: str) -> bool:
    box = player.page.locator(selector).bounding_box()
    height = player.page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


def game_in_view(player: Page, way: str, problems: list[str]) -> None:
    """The board and the clocks in view once the game is drawn (the page may still be
    laying out what came with it, a record, a title a line longer: a moment to settle)."""
    player.page.wait_for_selector("#board svg g.cell")
    parts = ("#board svg", "#players")
    try:
        eventually(lambda: all(in_view(player, part) for part in parts), way, timeout_s=3)
    except AssertionError:
        for part in parts:
            if not in_view(player, part):
                box = player.page.locator(part).bounding_box()
                problems.append(f"{way}: {part} not in view ({box})")


def cell_across(player: Page) -> float:
    """The narrowest cell's width on screen, in CSS px."""
    widths = player.page.eval_on_selector_all(
        "#board g.cell polygon", "ps => ps.map((p) => p.getBoundingClientRect().width)")
    return float(min(widths))


ORIENTATIONS = ("portrait", "landscape")


def held(phone: dict[str, int], orientation: str) -> dict[str, int]:
    return phone if orientation == "portrait" else landscape(phone)


def shown_id(player: Page) -> str:
    title = player.page.locator("#game-title .gid")
    return str(title.inner_text().split()[0]) if title.count() else ""


def opened(player: Page, before: str, way: str) -> None:
    """A game other than `before` shown."""
    eventually(lambda: shown_id(player) not in ("", before), way)


@pytest.mark.parametrize("size", sorted(PHONES))
def test_every_screen_fits_and_every_game_opens_in_view(browser: Any, club: LocalServer,
                                                         size: str) -> None:
    """Each way a game opens, upright and on its side: the phone is turned before the game
    is opened, so the page scrolls for the screen it has then."""
    phone = PHONES[size]
    pat = Page(browser, fresh_name("pat"), phone=phone)
    dee = Page(browser, fresh_name("dee"))  # a desktop player to play and to watch
    problems: list[str] = []
    try:
        page = pat.page
        page.goto(f"{club.url}/")
        page.wait_for_selector("#name-input")
        fits_across(pat, "sign-in", problems)
        open_with_token(pat, club)
        page.wait_for_selector("#rooms li")
        fits_across(pat, "lobby", problems)

        # Dealt: the bot's game opens above the form that asked for it.
        for orientation in ORIENTATIONS:
            page.set_viewport_size(held(phone, orientation))
            before = shown_id(pat)
            play_the_bot(pat, room="bridge")
            opened(pat, before, f"dealt ({orientation})")
            game_in_view(pat, f"dealt ({orientation})", problems)
            if orientation == "portrait":
                across = cell_across(pat)
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"phone-{size}.png"))
                if size == "390x844" and across < MIN_CELL_PX:
                    problems.append(f"a cell is {across:.1f} px across, under {MIN_CELL_PX}")
                fits_across(pat, "game", problems)
                # A tap on a tile, then on a cell: played (placed, or a mistake shown).
                page.wait_for_selector("#status-line.mine")
                press(pat, page.locator("#hand button.tile").first)
                target = page.locator("#board g.cell[data-candidate='1']").first
                target.wait_for()
                assert page.locator("#board g.cell.zone").count() == 0
                press(pat, target)
                eventually(lambda: version(pat) >= 1, "the tapped move applied")
                # Touch has no hover: the cell tapped keeps its three zones lit.
                assert page.locator("#board g.cell.zone-focus").count() == 1
                assert page.locator("#board g.cell.zone").count() >= 9 * 2
            press(pat, page.locator("#actions button.resign"))
            press(pat, page.locator("#actions button.resign.armed"))
            page.wait_for_selector("#result:not([hidden])")
        page.set_viewport_size(phone)

        # Accepted: a proposal further down the lobby.
        open_with_token(dee, club)
        for orientation in ORIENTATIONS:
            propose(dee, colour="red")
            page.set_viewport_size(held(phone, orientation))
            page.evaluate("window.scrollTo(0, 0)")
            before = shown_id(pat)
            accept_from(pat, dee.name)
            opened(pat, before, f"accepted ({orientation})")
            page.locator("#players .player.red", has_text=dee.name).wait_for()
            game_in_view(pat, f"accepted ({orientation})", problems)
            press(pat, page.locator("#actions button.abort"))
            page.wait_for_selector("#result:not([hidden])")
        page.set_viewport_size(phone)

        # Replayed: the two bot games, from My games, far below.
        rows = page.locator("#games li.game-row[data-status=finished]", has_text="bot-easy")
        refreshed_until(pat, "#refresh-games", lambda: rows.count() >= 2,
                        "both bot games finished in My games")
        finished = [rows.nth(k).get_attribute("data-game") for k in range(2)]
        for gid, orientation in zip(finished, ORIENTATIONS, strict=True):
            page.set_viewport_size(held(phone, orientation))
            press(pat, page.locator(f"#games li.game-row[data-game='{gid}'] button.open"))
            eventually(lambda g=gid: shown_id(pat) == g, f"replayed ({orientation})")
            page.wait_for_selector("#record:not([hidden]) #replay-slider")
            game_in_view(pat, f"replayed ({orientation})", problems)
            fits_across(pat, "replay", problems)
            if orientation == "portrait":
                pat.shot(f"phone-{size}-replay", full_page=False)
        page.set_viewport_size(phone)

        # Watched: dee's game against the bot, from the live games.
        play_the_bot(dee, room="bridge", colour="red")  # the bot moves first: a minute to watch
        for orientation in reversed(ORIENTATIONS):
            page.set_viewport_size(held(phone, orientation))
            watch = page.locator("#live li.live-game", has_text=dee.name).locator("button.watch")
            press(pat, watch)
            page.wait_for_selector("#game-title .badge.watching")
            game_in_view(pat, f"watched ({orientation})", problems)
            fits_across(pat, "watching", problems)
            if size == "390x844" and orientation == "landscape":  # the README's phone on its side
                page.screenshot(path=str(SCREENSHOTS / f"phone-{size}-landscape.png"))
            press(pat, page.locator("#actions button.unwatch"))
            page.wait_for_selector("#app[data-screen=club]")
        page.set_viewport_size(phone)

        assert problems == [], problems
        assert pat.problems == [] and dee.problems == [], pat.problems + dee.problems
    finally:
        pat.close()
        dee.close()


@pytest.mark.parametrize("size", sorted(PHONES))
def test_a_game_against_the_bot_played_by_taps_alone(browser: Any, club: LocalServer,
                                                      size: str) -> None:
    tia = Page(browser, fresh_name("tia"), phone=PHONES[size])
    try:
        page = tia.page
        open_with_token(tia, club)
        play_the_bot(tia, room="blitz")
        dealt = board_now(tia)
        solution = solve("".join(c["digit"] or "." for c in dealt),
                         "".join(c["block"] for c in dealt))
        for _ in range(80):
            if eventually(lambda: my_move_or_end(tia), "my move or the end", 40) == "end":
                break
            before = version(tia)
            play_one_turn(tia, solution, wrong=False)
            shown_past(tia, before, "the move applied")
        else:
            raise AssertionError("the game did not end")
        assert "sides connected" in page.locator("#result").inner_text()
        tia.shot(f"phone-{size}-taps-finished", full_page=False)
        assert tia.problems == [], tia.problems
    finally:
        tia.close()
