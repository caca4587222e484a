"""The club comes to the player (PROTOCOL.md, "Additions 3"), in a real browser against
the real ``numbridge serve``.

- The lobby asks nothing on a timer: over ten minutes of the page's clock in the club,
  only what the player did is sent (the client polled ``proposals`` every 4 s and
  ``live`` every 15 s before); it is subscribed while shown, not during a game, and
  again after a reconnect.
- Quick pairing: one tap in a room on each of two pages deals them a game.
- Challenges: one declined (the challenger is told), one accepted (both boards); one
  sent before its player opened the page, shown when they do and accepted.
- A proposal's link (the page's address with ``?proposal=PID``) offers it to accept.
- A new tab opens the game at the player's move, not their most recent game.
- After a game against the bot, "Play again" deals the same game again.
The club's screenshots (1280x800 and 390x844) go to the README with
``NUMBRIDGE_README_SHOTS=1``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_kit import (
    RECORD_SENT,
    SCREENSHOTS,
    Page,
    eventually,
    fresh_name,
    open_with_token,
    propose,
    sent,
    shown_game_id,
)
from e2e_server import LocalServer

CLUB_SIZES = {"1280x800": {"width": 1280, "height": 800}, "390x844": {"width": 390, "height": 844}}


def actions(frames: list[dict[str, Any]]) -> list[str]:
    return [str(f.get("action")) for f in frames]


def shown_game(player: Page) -> str:
    return shown_game_id(player)


def in_a_game(player: Page) -> None:
    player.page.wait_for_selector("#board svg g.cell", timeout=60_000)


def test_the_lobby_sends_nothing_on_a_timer(browser: Any, club: LocalServer) -> None:
    """Catches polling: ten minutes in the club on the page's clock, and every frame the
    page sent after signing in is one the player asked for (a proposal here)."""
    ana = Page(browser, fresh_name("ana"), RECORD_SENT)
    try:
        ana.page.clock.install()
        open_with_token(ana, club)
        # What signing in asks (rooms, my games, the club's subscription), answered.
        ana.page.wait_for_selector("#rooms li")
        ana.page.clock.run_for(2_000)
        ana.page.wait_for_timeout(300)
        at_rest = len(sent(ana))

        for _ in range(10):  # a minute at a time: the page's timers fire as they would
            ana.page.clock.run_for(60_000)
            ana.page.wait_for_timeout(50)
        # Nothing but the keep-alive docs/aws.md names ("Idle connections"), once: nine
        # minutes after the last frame sent (else API Gateway closes the silent socket at
        # ten), never more often.
        idle = actions(sent(ana)[at_rest:])
        assert idle == ["ping"], f"sent on a timer in ten minutes of the club: {idle}"

        # What the player does is sent, and only that; the keep-alive counts from it.
        propose(ana)
        ana.page.clock.run_for(8 * 60_000)
        ana.page.wait_for_timeout(100)
        assert actions(sent(ana)[at_rest:]) == ["ping", "propose"]
        ana.page.clock.run_for(2 * 60_000)
        ana.page.wait_for_timeout(300)
        after = actions(sent(ana)[at_rest:])
        assert after == ["ping", "propose", "ping"], after
        assert ana.problems == [], ana.problems
    finally:
        ana.close()


def test_quick_pairing_deals_a_game_to_two_pages(browser: Any, club: LocalServer) -> None:
    """Catches a seek that never pairs, or a game dealt that the page does not open."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    try:
        open_with_token(ana, club)
        open_with_token(bob, club)
        ana.page.click("#quick button.quick[data-room=bridge]")
        ana.page.wait_for_selector("#seeking:not([hidden])")
        assert ana.page.get_attribute("#quick button.quick[data-room=bridge]",
                                      "aria-pressed") == "true"
        # Bob's club is told (pushed) that one player waits in Bridge.
        waiting = bob.page.locator("#quick button.quick[data-room=bridge]")
        eventually(lambda: "1 waiting" in waiting.inner_text(), "bob sees ana waiting", shown=bob)
        bob.page.click("#quick button.quick[data-room=bridge]")
        for player, other in ((ana, bob), (bob, ana)):
            in_a_game(player)
            assert player.page.locator("#board svg g.cell").count() == 81
            assert other.name in player.page.locator("#players").inner_text()
            # The game in play is in the header, whose move it is said.
            player.page.wait_for_selector("#in-play button.in-play")
        assert shown_game(ana) == shown_game(bob)
        assert ana.page.locator("#seeking").is_hidden()
        mine = [p for p in (ana, bob) if p.page.locator("#status-line.mine").count()]
        assert len(mine) == 1
        assert mine[0].page.locator("#in-play button.in-play.mine").count() == 1
        assert ana.problems == [] and bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def challenge(player: Page, name: str, room: str = "bridge") -> None:
    player.page.wait_for_selector(f"#c-room option[value={room}]", state="attached")
    player.page.fill("#c-name", name)
    player.page.select_option("#c-room", room)
    player.page.click("#challenge")


