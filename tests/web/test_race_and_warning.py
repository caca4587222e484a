"""How close each side is, and the question before a placement the board contradicts, in
Chromium against a real ``numbridge serve``.

Two players, blue and red, in a Bridge game. Beside the clocks each page shows each
side's fewest cells still to claim: the bot's own count (numbridge/bot/hex_distance.py)
for the board the page shows, 9 and 9 at the deal; a correct placement by blue makes it 8
on both pages. "Show path" (a toggle, by the mouse and by the keys) draws the viewer's
cheapest chain over the board and takes it away again. A tile put where the board already
shows its digit (in the row, the column or the block) asks first: Cancel and Esc send
nothing and give the focus back to the board; Place sends the move as it was.

Before this, nothing on the board said how close either side was (a newcomer's first game
was lost in 9 moves with no sign of it), and such a tile was sent without a word.
"""

from __future__ import annotations

from typing import Any

from browser_kit import (
    RECORD_SENT,
    Page,
    accept_from,
    axe_violations,
    blocking,
    board_now,
    eventually,
    fresh_name,
    open_with_token,
    propose,
    sent,
)
from client import solve
from e2e_server import LocalServer
from numbridge.bot.hex_distance import FAR, shortest

# The race as the page shows it and the board it was counted on, read at one moment.
RACE_NOW = """() => {
  const race = document.querySelector('#race');
  const cells = [...document.querySelectorAll('#board g.cell')];
  return {
    hidden: race.hidden, blue: race.dataset.blue, red: race.dataset.red,
    said: race.querySelector('.race-said')?.textContent || '',
    owners: cells.map((g) => g.dataset.owner || '.').join(''),
    need: [...document.querySelectorAll('#board g.race-chain .race-need')]
      .map((p) => Number(p.dataset.index)),
    line: document.querySelectorAll('#board g.race-chain polyline').length,
  };
}"""


FOCUSED_CELL = "() => document.activeElement.closest('#board g.cell')?.dataset.index"


def race_now(player: Page) -> dict[str, Any]:
    return dict(player.page.evaluate(RACE_NOW))


def bots_count(owners: str, seat: str) -> str:
    """The count the page should show for `seat`: the bot's, a dash when cut off."""
    size = round(len(owners) ** 0.5)
    found = shortest(owners, size, seat)  # type: ignore[arg-type]
    return "—" if found.distance >= FAR else str(found.distance)


def places_sent(player: Page) -> list[dict[str, Any]]:
    return [f for f in sent(player) if f.get("action") == "place"]


def select_tile(player: Page, digit: int) -> None:
    tile = player.page.locator(f"#hand button.tile[data-digit='{digit}']").first
    if tile.get_attribute("aria-pressed") != "true":
        tile.click()
    eventually(lambda: tile.get_attribute("aria-pressed") == "true", "the tile selected")


def contradicted(cells: list[dict[str, str]], hand: list[int]) -> tuple[int, int, str] | None:
    """A tile of the hand and an empty cell whose row, column or block shows its digit."""
    size = round(len(cells) ** 0.5)
    for digit in hand:
        for cell in cells:
            i = int(cell["index"])
            if cell["digit"] or cell["clue"] == "1":
                continue
            r, c = divmod(i, size)
            for unit, others in (("row", [r * size + k for k in range(size)]),
                                 ("column", [k * size + c for k in range(size)]),
                                 ("block", [int(o["index"]) for o in cells
                                            if o["block"] == cell["block"]])):
                if any(cells[o]["digit"] == str(digit) for o in others if o != i):
                    return digit, i, unit
    return None


