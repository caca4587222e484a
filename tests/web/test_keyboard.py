"""A whole game from the keyboard alone: signing in, the bot's form, the board (one tab
stop, reached with B; arrows along the rows and the slanted columns; a digit picks a
tile; Enter places it or selects a clue), T to take a clue, X to exchange; the help
panel that lists the keys (?), the focus always visible, each cell named for a screen
reader, and the game's events read out in a polite live region."""

from __future__ import annotations

import re
from typing import Any

from browser_kit import (
    Page,
    accept_from,
    board_now,
    eventually,
    fresh_name,
    my_move_or_end,
    open_with_token,
    play_one_turn,
    propose,
    shown_game_id,
    shown_past,
    version,
)
from client import solve
from e2e_server import LocalServer

FOCUSED = "() => document.activeElement && (document.activeElement.id || '')"
FOCUSED_CELL = "() => document.activeElement && document.activeElement.dataset.index"
FOCUS_RING = """() => {
  const ring = document.querySelector('#board svg g.focus-ring');
  const line = ring && ring.querySelector('.focus-line');
  return line && {
    over: line.getAttribute('points')
      === document.activeElement.querySelector('polygon').getAttribute('points'),
    last: ring.parentNode.lastElementChild === ring,
    width: getComputedStyle(line).strokeWidth,
  };
}"""
HEARD = """() => { window.__heard = [];
  new MutationObserver(() => window.__heard.push(document.querySelector('#announcer').textContent))
    .observe(document.querySelector('#announcer'), { childList: true, subtree: true }); }"""


def tab_to(player: Page, element_id: str, limit: int = 80) -> None:
    for _ in range(limit):
        if player.page.evaluate(FOCUSED) == element_id:
            return
        player.page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def pick(player: Page, digit: int) -> None:
    """The tile `digit` selected by its key (the key again would put it down)."""
    chosen = f"#hand button.tile.selected[data-digit='{digit}']"
    if not player.page.locator(chosen).count():
        player.page.keyboard.press(str(digit))
    player.page.wait_for_selector(chosen)


def walk_to(player: Page, index: int, size: int) -> None:
    """The arrows from the focused cell to cell `index`: down/up the column, along the row."""
    at = int(player.page.evaluate(FOCUSED_CELL))
    (r, c), (tr, tc) = divmod(at, size), divmod(index, size)
    for _ in range(abs(tr - r)):
        player.page.keyboard.press("ArrowDown" if tr > r else "ArrowUp")
    for _ in range(abs(tc - c)):
        player.page.keyboard.press("ArrowRight" if tc > c else "ArrowLeft")
    assert int(player.page.evaluate(FOCUSED_CELL)) == index


def take_by_keys(player: Page, clue: int, payment: int | None, size: int) -> None:
    """The clue at `clue` taken: the tile to pay with picked, the clue selected by Enter
    (unless it already is: Enter again would let it go), then T."""
    if payment is not None:
        pick(player, payment)
    walk_to(player, clue, size)
    selected = f"#board g.cell.sel[data-index='{clue}']"
    if not player.page.locator(selected).count():
        player.page.keyboard.press("Enter")
    player.page.wait_for_selector(selected)
    player.page.keyboard.press("t")


