"""A player's first ten minutes at the desk (1280 by 800), in a real browser: the defects a
new player met, each caught here (every test failed before its fix).

One Bridge game between ana (a scripted WebSocket client, blue) and bob (the browser):
bob taps a cell on ana's move and the hint goes once the move is his; the cells are
counted from 1; no game id or version shows; a draw offer's answers stay on one row;
Escape takes back "Really resign?"; cy watches from move 4 on and still sees moves 1
to 4; ana resigns, and bob's replay at move 3 shows the game as it stood then (status,
clocks, tiles, mistakes, bag, the Moves card up to it, no presence), its table's
headers apart, and no toast over it. And a bot game started from the keyboard: the focus
lands on the board, its ring drawn over every edge, and follows the arrows.
"""

from __future__ import annotations

import math
import re
from typing import Any

from browser_kit import SCREENSHOTS, Page, box_of, eventually, fresh_name, open_with_token
from client import Seat, deal, play_turn
from e2e_server import LocalServer

DESK = {"width": 1280, "height": 800}
RING = """() => {
  const svg = document.querySelector('#board svg');
  const ring = svg && svg.querySelector('g.focus-ring');
  const cell = document.activeElement;
  if (!ring || !cell || !cell.matches('g.cell')) return null;
  const line = ring.querySelector('.focus-line');
  return {
    last: svg.lastElementChild === ring,
    shown: ring.getAttribute('visibility') === 'visible',
    over: line.getAttribute('points') === cell.querySelector('polygon').getAttribute('points'),
    index: ring.dataset.index, cell: cell.dataset.index,
    width: getComputedStyle(line).strokeWidth, colour: getComputedStyle(line).stroke,
    block: getComputedStyle(svg.querySelector('.blockline, .edge')).stroke,
  };
}"""
OVERLAP = """(selectors) => {
  const boxes = selectors.flatMap((s) => [...document.querySelectorAll(s)])
    .map((n) => n.getBoundingClientRect());
  const meet = (t, b) => t.left < b.right && b.left < t.right
    && t.top < b.bottom && b.top < t.bottom;
  return [...document.querySelectorAll('#toasts .toast')].map((t) => t.getBoundingClientRect())
    .some((t) => boxes.some((b) => meet(t, b)));
}"""


# What the page says beside its text: tooltips and spoken names holding `game` (an id).
SAID_ASIDE = """(game) => [...document.querySelectorAll('[title], [aria-label]')]
  .map((n) => `${n.getAttribute('title') || ''} ${n.getAttribute('aria-label') || ''}`)
  .filter((said) => said.includes(game))"""
FOCUSED_CELL = "() => document.activeElement && document.activeElement.dataset.index"
FOCUSED_TAG = "() => document.activeElement && document.activeElement.outerHTML.slice(0, 60)"
NEXT_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# The replay's card: its title and buttons, where it stands, its table.
REPLAY_HEAD = ["#record"]


def clock(ms: int) -> str:
    """A clock as the page writes it (format.js fmtClock)."""
    total = max(0, math.ceil(ms / 1000))
    return f"{total // 60}:{total % 60:02d}"