def test_a_challenge_declined_then_one_accepted(browser: Any, club: LocalServer) -> None:
    """Catches a challenge that never reaches the player named, a decline the challenger
    never hears of, and an accepted challenge that deals nothing."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    cy = Page(browser, fresh_name("cy"))
    try:
        for player in (ana, bob, cy):
            open_with_token(player, club)
        challenge(ana, bob.name)
        ana.page.wait_for_selector(f"#challenges li.challenge.sent[data-to='{bob.name}']")
        incoming = bob.page.locator(f"#challenges li.challenge.incoming[data-by='{ana.name}']")
        incoming.wait_for()
        assert ana.name in incoming.inner_text()
        # A challenge is private: a third player's club never lists it.
        assert cy.page.locator("#challenges li").count() == 0
        assert cy.page.locator(f"#proposals li.proposal[data-by='{ana.name}']").count() == 0
        if SCREENSHOTS.name != "artifacts":
            club_shots(bob, ana)
        incoming.locator("button.decline").click()
        ana.page.locator(".toast", has_text=f"{bob.name} declined your challenge").wait_for()
        ana.page.wait_for_selector("#challenges li.challenge.sent", state="detached")
        assert incoming.count() == 0

        challenge(ana, bob.name, room="blitz")
        incoming.wait_for()
        incoming.locator("button.accept").click()
        for player in (ana, bob):
            in_a_game(player)
            assert player.page.locator("#board svg g.cell").count() == 36
        assert shown_game(ana) == shown_game(bob)
        assert ana.problems == bob.problems == cy.problems == [], (
            ana.problems + bob.problems + cy.problems)
    finally:
        for player in (ana, bob, cy):
            player.close()


def test_a_challenge_sent_before_the_page_opened_is_shown_and_accepted(
        browser: Any, club: LocalServer) -> None:
    """Catches a challenge pushed once, when it was made, and so never shown to a player
    who was away then (or opens a new tab): the lobby's page lists it, to them only, and
    the challenger's page lists it as sent."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    cy = Page(browser, fresh_name("cy"))
    try:
        open_with_token(bob, club)  # bob has played here, then goes away
        bob.page.goto("about:blank")
        open_with_token(ana, club)
        challenge(ana, bob.name, room="blitz")
        ana.page.wait_for_selector(f"#challenges li.challenge.sent[data-to='{bob.name}']")

        open_with_token(bob, club)
        incoming = bob.page.locator(f"#challenges li.challenge.incoming[data-by='{ana.name}']")
        incoming.wait_for()
        assert ana.name in incoming.inner_text()
        # A new page of ana's lists the challenge she sent; a third player's, nothing.
        tab = ana.context.new_page()
        tab.goto(f"{club.url}/?token={club.token(ana.name)}")
        tab.wait_for_selector(f"#challenges li.challenge.sent[data-to='{bob.name}']")
        assert tab.locator("#challenges li.challenge.incoming").count() == 0
        tab.close()
        open_with_token(cy, club)
        cy.page.wait_for_selector("#quick button.quick")
        cy.page.wait_for_timeout(300)
        assert cy.page.locator("#challenges li").count() == 0

        incoming.locator("button.accept").click()
        for player in (ana, bob):
            in_a_game(player)
            assert player.page.locator("#board svg g.cell").count() == 36
        assert shown_game(ana) == shown_game(bob)
        assert ana.problems == bob.problems == cy.problems == [], (
            ana.problems + bob.problems + cy.problems)
    finally:
        for player in (ana, bob, cy):
            player.close()


CLEAR_TOASTS = """() => {
  document.querySelectorAll('#toasts .toast').forEach((node) => node.remove());
  window.scrollTo(0, 0);
}"""