def test_a_whole_game_from_the_keyboard(browser: Any, club: LocalServer) -> None:
    kit = Page(browser, fresh_name("kit"))
    try:
        page, keys = kit.page, kit.page.keyboard
        page.goto(f"{club.url}/")
        page.wait_for_selector("#name-input")
        assert page.evaluate(FOCUSED) == "name-input"  # the sign-in card takes the focus
        keys.type(kit.name)
        keys.press("Tab")  # the password, next (a new name: its account made)
        keys.type(f"{kit.name}'s password")
        keys.press("Enter")
        kit.wait_connected()
        page.wait_for_selector("#b-room option[value=blitz]", state="attached")
        # The help: every action's key, opened with ? and closed with Escape.
        keys.press("?")
        help_panel = page.locator("#keys-help")
        help_panel.wait_for()
        listed = help_panel.locator("dt").all_inner_texts()
        assert {"T", "X", "S", "R", "D", "A", "Y", "N", "?"} <= set(listed), listed
        keys.press("Escape")
        help_panel.wait_for(state="hidden")

        # The bot's form by Tab and typing: the easy bot, Blitz, blue (moving first).
        tab_to(kit, "b-level")
        keys.type("easy")
        tab_to(kit, "b-room")
        keys.type("blitz")
        tab_to(kit, "b-colour")
        keys.type("blue")
        assert page.input_value("#b-room") == "blitz" and page.input_value("#b-colour") == "blue"
        tab_to(kit, "play-bot")
        keys.press("Enter")
        page.wait_for_selector("#board svg g.cell", timeout=60_000)
        page.evaluate(HEARD)

        # B: onto the board, its one tab stop; the focus shows; the cell says what it is.
        page.wait_for_selector("#status-line.mine")
        keys.press("b")
        assert page.evaluate(FOCUSED_CELL) is not None
        assert page.locator("#board g.cell[tabindex='0']").count() == 1
        # The focus shows as a ring of its own, painted over the cell's neighbours.
        ring = page.evaluate(FOCUS_RING)
        assert ring == {"over": True, "last": True, "width": "5px"}, ring
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert re.match(r"row [1-6], column [1-6], ", label), label

        dealt = board_now(kit)
        size = 6
        solution = solve("".join(c["digit"] or "." for c in dealt),
                         "".join(c["block"] for c in dealt))
        done: list[str] = []
        for _ in range(80):
            if eventually(lambda: my_move_or_end(kit), "my move or the end", 40) == "end":
                break
            before = version(kit)
            cells = board_now(kit)
            hand = [int(d) for d in page.locator("#hand button.tile").evaluate_all(
                "ts => ts.map((t) => t.dataset.digit)")]
            empty = [int(c["index"]) for c in cells if c["digit"] == "" and c["clue"] == "0"]
            free = [int(c["index"]) for c in cells if c["clue"] == "1" and c["owner"] == ""]
            fits = [(d, i) for d in hand for i in empty if solution[i] == str(d)]
            if "exchange" not in done:
                keys.press("x")  # the bag is full at the start: always allowed
                done.append("exchange")
            elif free and (("take" not in done and len(hand) >= 2) or not hand):
                # Paid with two tiles in Blitz (the first picked here), or free with none.
                take_by_keys(kit, free[0], hand[0] if hand else None, size)
                done.append("take")
            elif fits:
                digit, index = fits[0]
                pick(kit, digit)
                walk_to(kit, index, size)
                keys.press("Enter")
                done.append("place")
            elif page.locator("#actions button.exchange").is_enabled() or not (hand and empty):
                keys.press("x")
                done.append("exchange")
            else:  # an empty bag and no tile that goes anywhere: a mistake is what is left
                pick(kit, hand[0])
                walk_to(kit, empty[0], size)
                keys.press("Enter")
                done.append("mistake")
            shown_past(kit, before, f"the move by keys ({done[-1]})")
        else:
            raise AssertionError("the game did not end")

        assert "take" in done and "place" in done, done
        assert page.locator("#log li[data-kind=taken]").count() >= 1
        assert page.locator("#result:not([hidden])").count() == 1
        # What happened was read out, politely, in the moves list's words.
        assert page.get_attribute("#announcer", "aria-live") == "polite"
        heard = page.evaluate("() => window.__heard")
        assert any("exchanged" in said for said in heard), heard
        assert any("placed" in said for said in heard), heard
        ending = page.locator("#log li[data-kind=finished]").inner_text()
        assert any(ending in said for said in heard), (ending, heard)
        kit.shot("keyboard-finished")
        assert kit.problems == [], kit.problems
    finally:
        kit.close()


def logged(player: Page, kind: str) -> int:
    return int(player.page.locator(f"#log li[data-kind={kind}]").count())