def mistake(seats: dict[str, Seat]) -> None:
    """The player to move puts a tile where it does not go; both take in the turn."""
    mover = next(s for s in seats.values() if s.you == s.turn)
    empty = [i for i, d in enumerate(mover.digits) if d == "." and mover.clues[i] == "0"]
    digit, index = next((d, i) for d in mover.hand for i in empty if mover.solution[i] != str(d))
    answer = mover.player.request("place", game=mover.game, digit=digit,
                                  cell=[index // mover.size, index % mover.size])
    assert answer["type"] == "ack", answer
    mover.catch_up()
    for seat in seats.values():
        if seat is not mover:
            seat.catch_up(until_v=mover.v)


def test_a_game_at_the_desk_and_its_replay(browser: Any, club: LocalServer) -> None:
    """Catches the stale "It is not your move", cells counted from 0, the game's id and
    version shown, a draw's Accept and Decline on two rows, Escape leaving "Really
    resign?" armed, a watcher's Moves card without the earlier moves, and a replay whose
    side panel stays at the game's end (status, clocks, mistakes, bag, presence, an empty
    Moves card), with its table's headers run together and a toast over its header.
    Each defect is noted and the game goes on, so that one run names all it finds."""
    names = {"blue": fresh_name("fm-ana-"), "red": fresh_name("fm-bob-")}
    bob = Page(browser, names["red"], viewport=DESK)
    cy = Page(browser, fresh_name("fm-cy-"), viewport=DESK)
    found: list[str] = []

    def expect(ok: object, defect: str) -> None:
        if not ok:
            found.append(defect)

    def soon(check: Any, defect: str, timeout_s: float = 10) -> None:
        try:
            eventually(check, defect, timeout_s=timeout_s)
        except AssertionError:
            found.append(defect)

    with club.player(names["blue"]) as ana_ws, club.player(names["red"]) as bob_ws:
        try:
            page = bob.page
            open_with_token(bob, club)
            # Bridge with a minute a move: the page's steps never race the move's clock.
            seats = deal(ana_ws, bob_ws, "bridge-60", blocks="regular")
            ana, bob_seat = seats[names["blue"]], seats[names["red"]]
            game = ana.game
            page.wait_for_selector("#board svg g.cell")  # dealt: it opens by itself
            assert page.locator("#status-line.mine").count() == 0

            # The stale hint: a tap on ana's move says so, and the saying goes once the
            # move is bob's (it stayed for four seconds, over "Your move").
            page.locator("#board g.cell[data-clue='0'][data-digit='']").first.click()
            eventually(lambda: page.locator("#hint").inner_text() == "It is not your move.",
                       "the hint on ana's move", shown=bob)
            play_turn(seats)  # 1: ana
            page.wait_for_selector("#status-line.mine")
            expect(page.locator("#hint").inner_text() != "It is not your move.",
                   "the stale hint: 'It is not your move' on bob's move")

            # Cells counted from 1, as the rule pages count them: labels, names, the log.
            labels = page.locator("#board .labels text").all_text_contents()
            expect(sorted(set(labels), key=int) == [str(k) for k in range(1, 10)],
                   f"the board's labels count from 0: {sorted(set(labels), key=int)}")
            name = bob.cell(0, 0).get_attribute("aria-label") or ""
            expect(name.startswith("row 1, column 1, "), f"the first cell named {name!r}")
            first = ana.applied[min(v for v, f in ana.applied.items() if f["type"] in
                                    {"placed", "taken", "exchanged", "swapped"})]
            if "cell" in first:
                r, c = first["cell"]
                log = page.locator("#log").inner_text()
                expect(f"({r + 1},{c + 1})" in log, f"the log's cell counts from 0: {log!r}")

            # The game's id and version are nowhere a player reads them.
            title = page.locator("#game-title").inner_text()
            expect(game not in page.locator("body").inner_text()
                   and not re.search(r"\bv\d+\b", title), f"the game's id shown: {title!r}")
            # Nor in a tooltip or a spoken name (the title's tooltip said "g-… · v3").
            said = page.evaluate(SAID_ASIDE, game)
            expect(said == [], f"the game's id in a tooltip or a spoken name: {said}")
            # The rooms list names Bridge's room once (it said "Bridge Bridge").
            room = page.locator("#rooms li.room[data-room='bridge'] > div").first.inner_text()
            expect("Bridge Bridge" not in room, f"the rooms list: {room!r}")

            play_turn(seats)  # 2: bob
            play_turn(seats)  # 3: ana
            bag_at_3 = bob_seat.bag
            mistake(seats)  # 4: bob (none yet at move 3)
            eventually(lambda: page.locator("#status-line.mine").count() == 0, "ana's move")

            # A watcher from move 4 on still sees moves 1 to 4 (it saw "shown from move 5 on").
            open_with_token(cy, club)
            cy.page.locator(f"#live li.live-game[data-game='{game}'] button.watch").click()
            cy.page.wait_for_selector("#game-title .badge.watching")
            soon(lambda: [line.split(".")[0] for line in
                          cy.page.locator("#log li").all_inner_texts()[:4]] == ["1", "2", "3", "4"],
                 "a watcher's earlier moves missing")
            logged = " ".join(cy.page.locator("#log li").all_inner_texts())
            expect("shown from move" not in logged, f"a watcher's log: {logged!r}")

            # A draw offer: its answers together on one row.
            assert ana_ws.request("offer_draw", game=game)["type"] == "ack"
            accept = page.locator("#actions button.accept-draw")
            accept.wait_for()
            decline = page.locator("#actions button.decline-draw")
            split = []
            for width in range(1280, 700, -10):  # wherever the row wraps
                page.set_viewport_size({"width": width, "height": DESK["height"]})
                page.evaluate(NEXT_FRAMES)
                if abs(box_of(accept)["y"] - box_of(decline)["y"]) >= 2:
                    split.append(width)
            expect(split == [], f"Accept and Decline on two rows at {split} px wide")
            page.set_viewport_size(DESK)
            bob.shot("draw-offer")
            decline.click()
            accept.wait_for(state="detached")

            # Escape takes back "Really resign?" at once: R, Escape, R arms it again (it
            # stayed armed, and the second R resigned).
            page.click("#game-title")  # the keys are the page's, not a field's
            page.keyboard.press("r")
            page.wait_for_selector("#actions button.resign.armed")
            page.keyboard.press("Escape")
            page.evaluate(NEXT_FRAMES)  # the page drawn after the key
            expect(page.locator("#actions button.resign.armed").count() == 0,
                   "Escape left 'Really resign?' armed")
            page.keyboard.press("Escape")
            page.evaluate(NEXT_FRAMES)
            if page.locator("#actions button.resign.armed").count() == 0:
                page.keyboard.press("r")
                page.wait_for_selector("#actions button.resign.armed")
                page.keyboard.press("Escape")

            play_turn(seats)  # 5: ana, her clock running all this while
            # Ana resigns: bob's replay, and no toast over it.
            assert ana_ws.request("resign", game=game)["type"] == "ack"
            page.wait_for_selector("#record:not([hidden]) table.moves")
            page.evaluate(NEXT_FRAMES)
            expect(not page.evaluate(OVERLAP, REPLAY_HEAD), "a toast over the replay")
            record = ana_ws.request("record", game=game)["record"]
            n = len(record["moves"])
            page.click("#replay-first")
            eventually(lambda: page.locator("#record").get_attribute("data-step") == "0", "step 0")
            # Two clicks on Forward within one frame (a quick double click): each counts, from
            # the step the page holds, not the one last drawn (both went to step 1).
            page.evaluate("""() => { document.querySelector('#replay-forward').click();
                                     document.querySelector('#replay-forward').click(); }""")
            eventually(lambda: page.locator("#record").get_attribute("data-step") == "2",
                       "step 2 after two clicks on Forward in one frame")
            page.click("#replay-forward")
            eventually(lambda: page.locator("#record").get_attribute("data-step") == "3", "step 3")
            page.evaluate(NEXT_FRAMES)
            status = page.locator("#status-line").inner_text()
            expect(f"after move 3 of {n}" in status and "to move" in status,
                   f"the replay's status at move 3: {status!r}")
            moves = record["moves"][:3]
            for seat in ("blue", "red"):
                player = page.locator(f"#players .player.{seat}")
                spent = sum(m["time_ms"] or 0 for m in moves if m["seat"] == seat)
                shown = player.locator(".game-clock").inner_text()
                expect(shown == clock(record["options"]["game_ms"] - spent),
                       f"{seat}'s clock at move 3: {shown}")
                wrong = sum(1 for m in moves if m["seat"] == seat and m.get("mistake"))
                mistakes = player.locator(".mistakes").inner_text()
                expect(mistakes == f"{wrong} mistake" + ("" if wrong == 1 else "s"),
                       f"{seat}'s mistakes at move 3: {mistakes}")
            expect(page.locator("#players .presence").count() == 0, "presence in a replay")
            bag = page.locator("#players .bag").inner_text()
            expect(bag == f"bag: {bag_at_3} tile" + ("" if bag_at_3 == 1 else "s"),
                   f"the bag at move 3: {bag} (it was {bag_at_3})")
            expect(page.locator("#result").is_hidden(), "the result shown at move 3")
            lines = page.locator("#log li").all_inner_texts()
            expect([line.split(".")[0] for line in lines] == ["1", "2", "3"],
                   f"the Moves card at move 3: {lines}")
            # The moves table's headers stand apart.
            pads = page.eval_on_selector_all(
                "#record table.moves th",
                "ths => ths.map((th) => parseFloat(getComputedStyle(th).paddingLeft)"
                " + parseFloat(getComputedStyle(th).paddingRight))")
            expect(min(pads) >= 8, f"the replay's headers run together: padding {pads}")
            page.mouse.move(1, 1)
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "replay-midway.png"))
            # At the end: the result, and still no presence.
            page.click("#replay-last")
            page.wait_for_selector("#result:not([hidden])")
            expect(page.locator("#players .presence").count() == 0, "presence at a replay's end")
            assert found == [], "\n".join(found)
            assert bob.problems == [] and cy.problems == [], bob.problems + cy.problems
        finally:
            bob.close()
            cy.close()