def club_shots(player: Page, proposer: Page) -> None:
    """The README's club: a challenge waiting, an open proposal, a player seeking."""
    propose(proposer, room="domains", colour="random")
    player.page.wait_for_selector("#proposals li.proposal")
    proposer.page.click("#quick button.quick[data-room=blitz]")
    waiting = player.page.locator("#quick button.quick[data-room=blitz]")
    eventually(lambda: "waiting" in waiting.inner_text() and "nobody" not in waiting.inner_text(),
               "a seeker shown", shown=player)
    for size, viewport in CLUB_SIZES.items():
        player.page.set_viewport_size(viewport)
        player.page.evaluate(CLEAR_TOASTS)
        player.page.wait_for_timeout(200)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(SCREENSHOTS / f"club-{size}.png"))
    player.page.set_viewport_size({"width": 1400, "height": 1000})
    proposer.page.click("#cancel-seek")
    proposer.page.wait_for_selector("#seeking", state="hidden")


def test_the_club_is_above_the_fold(browser: Any, club: LocalServer) -> None:
    """Catches a club whose first things to do (quick pairing, the bot) need a scroll on a
    1280x800 screen."""
    ana = Page(browser, fresh_name("ana"), viewport=CLUB_SIZES["1280x800"])
    try:
        open_with_token(ana, club)
        ana.page.wait_for_selector("#quick button.quick")
        for selector in ("#quick button.quick >> nth=-1", "#play-bot", "#b-level"):
            box = ana.page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 800, (selector, box)
    finally:
        ana.close()


def test_a_proposals_link_offers_it(browser: Any, club: LocalServer) -> None:
    """Catches a link whose proposal is lost on the way in (the address read after the
    sign-in took it apart, or never read)."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    try:
        open_with_token(ana, club)
        propose(ana)
        pid = ana.page.get_attribute("#proposals li.proposal.mine", "data-id")
        bob.page.goto(f"{club.url}/?token={club.token(bob.name)}&proposal={pid}")
        bob.wait_connected()
        assert "proposal=" not in bob.page.url
        bob.page.wait_for_selector("#offered-card:not([hidden])")
        eventually(lambda: ana.name in bob.page.locator("#offered").inner_text(),
                   "the proposal's maker named", shown=bob)
        bob.page.click("#accept-offered")
        for player in (ana, bob):
            in_a_game(player)
        assert shown_game(ana) == shown_game(bob)
        assert ana.problems == bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_a_new_tab_opens_the_game_at_the_players_move(browser: Any, club: LocalServer) -> None:
    """Catches a game in play remembered by one tab only: another tab (or device) opens
    the game where it is the player's move, even when another game is more recent."""
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    try:
        open_with_token(ana, club)
        open_with_token(bob, club)
        propose(ana, colour="blue")  # ana moves first in this one
        bob.page.locator(f"#proposals li.proposal[data-by='{ana.name}'] button.accept").click()
        in_a_game(ana)
        first = shown_game(ana)
        ana.page.wait_for_selector("#status-line.mine")

        # A second, more recent game where bob moves first: ana goes back to the club for it.
        bob.page.click("#to-club")
        propose(bob, colour="blue")
        ana.page.click("#to-club")
        ana.page.locator(f"#proposals li.proposal[data-by='{bob.name}'] button.accept").click()
        eventually(lambda: shown_game(ana) not in ("", first), "ana in the second game", shown=ana)
        second = shown_game(ana)
        assert ana.page.locator("#status-line.mine").count() == 0

        # A new tab of ana's (its own session storage): the first game, at her move.
        tab = ana.context.new_page()
        tab.goto(f"{club.url}/?token={club.token(ana.name)}")
        tab.wait_for_selector("#conn[data-state=open]")
        tab.wait_for_selector("#game-title[data-game]")
        eventually(lambda: tab.locator("#game-title").get_attribute("data-game") == first,
                   f"the tab opens {first} (not {second})")
        tab.wait_for_selector("#status-line.mine")
        chips = tab.locator("#in-play button.in-play")
        eventually(lambda: chips.count() == 2, "both games in the header")
        assert tab.locator("#in-play button.in-play.mine").get_attribute("data-game") == first
        # The header's other game opens with a tap.
        tab.click(f"#in-play button.in-play[data-game='{second}']")
        eventually(lambda: tab.locator("#game-title").get_attribute("data-game") == second,
                   "the second game from the header")
        assert ana.problems == bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()