def test_the_action_keys_swap_offer_answer_adjourn_resign_and_rematch(
        browser: Any, club: LocalServer) -> None:
    """Two players: lee (blue) with the mouse for the first move, kay (red) and lee then by
    the keys alone: S swaps, D offers a draw and N declines it, A offers to adjourn and Y
    accepts, A resumes (both), R twice resigns, M offers a rematch, N declines and Y
    accepts it. The focus shows on a button reached by Tab as on a cell."""
    lee, kay = Page(browser, fresh_name("lee")), Page(browser, fresh_name("kay"))
    try:
        open_with_token(lee, club)
        propose(lee, colour="blue")
        open_with_token(kay, club)
        accept_from(kay, lee.name)
        for player in (lee, kay):
            player.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        dealt = board_now(lee)
        solution = solve("".join(c["digit"] or "." for c in dealt),
                         "".join(c["block"] for c in dealt))
        lee.page.wait_for_selector("#status-line.mine")
        for _ in range(3):  # a cell of blue's, so that red may swap (an exchange owns none)
            before = version(lee)
            did = play_one_turn(lee, solution, wrong=False)
            for player in (lee, kay):
                shown_past(player, before, f"{player.name}: {did} shown")
            if did != "exchange":
                break
            before = version(kay)
            kay.page.keyboard.press("x")
            for player in (lee, kay):
                shown_past(player, before, f"{player.name}: red's exchange shown")
        keys_of = {p.name: p.page.keyboard for p in (lee, kay)}

        # S: red takes blue's first cell over (the pie rule).
        kay.page.wait_for_selector("#status-line.mine")
        kay.page.wait_for_selector("#actions button.swap:not(:disabled)")
        keys_of[kay.name].press("s")
        for player in (lee, kay):
            eventually(lambda p=player: logged(p, "swapped") == 1, f"{player.name}: swapped")

        # The focus shows on a button reached by Tab, as it does on a cell.
        keys_of[kay.name].press("b")
        for _ in range(12):
            kay.page.keyboard.press("Tab")
            if kay.page.evaluate("() => document.activeElement.tagName") == "BUTTON":
                break
        outline = kay.page.evaluate(
            "() => { const s = getComputedStyle(document.activeElement);"
            " return [document.activeElement.tagName, s.outlineStyle, s.outlineWidth]; }")
        assert outline == ["BUTTON", "solid", "3px"], outline

        # D offers a draw; N, pressed by the other, declines it.
        keys_of[kay.name].press("d")
        lee.page.wait_for_selector("#actions button.accept-draw")
        kay.page.wait_for_selector("#actions button.offer-draw:disabled")
        keys_of[lee.name].press("n")
        for player in (lee, kay):
            eventually(lambda p=player: logged(p, "draw_declined") == 1, f"{player.name}: declined")
        kay.page.wait_for_selector("#actions button.offer-draw:not(:disabled)")
        assert lee.page.locator("#actions button.accept-draw").count() == 0

        # A offers to adjourn; Y accepts; A asks to resume, on both sides.
        keys_of[lee.name].press("a")
        kay.page.wait_for_selector("#actions button.accept-adjourn")
        keys_of[kay.name].press("y")
        for player in (lee, kay):
            player.page.wait_for_selector("#actions button.resume:not(:disabled)")
        keys_of[kay.name].press("a")
        kay.page.wait_for_selector("#actions button.resume:disabled")
        keys_of[lee.name].press("a")
        for player in (lee, kay):
            player.page.wait_for_selector("#actions button.offer-draw")
            eventually(lambda p=player: logged(p, "resumed") == 1, f"{player.name}: resumed")

        # R twice: resigned (the first only arms the button).
        keys_of[kay.name].press("r")
        kay.page.wait_for_selector("#actions button.resign.armed")
        assert kay.page.locator("#result:not([hidden])").count() == 0
        keys_of[kay.name].press("r")
        for player in (lee, kay):
            player.page.wait_for_selector("#result:not([hidden])")

        # M offers a rematch; N declines it; M again, and Y deals the new game.
        game = shown_game_id(kay)
        keys_of[lee.name].press("m")
        kay.page.wait_for_selector("#actions button.accept-rematch")
        keys_of[kay.name].press("n")
        lee.page.wait_for_selector("#actions button.offer-rematch:not(:disabled)")
        # kay's own page drops the offer once its decline is answered: waited for there,
        # not read at the moment lee's page has heard of it.
        kay.page.wait_for_selector("#actions button.accept-rematch", state="detached")
        keys_of[lee.name].press("m")
        kay.page.wait_for_selector("#actions button.accept-rematch")
        keys_of[kay.name].press("y")
        for player in (lee, kay):
            eventually(lambda p=player: shown_game_id(p) != game,
                       f"{player.name}: the rematch shown")
        assert lee.problems == [] and kay.problems == [], lee.problems + kay.problems
    finally:
        lee.close()
        kay.close()