def test_the_race_beside_the_clocks_the_path_and_the_question_before_a_contradicted_tile(
        browser: Any, club: LocalServer) -> None:
    """Catches: no count shown (or one the bot would not give), a count that stays put
    after a move, a path button that draws nothing or cannot be turned off from the keys,
    and a contradicted tile sent without asking, or sent after Cancel or Esc."""
    ana = Page(browser, fresh_name("ana"), RECORD_SENT, bypass_csp=True)
    bob = Page(browser, fresh_name("bob"), RECORD_SENT)
    try:
        for player in (ana, bob):
            open_with_token(player, club)
        propose(ana, "bridge", "blue")
        accept_from(bob, ana.name)
        for player in (ana, bob):
            player.page.wait_for_selector("#board svg g.cell", timeout=60_000)
            player.page.wait_for_selector("#race:not([hidden])")
        page = ana.page

        # At the deal nobody owns a cell: each side needs a whole row or column, 9.
        for player in (ana, bob):
            shown = race_now(player)
            assert (shown["blue"], shown["red"]) == ("9", "9"), shown
            assert (shown["blue"], shown["red"]) == (bots_count(shown["owners"], "blue"),
                                                     bots_count(shown["owners"], "red"))
            assert "Blue needs 9 more cells to connect." in shown["said"], shown["said"]
            assert "Red needs 9 more cells to connect." in shown["said"], shown["said"]

        # Show path: a toggle, pressed by the mouse, then off and on again by the keys.
        toggle = page.locator("#race button.race-path")
        assert toggle.count() == 1 and toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        eventually(lambda: race_now(ana)["line"] == 1, "the chain drawn", shown=ana)
        assert toggle.get_attribute("aria-pressed") == "true"
        need = race_now(ana)["need"]
        # Top to bottom: a cell in each row.
        assert len(need) == 9 and sorted(i // 9 for i in need) == list(range(9)), need
        toggle.focus()
        page.keyboard.press("Enter")
        eventually(lambda: race_now(ana)["line"] == 0, "the chain taken away", shown=ana)
        assert toggle.get_attribute("aria-pressed") == "false"
        page.keyboard.press("Space")
        eventually(lambda: race_now(ana)["line"] == 1, "the chain drawn again", shown=ana)
        assert toggle.get_attribute("aria-pressed") == "true"

        # A tile where the board already shows its digit: asked first.
        page.wait_for_selector("#status-line.mine")
        dealt = board_now(ana)
        solution = solve("".join(c["digit"] or "." for c in dealt),
                         "".join(c["block"] for c in dealt))
        hand = [int(d) for d in page.locator("#hand button.tile").evaluate_all(
            "ts => ts.map((t) => t.dataset.digit)")]
        found = contradicted(dealt, hand)
        assert found, f"no tile of {hand} contradicted anywhere on the board"
        digit, index, unit = found
        r, c = divmod(index, 9)
        warning = page.locator("#place-warning")
        select_tile(ana, digit)
        before = len(places_sent(ana))

        ana.cell(r, c).click()
        warning.wait_for()
        assert page.locator("#place-warning-text").inner_text() == (
            f"{digit} is already in this {unit}. Place it anyway?")
        assert page.evaluate("() => document.activeElement.id") == "place-warning-cancel"
        page.click("#place-warning-cancel")
        warning.wait_for(state="hidden")
        assert page.evaluate(FOCUSED_CELL) == str(index), "the focus goes back to the cell"

        ana.cell(r, c).click()
        warning.wait_for()
        page.keyboard.press("Escape")
        warning.wait_for(state="hidden")
        assert page.locator("#hand button.tile[aria-pressed='true']").count() == 1, \
            "Esc answered the question, and left the tile selected"
        page.wait_for_timeout(300)  # what Cancel or Esc might have sent has been sent
        assert len(places_sent(ana)) == before, "Cancel or Esc sent the placement"

        ana.cell(r, c).click()
        warning.wait_for()
        # The question and the race, as a screen reader and a keyboard meet them.
        assert not blocking(axe_violations(ana)), blocking(axe_violations(ana))
        page.click("#place-warning-place")
        warning.wait_for(state="hidden")
        eventually(lambda: len(places_sent(ana)) == before + 1, "the placement sent", shown=ana)
        sent = places_sent(ana)[-1]
        assert sent["cell"] == [r, c] and sent["digit"] == digit, sent
        assert solution[index] != str(digit)  # it was a mistake, as the board said

        # Red exchanges; then blue places a tile where it goes: 8 for blue, on both pages.
        bob.page.wait_for_selector("#status-line.mine")
        bob.page.click("#actions button.exchange")
        page.wait_for_selector("#status-line.mine")
        cells = board_now(ana)
        hand = [int(d) for d in page.locator("#hand button.tile").evaluate_all(
            "ts => ts.map((t) => t.dataset.digit)")]
        index = next(int(x["index"]) for x in cells for d in hand
                     if not x["digit"] and x["clue"] == "0" and solution[int(x["index"])] == str(d))
        select_tile(ana, int(solution[index]))
        ana.cell(index // 9, index % 9).click()
        for player in (ana, bob):
            def placed(p: Page = player) -> bool:
                return bool(race_now(p)["owners"][index] == "b")

            eventually(placed, "blue's cell shown", shown=player)
            shown = race_now(player)
            assert (shown["blue"], shown["red"]) == ("8", "9"), shown
            assert (shown["blue"], shown["red"]) == (bots_count(shown["owners"], "blue"),
                                                     bots_count(shown["owners"], "red"))
        # The path shown follows the board: 8 cells still to claim, the new one on its way.
        assert len(race_now(ana)["need"]) == 8
        assert not ana.problems and not bob.problems, ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_a_spectator_picks_the_side_whose_path_is_drawn(browser: Any, club: LocalServer) -> None:
    """Catches: a spectator with no way to see either side's chain, or shown the wrong
    side's (red's chain runs left to right: a cell in each column)."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    cy = Page(browser, fresh_name("cy"))
    try:
        for player in (ana, bob, cy):
            open_with_token(player, club)
        propose(ana, "blitz", "blue")
        accept_from(bob, ana.name)
        ana.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        row = cy.page.locator("#live li.live-game").filter(has_text=ana.name)
        row.locator("button.watch").click()
        cy.page.wait_for_selector("#race:not([hidden])")
        buttons = cy.page.locator("#race button.race-path")
        assert buttons.all_inner_texts() == ["Blue\u2019s path", "Red\u2019s path"]
        shown = race_now(cy)
        assert (shown["blue"], shown["red"]) == ("6", "6"), shown

        cy.page.click("#race button.race-path.red")
        eventually(lambda: cy.page.locator("#board g.race-chain.red").count() == 1,
                   "red's chain drawn", shown=cy)
        need = race_now(cy)["need"]
        assert len(need) == 6 and sorted(i % 6 for i in need) == list(range(6)), need
        assert buttons.nth(1).get_attribute("aria-pressed") == "true"
        assert buttons.nth(0).get_attribute("aria-pressed") == "false"

        cy.page.click("#race button.race-path.blue")
        eventually(lambda: cy.page.locator("#board g.race-chain.blue").count() == 1,
                   "blue's chain drawn instead", shown=cy)
        need = race_now(cy)["need"]
        assert len(need) == 6 and sorted(i // 6 for i in need) == list(range(6)), need
        cy.page.click("#race button.race-path.blue")
        eventually(lambda: race_now(cy)["line"] == 0, "no chain", shown=cy)
        assert not cy.problems, cy.problems
    finally:
        for player in (ana, bob, cy):
            player.close()