def test_play_again_after_a_bot_game(browser: Any, club: LocalServer) -> None:
    """Catches "Play again" missing after a bot game, or dealing other options."""
    fay = Page(browser, fresh_name("fay"))
    try:
        open_with_token(fay, club)
        page = fay.page
        page.wait_for_selector("#b-room option[value=blitz]", state="attached")
        page.select_option("#b-level", "easy")
        page.select_option("#b-room", "blitz")
        page.select_option("#b-colour", "red")
        page.click("#play-bot")
        in_a_game(fay)
        first = shown_game(fay)
        page.click("#actions button.resign")
        page.click("#actions button.resign.armed")
        page.wait_for_selector("#result:not([hidden])")
        assert page.locator("#actions button.offer-rematch").count() == 0  # a bot takes none
        page.click("#actions button.play-again")
        eventually(lambda: shown_game(fay) != first, "a new game against the bot", shown=fay)
        in_a_game(fay)
        assert page.locator("#board svg g.cell").count() == 36  # Blitz again
        assert "bot-easy" in page.locator("#players").inner_text()
        page.wait_for_selector("#players .player.red.you")  # the same colour
        assert fay.problems == [], fay.problems
    finally:
        fay.close()


@pytest.mark.parametrize("frame", [
    {"type": "changes", "topic": "lobby", "changes": [{"kind": "online", "players": 42}]},
])
def test_a_pushed_change_is_drawn(browser: Any, club: LocalServer, frame: dict[str, Any]) -> None:
    """Catches `changes` frames routed nowhere (the club drawn only from its first page)."""
    ana = Page(browser, fresh_name("ana"), RECORD_SENT + INJECT)
    try:
        open_with_token(ana, club)
        ana.page.wait_for_selector("#quick button.quick")
        ana.page.evaluate("f => window.__inject(f)", json.loads(json.dumps(frame)))
        eventually(lambda: "42 players online" in ana.page.locator("#online").inner_text(),
                   "the online count drawn", shown=ana)
    finally:
        ana.close()


# Hands the page a frame as if the server had pushed it; drops its socket.
INJECT = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  function Kept(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.__lastSocket = ws;
    sockets.push(ws);
    return ws;
  }
  Kept.prototype = Native.prototype;
  for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Kept[key] = Native[key];
  window.WebSocket = Kept;
  window.__inject = (frame) => window.__lastSocket.onmessage({ data: JSON.stringify(frame) });
  window.__dropSockets = () => { for (const ws of sockets.splice(0)) ws.close(); };
})();
"""


def test_the_club_is_followed_while_shown_and_again_after_a_reconnect(
        browser: Any, club: LocalServer) -> None:
    """Catches a subscription kept during a game (the club's changes paid for while the
    player is not looking), and one lost with a dropped connection (the club frozen)."""
    ana = Page(browser, fresh_name("ana"), RECORD_SENT + INJECT)
    bob = Page(browser, fresh_name("bob"))
    try:
        open_with_token(ana, club)
        eventually(lambda: actions(sent(ana)).count("subscribe") == 1, "subscribed")
        ana.page.select_option("#b-level", "easy")
        ana.page.select_option("#b-room", "blitz")
        ana.page.click("#play-bot")
        in_a_game(ana)
        eventually(lambda: "unsubscribe" in actions(sent(ana)), "unsubscribed during the game")
        assert ana.page.locator("#lobby").is_hidden()
        ana.page.click("#actions button.resign")
        ana.page.click("#actions button.resign.armed")
        ana.page.wait_for_selector("#result:not([hidden])")
        # The game is over: the club comes back beside it, subscribed again.
        eventually(lambda: actions(sent(ana)).count("subscribe") == 2, "subscribed after it")
        ana.page.wait_for_selector("#lobby #quick button.quick")

        ana.page.evaluate("window.__dropSockets()")
        eventually(lambda: actions(sent(ana)).count("subscribe") == 3,
                   "subscribed on the new connection", shown=ana)
        open_with_token(bob, club)
        propose(bob, room="domains")
        ana.page.locator(f"#proposals li.proposal[data-by='{bob.name}']").wait_for()
        assert ana.problems == bob.problems == [], ana.problems + bob.problems
    finally:
        ana.close()
        bob.close()
