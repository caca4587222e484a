"""The reference client in a real browser against the real ``numbridge serve``.

Two browser contexts, ana (a token in the address) and bob (signed in by
name): ana proposes, bob accepts, both see the board; hovering a cell lights
its three zones; ana places a tile (a candidate cell: right or a mistake) and
both boards show what happened. Another test drops ana's socket while bob
moves and checks that she catches up by ``sync``; another signs in by name,
is remembered, changes name, and pastes a token; another plays the easy bot
in Blitz to the end by clicking (a mistake first, to see its red mark), then
replays that game from the archive. A third browser watches a game from the
lobby's live games and sees its moves arrive; a finished game's rematch is
offered and accepted, colours swapped; a fresh game is aborted.
Screenshots: tests/web/artifacts/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import (
    Page,
    board_now,
    box_of,
    eventually,
    my_move_or_end,
    play_one_turn,
    shown_game_id,
    shown_past,
    version,
)
from client import solve
from e2e_server import LocalServer, serving

# Lets a test cut a page's WebSocket and hold off its reconnection (the client
# itself is unchanged: it sees a dropped connection and failing reconnects), and
# hand the page a frame as if the server had sent it.
SOCKET_SWITCH = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.__holdSockets = false;
  function Switched(url, protocols) {
    if (window.__holdSockets) throw new Error('held by the test');
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    sockets.push(ws);
    window.__lastSocket = ws;
    return ws;
  }
  Switched.prototype = Native.prototype;
  for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Switched[key] = Native[key];
  window.WebSocket = Switched;
  window.__dropSockets = () => { for (const ws of sockets.splice(0)) ws.close(); };
  // A frame as if the server had sent it (for what this server does not send yet).
  window.__inject = (frame) => window.__lastSocket.onmessage({ data: JSON.stringify(frame) });
})();
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with serving(tmp_path) as local:
        yield local


def password_of(name: str) -> str:
    return f"{name}'s password"


def sign_in_by_name(player: Page, server: LocalServer, name: str) -> None:
    """The sign-in card, with the name and its password (a new name: an account made)."""
    player.page.goto(f"{server.url}/")
    player.page.wait_for_selector("#name-input")
    player.page.fill("#name-input", name)
    player.page.fill("#password-input", password_of(name))
    player.page.click("#name-form button[type=submit]")
    player.wait_connected()
    assert player.page.locator("#who").inner_text() == f"Playing as {name}"


def start_game(server: LocalServer, ana: Page, bob: Page) -> None:
    """Ana (token in the URL) proposes a Bridge game as blue; bob (signed in by name) accepts."""
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

    sign_in_by_name(bob, server, "bob")
    accept = bob.page.locator("#proposals li.proposal[data-by=ana] button.accept")
    accept.first.click()

    for player in (ana, bob):
        player.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        assert player.page.locator("#board svg g.cell").count() == 81
    ana.page.wait_for_selector("#status-line.mine")
    assert bob.page.locator("#status-line.mine").count() == 0


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# The board's cells now, kept to compare; then my games asked for, and once their
# answer is drawn (the list changed, and two frames later the page's render has run):
# whether the board's cells are still the very same nodes.
MARK_CELLS = "() => { window.__cells = [...document.querySelectorAll('#board g.cell')]; }"
CELLS_KEPT_AFTER_ANSWER = """() => new Promise((resolve) => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  new MutationObserver(async (_, observer) => {
    observer.disconnect();
    await frame();
    await frame();
    const now = [...document.querySelectorAll('#board g.cell')];
    const kept = window.__cells;
    resolve(now.length === kept.length && now.every((cell, k) => cell === kept[k]));
  }).observe(document.querySelector('#games'), { childList: true, subtree: true });
  document.querySelector('#refresh-games').click();
})"""


def test_propose_accept_and_place(browser: Any, server: LocalServer) -> None:
    ana, bob = Page(browser, "ana"), Page(browser, "bob")
    try:
        start_game(server, ana, bob)

        # A lobby answer (as My games' refresh brings) draws the page
        # again but leaves the board's cells alone: a click whose press and release straddle
        # that render still lands on its cell.
        ana.page.evaluate(MARK_CELLS)
        assert ana.page.evaluate(CELLS_KEPT_AFTER_ANSWER)

        # The board is a rhombus of hexagons: each row half a cell right of the one above.
        first = box_of(ana.cell(0, 0).locator("polygon"))
        right = box_of(ana.cell(0, 1).locator("polygon"))
        below = box_of(ana.cell(1, 0).locator("polygon"))
        (x00, y00), (x01, y01), (x10, y10) = centre(first), centre(right), centre(below)
        pitch = x01 - x00
        assert pitch > 10 and abs(y01 - y00) < 1
        assert abs((x10 - x00) - pitch / 2) < 1.5  # (1,0) is down-right of (0,0)
        assert y10 > y00 + pitch * 0.7
        # Blue's sides (top, bottom) and red's (left, right) are drawn.
        assert ana.page.locator("#board line.side.blue").count() == 2 * 9 * 2
        assert ana.page.locator("#board line.side.red").count() == 2 * 9 * 2 - 2
        assert ana.page.locator("#board g.cell.clue").count() == 30

        # Hovering a cell lights its three zones: row 4, column 4, the middle block.
        ana.cell(4, 4).hover()
        lit = ana.page.locator("#board g.cell.zone")
        eventually(lambda: lit.count() == 21, "the zones of (4,4)")
        for zone in ("row", "column", "block"):
            assert ana.page.locator(f"#board g.cell.zone-{zone}").count() == 9, zone
        assert ana.page.locator("#board g.cell.zone-row[data-r='4']").count() == 9
        assert ana.page.locator("#board g.cell.zone-column[data-c='4']").count() == 9
        assert ana.page.locator("#board g.cell.zone-focus").get_attribute("data-index") == "40"
        ana.shot("zones")
        # The keyboard too: the focus moves with the arrows, and the zones with it.
        ana.cell(4, 4).focus()
        ana.page.keyboard.press("ArrowRight")
        eventually(lambda: ana.page.locator("#board g.cell.zone-focus").get_attribute("data-index")
                   == "41", "the zones of (4,5)")
        assert ana.page.locator("#board g.cell.zone-column[data-c='5']").count() == 9
        ana.page.mouse.move(2, 2)

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
                assert re.search(rf"mistake — {digit} does not go at \({r + 1},{c + 1}\)", text)
        bob.page.wait_for_selector("#status-line.mine")
        # The move, a new hand (unless a mistake's tile came back from the bag), the turn.
        eventually(lambda: version(ana) == version(bob) in (2, 3), "both at the move's version")
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
        # The server says who is online, and that nobody has moved yet (abortable).
        ana.page.wait_for_selector("#players .player.red .presence.online")
        assert ana.page.locator("#actions button.abort").count() == 1
        game = ana.page.locator("#games li.game-row").first.get_attribute("data-game")
        ana.page.evaluate(
            "g => window.__inject({type: 'presence', game: g, seat: 'red', online: false})", game
        )
        ana.page.wait_for_selector("#players .player.red .presence.offline")
        assert ana.page.locator("#actions button.abort").count() == 1  # nobody has moved yet
        ana.page.evaluate(
            "g => window.__inject({type: 'presence', game: g, seat: 'red', online: true})", game
        )
        ana.page.wait_for_selector("#players .player.red .presence.online")
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
        assert version(ana) == version(bob)
        ana.shot("reconnected")

        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_sign_in_by_name_is_remembered_and_can_change(browser: Any, server: LocalServer) -> None:
    carol = Page(browser, "carol")
    try:
        page = carol.page
        page.goto(f"{server.url}/")
        page.wait_for_selector("#name-input")
        carol.shot("sign-in")
        # A name outside the rule: the server's reason, and no sign-in.
        page.fill("#name-input", "no spaces")
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#login-problem:not([hidden])")
        assert "32 characters" in page.locator("#login-problem").inner_text()
        sign_in_by_name(carol, server, "carol")

        # A reload signs in as carol again, without asking.
        page.reload()
        carol.wait_connected()
        assert page.locator("#who").inner_text() == "Playing as carol"
        assert page.locator("#login").is_hidden()

        # Change name: the form again, with the remembered name; a new name is a new player.
        page.click("#change-name")
        page.wait_for_selector("#name-input")
        assert page.input_value("#name-input") == "carol"
        page.fill("#name-input", "dave")
        page.fill("#password-input", password_of("dave"))
        page.click("#name-form button[type=submit]")
        eventually(lambda: page.locator("#who").inner_text() == "Playing as dave", "dave")
        carol.wait_connected()
        page.reload()
        carol.wait_connected()
        assert page.locator("#who").inner_text() == "Playing as dave"

        # Advanced: a pasted token still works, and names its player.
        page.click("#change-name")
        page.click("#token-login summary")
        page.fill("#token-input", server.token("erin"))
        page.click("#token-form button[type=submit]")
        eventually(lambda: page.locator("#who").inner_text() == "Playing as erin", "erin")
        carol.wait_connected()
        carol.shot("signed-in")
        assert carol.problems == [], carol.problems
    finally:
        carol.close()


def test_sign_up_sign_out_and_sign_in_with_the_wrong_then_the_right_password(
        browser: Any, server: LocalServer) -> None:
    gil = Page(browser, "gil")
    try:
        page = gil.page
        page.goto(f"{server.url}/")
        page.wait_for_selector("#name-input")
        # A new name with a short password: refused, said why, no account made.
        page.fill("#name-input", "gil")
        page.fill("#password-input", "short")
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#login-problem:not([hidden])")
        assert "at least 8 characters" in page.locator("#login-problem").inner_text()
        sign_in_by_name(gil, server, "gil")  # signed up

        page.click("#change-name")  # signed out: the card again, the name remembered
        page.wait_for_selector("#name-input")
        assert page.input_value("#name-input") == "gil"
        assert page.input_value("#password-input") == ""  # a password is never kept
        page.fill("#password-input", "not gil's password")
        page.click("#name-form button[type=submit]")
        eventually(lambda: "Wrong password" in page.locator("#login-problem").inner_text(),
                   "the wrong password said")
        page.fill("#password-input", password_of("gil"))
        page.click("#name-form button[type=submit]")
        eventually(lambda: page.locator("#login").is_hidden(), "signed in")
        gil.wait_connected()
        assert page.locator("#who").inner_text() == "Playing as gil"
        assert gil.problems == [], gil.problems
    finally:
        gil.close()


def test_play_the_bot_to_the_end_and_replay_it(browser: Any, server: LocalServer) -> None:
    fay = Page(browser, "fay")
    try:
        page = fay.page
        sign_in_by_name(fay, server, "fay")
        page.wait_for_selector("#b-room option[value=blitz]", state="attached")
        page.select_option("#b-level", "easy")
        page.select_option("#b-room", "blitz")
        page.select_option("#b-blocks", "regular")
        page.select_option("#b-colour", "blue")
        page.click("#play-bot")
        # The game opens by itself when its state comes: a 6x6 board against bot-easy.
        page.wait_for_selector("#board svg g.cell", timeout=60_000)
        assert page.locator("#board svg g.cell").count() == 36
        assert "bot-easy" in page.locator("#players").inner_text()
        assert "rated" not in page.locator("#game-title").inner_text()
        dealt = board_now(fay)
        digits = "".join(c["digit"] or "." for c in dealt)
        solution = solve(digits, "".join(c["block"] for c in dealt))

        mistakes = 0
        moves = 0
        for _ in range(80):
            state = eventually(lambda: my_move_or_end(fay), "my move or the end", 40)
            if state == "end":
                break
            before = version(fay)
            did = play_one_turn(fay, solution, wrong=mistakes == 0)
            moves += 1
            if did == "mistake":
                # The red mark with the wrong digit, for a moment; the counter beside the board.
                page.wait_for_selector("#board g.flash", timeout=5000)
                fay.shot("bot-mistake")
                page.wait_for_selector("#players .player.blue .mistakes.some")
                mistakes += 1
            shown_past(fay, before, f"the move applied after a {did}")
        else:
            raise AssertionError("the bot game did not end")
        assert mistakes == 1 and moves > 1
        page.wait_for_selector("#result:not([hidden])")
        result = page.locator("#result").inner_text()
        assert "sides connected" in result, result
        final = board_now(fay)
        fay.shot("bot-finished")

        # The archive: a fresh page shows no game; My games lists it; Replay opens its record.
        page.evaluate("sessionStorage.clear()")
        page.reload()
        fay.wait_connected()
        page.wait_for_selector("#app[data-screen=club]")  # no game in play: none opens
        row = page.locator("#games li.game-row[data-status=finished]").first
        row.wait_for()
        assert "bot-easy" in row.inner_text()
        row.locator("button.open").click()
        page.wait_for_selector("#record:not([hidden]) #replay-slider")
        record = page.locator("#record")
        last = int(page.locator("#replay-slider").get_attribute("max"))
        rows = page.locator("#record table.moves tbody tr").all_inner_texts()
        seats = " ".join(f"{r.split(chr(9))[1][0]}:{r.split(chr(9))[2]}" for r in rows)
        assert last >= moves * 2 - 1, f"{moves} turns played; the record: {seats}; {result}"
        # It opens at the end: the final board, and the solution in the empty cells.
        assert record.get_attribute("data-end") == "1"
        assert [(c["digit"], c["owner"]) for c in board_now(fay)] == [
            (c["digit"], c["owner"]) for c in final]
        unsolved = [c for c in final if c["digit"] == ""]
        assert page.locator("#board text.solution").count() == len(unsolved)
        assert "solution is shown" in page.locator("#replay-end").inner_text() or not unsolved

        # Back to the deal: the givens, nobody owns a cell, no solution shown.
        page.click("#replay-first")
        eventually(lambda: record.get_attribute("data-step") == "0", "step 0")
        assert [c["digit"] for c in board_now(fay)] == [c["digit"] for c in dealt]
        assert all(c["owner"] == "" for c in board_now(fay))
        assert page.locator("#board text.solution").count() == 0
        # One step forward: ana's first move was the mistake — its red mark, the cell empty.
        page.click("#replay-forward")
        eventually(lambda: record.get_attribute("data-step") == "1", "step 1")
        page.wait_for_selector("#board g.flash.still")
        assert "mistake" in page.locator("#replay-where").inner_text()
        assert page.locator("table.moves tr.current").get_attribute("data-step") == "1"
        # Jump from the moves list, and with the slider.
        page.locator("table.moves tbody tr[data-step='3']").click()
        eventually(lambda: record.get_attribute("data-step") == "3", "step 3")
        page.locator("#replay-slider").evaluate(
            "(node, k) => { node.value = k; node.dispatchEvent(new Event('input')); }", last // 2)
        eventually(lambda: record.get_attribute("data-step") == str(last // 2), "the slider's step")
        owned = sum(1 for c in board_now(fay) if c["owner"])
        assert 0 < owned <= sum(1 for c in final if c["owner"])
        fay.shot("replay-middle")
        page.click("#replay-back")
        eventually(lambda: record.get_attribute("data-step") == str(last // 2 - 1), "one back")
        # Play: it steps on by itself; pause stops it.
        page.click("#replay-play")
        eventually(lambda: int(record.get_attribute("data-step")) >= last // 2 + 1, "playing")
        page.click("#replay-play")
        # Paused once drawn so: a step the last tick asked for may still be on its way
        # to the screen (the page draws once per frame), and it counts.
        page.wait_for_selector("#replay-play:not(.playing)")
        stopped = record.get_attribute("data-step")
        time.sleep(1.0)
        assert record.get_attribute("data-step") == stopped
        # Step to the end: the solution again.
        for _ in range(last - int(stopped)):
            page.click("#replay-forward")
        eventually(lambda: record.get_attribute("data-end") == "1", "the end")
        assert page.locator("#replay-forward").is_disabled()
        assert page.locator("#board text.solution").count() == len(unsolved)
        fay.shot("replay-end")
        assert fay.problems == [], fay.problems
    finally:
        fay.close()


def resign(player: Page) -> None:
    """Resign (the button asks twice)."""
    player.page.click("#actions button.resign")
    player.page.click("#actions button.resign.armed")


def shown_game(player: Page) -> str:
    """The id of the game shown, from its title."""
    return shown_game_id(player)


def test_watch_a_game_from_a_third_browser(browser: Any, server: LocalServer) -> None:
    ana, bob, cy = Page(browser, "ana"), Page(browser, "bob"), Page(browser, "cy")
    try:
        start_game(server, ana, bob)
        game = shown_game(ana)
        sign_in_by_name(cy, server, "cy")
        row = cy.page.locator(f"#live li.live-game[data-game='{game}']")
        row.wait_for()
        assert "ana" in row.inner_text() and "bob" in row.inner_text()
        assert "0 watchers" in row.inner_text()
        row.locator("button.watch").click()

        # The spectator's board: both players and their presence, no tiles, no moves to make.
        cy.page.wait_for_selector("#board svg g.cell")
        assert cy.page.locator("#board svg g.cell").count() == 81
        assert cy.page.locator("#game-title .badge.watching").count() == 1
        assert cy.page.locator("#hand button.tile").count() == 0
        assert "tiles are hidden" in cy.page.locator("#hand").inner_text()
        for seat, name in (("blue", "ana"), ("red", "bob")):
            player = cy.page.locator(f"#players .player.{seat}")
            assert name in player.inner_text()
            player.locator(".presence.online").wait_for()
        assert cy.page.locator("#actions button.exchange, #actions button.resign").count() == 0
        assert version(cy) == version(ana) == 0

        # Ana's move arrives (her new tiles stay hers), then bob's tile on its cell.
        ana.page.click("#actions button.exchange")
        eventually(lambda: version(cy) == version(ana) >= 2, "ana's exchange at the watcher")
        assert cy.page.locator("#log li[data-kind=exchanged]").count() == 1
        bob.page.wait_for_selector("#status-line.mine")
        bob.page.locator("#hand button.tile").first.click()
        candidate = bob.page.locator("#board g.cell[data-candidate='1']").first
        candidate.wait_for()
        r, c = int(candidate.get_attribute("data-r")), int(candidate.get_attribute("data-c"))
        # The version before bob's move, read before the click: his move may reach ana
        # before the next line runs, and then nothing would ever be newer than it.
        exchanged = version(ana)
        candidate.click()
        eventually(lambda: version(cy) == version(bob) > exchanged, "bob's move at the watcher")
        assert cy.cell(r, c).get_attribute("data-digit") == bob.cell(r, c).get_attribute(
            "data-digit")
        assert cy.page.locator("#log li").last.inner_text() == bob.page.locator(
            "#log li").last.inner_text().replace("bob (you)", "bob")
        cy.shot("watching")
        # Back to the club while still watching: its live games afresh, cy counted.
        cy.page.click("#to-club")
        eventually(lambda: "1 watcher" in row.inner_text(), "the watcher counted", shown=cy)
        row.locator("button.watch").click()
        cy.page.wait_for_selector("#game-title .badge.watching")

        # Stop watching: back to the club, and the game's watchers are down to none.
        cy.page.click("#actions button.unwatch")
        cy.page.wait_for_selector("#app[data-screen=club]")
        eventually(lambda: "0 watchers" in row.inner_text(), "the watcher gone", shown=cy)
        assert ana.problems == [] and bob.problems == [] and cy.problems == [], (
            ana.problems + bob.problems + cy.problems)
    finally:
        for player in (ana, bob, cy):
            player.close()


def test_rematch_deals_a_new_game_with_the_colours_swapped(browser: Any,
                                                           server: LocalServer) -> None:
    ana, bob = Page(browser, "ana"), Page(browser, "bob")
    try:
        start_game(server, ana, bob)
        old = shown_game(ana)
        resign(bob)
        for player in (ana, bob):
            player.page.wait_for_selector("#result:not([hidden])")
        ana.page.click("#actions button.offer-rematch")
        ana.page.wait_for_selector("#actions button.offer-rematch:disabled")
        bob.page.wait_for_selector("#actions button.accept-rematch")
        assert "ana offers a rematch" in bob.page.locator("#actions").inner_text()
        bob.shot("rematch-offered")
        bob.page.click("#actions button.accept-rematch")

        # Both are shown the new game at once: bob is blue now, and moves first.
        for player in (ana, bob):
            eventually(lambda p=player: shown_game(p) != old, f"{player.name}: the new game")
        new = shown_game(ana)
        assert shown_game(bob) == new
        for player, seat in ((ana, "red"), (bob, "blue")):
            player.page.wait_for_selector(f"#players .player.{seat}.you")
            player.page.wait_for_selector("#board svg g.cell")
            assert player.page.locator("#hand button.tile").count() == 3
        bob.page.wait_for_selector("#status-line.mine")
        assert ana.page.locator("#status-line.mine").count() == 0
        for player in (ana, bob):
            rows = player.page.locator("#games li.game-row")
            eventually(lambda r=rows: {r.nth(k).get_attribute("data-game")
                                       for k in range(r.count())} >= {old, new},
                       f"{player.name}: both games listed")
        ana.shot("rematch")
        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_abort_a_fresh_game(browser: Any, server: LocalServer) -> None:
    ana, bob = Page(browser, "ana"), Page(browser, "bob")
    try:
        start_game(server, ana, bob)
        game = shown_game(ana)
        bob.page.click("#actions button.abort")  # nobody has moved: either player may
        for player in (ana, bob):
            player.page.wait_for_selector("#result:not([hidden])")
            assert "Aborted" in player.page.locator("#result").inner_text()
            assert player.page.locator("#actions button.abort").count() == 0
            badge = player.page.locator(f"#games li.game-row[data-game='{game}'] .badge")
            eventually(lambda b=badge: b.inner_text() == "aborted", f"{player.name}: aborted")
        ana.shot("aborted")

        # A new game: once both have moved, abort is gone (resign remains).
        ana.page.click("#propose")  # the form still says bridge, ana blue
        bob.page.locator("#proposals li.proposal[data-by=ana] button.accept").first.click()
        for player in (ana, bob):
            eventually(lambda p=player: shown_game(p) != game, f"{player.name}: the new game")
        ana.page.wait_for_selector("#status-line.mine")
        assert ana.page.locator("#actions button.abort").count() == 1
        ana.page.click("#actions button.exchange")
        bob.page.wait_for_selector("#status-line.mine")
        assert bob.page.locator("#actions button.abort").count() == 1  # bob has not moved
        bob.page.click("#actions button.exchange")
        ana.page.wait_for_selector("#status-line.mine")
        for player in (ana, bob):
            eventually(lambda p=player: p.page.locator("#actions button.abort").count() == 0,
                       f"{player.name}: abort gone once both moved")
            assert player.page.locator("#actions button.resign").count() == 1
        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()