def test_the_bot_game_started_from_the_keyboard_takes_the_focus(
        browser: Any, club: LocalServer) -> None:
    """Catches the focus dropped to <body> by Enter on "Play the bot", and a focus drawn
    on the cell's own outline, under its neighbours' edges and like a block's line (each
    noted, so that one run names both)."""
    kit = Page(browser, fresh_name("fm-kit-"), viewport=DESK)
    found: list[str] = []
    try:
        page = kit.page
        open_with_token(kit, club)
        page.wait_for_selector("#b-room option[value=blitz]", state="attached")
        page.select_option("#b-room", "blitz")
        page.focus("#play-bot")
        page.keyboard.press("Enter")
        page.wait_for_selector("#board svg g.cell", timeout=60_000)
        try:
            eventually(lambda: page.evaluate(FOCUSED_CELL) == "0", "the focus on the board")
        except AssertionError:
            found.append(f"the focus after Play the bot: {page.evaluate(FOCUSED_TAG)}")
            page.keyboard.press("b")  # onto the board, to look at its ring
        ring = page.evaluate(RING)
        if not (ring and ring["last"] and ring["shown"] and ring["over"]
                and ring["index"] == ring["cell"] == "0"):
            found.append(f"no focus ring over the focused cell, painted last: {ring}")
        else:
            expect_ring = ring["width"] == "5px" and ring["colour"] != ring["block"]
            if not expect_ring:
                found.append(f"a focus ring like a block's line: {ring}")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowDown")
            ring = page.evaluate(RING)
            if not (ring["index"] == ring["cell"] == "7" and ring["over"] and ring["last"]):
                found.append(f"the ring left behind by the arrows: {ring}")
            kit.shot("focus-ring")
            # A click takes the focus from the board: the ring goes with it.
            page.click("#game-title")
            if page.get_attribute("#board g.focus-ring", "visibility") != "hidden":
                found.append("the ring stays once the board has no focus")
        assert found == [], "\n".join(found)
        assert kit.problems == [], kit.problems
    finally:
        kit.close()
