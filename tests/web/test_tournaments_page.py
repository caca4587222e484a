"""The club's Tournaments tab in a real browser against the real ``numbridge serve``, its
tournaments made by the host with ``numbridge tournament create`` on the server's data
directory while it runs (PROTOCOL.md, "Additions 3", Tournaments).

- An arena: two players join from the tab and their game opens by itself when the arena
  pairs them; a third page, only watching the table, is pushed the pairing, the result
  and the points; when a game ends the next one opens by itself on both pages.
- A Swiss: listed under Upcoming, joined (and left and joined again) before it starts;
  its game opens by itself at the start; once it is over, the finished game's header
  links to the tournament, whose final table (with its tie-breaks) the link opens.
- The tab asks nothing on a timer (ten minutes of the page's clock with a tournament
  shown send only the keep-alive), works from the keyboard, fits a 360 px phone, and
  axe finds nothing serious in it.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from browser_kit import (
    PHONES,
    RECORD_SENT,
    Page,
    axe_violations,
    blocking,
    eventually,
    fresh_name,
    open_with_token,
    sent,
    shown_game_id,
)
from e2e_server import LocalServer


def create_tournament(club: LocalServer, *args: str) -> str:
    """``numbridge tournament create`` on the running server's store: the new id."""
    done = subprocess.run(
        [sys.executable, "-m", "numbridge", "tournament", "create", *args, *club.store_args()],
        check=True, capture_output=True, text=True, timeout=60)
    return done.stdout.strip().splitlines()[-1]


def start_now(club: LocalServer, tid: str) -> None:
    """``numbridge tournament start``: the tournament's start moved to now; the server's
    sweep starts it."""
    subprocess.run(
        [sys.executable, "-m", "numbridge", "tournament", "start", tid, *club.store_args()],
        check=True, capture_output=True, text=True, timeout=60)


def open_tournament(player: Page, tid: str, status: str = "") -> None:
    """The Tournaments tab, and the tournament `tid` from the list of `status` (any list:
    one made to start now is upcoming until the server's sweep has started it)."""
    page = player.page
    page.click("#tab-tournaments")
    row = page.locator(f"#tournaments{'-' + status if status else ''} li[data-tournament='{tid}']")
    row.wait_for()
    row.locator("button.tournament-open").click()
    page.wait_for_selector("#tournament-page #tournament-facts")


def standings(player: Page) -> dict[str, str]:
    """The table shown: each player's points as written."""
    rows = player.page.locator("#tournament-page table.standings tbody tr")
    return {str(r.get_attribute("data-player")): r.locator("td.score").inner_text()
            for r in rows.all()}


def in_a_game(player: Page) -> None:
    player.page.wait_for_selector("#board svg g.cell", timeout=60_000)


def resign(club: LocalServer, name: str, game: str) -> None:
    """The player resigns from a connection of their own (the page's More menu aside)."""
    with club.player(name) as ws:
        answer = ws.request("resign", game=game)
        assert answer["type"] == "ack", answer


def test_an_arena_pairs_those_who_join_from_the_tab_and_opens_their_games(
        browser: Any, club: LocalServer) -> None:
    """Catches: a join that the arena never pairs, a game dealt to a player on the
    Tournaments tab that does not open (nor the next one after a game ends), and a table
    that shows the pairings and points only when asked again."""
    name = fresh_name("Lunch arena ")
    tid = create_tournament(club, "--kind", "arena", "--room", "bridge", "--minutes", "10",
                            "--unrated", "--name", name)
    ana, bob, cy = (Page(browser, fresh_name(stem)) for stem in ("ana", "bob", "cy"))
    try:
        for player in (ana, bob, cy):
            open_with_token(player, club)
            open_tournament(player, tid)
            assert player.page.locator("#tournament-title").inner_text() == name
        assert cy.page.locator("#tournament-page").inner_text().count("Nobody has joined yet.") == 1
        for player in (ana, bob):
            player.page.click("#tournament-page button.join")
        # Paired by the arena as soon as both are in: each game opens by itself.
        for player in (ana, bob):
            in_a_game(player)
        first = shown_game_id(ana)
        assert first and shown_game_id(bob) == first
        # cy only watches the table: the pairing and both players come by themselves.
        pairing = cy.page.locator(f"#tournament-page .pairings li[data-game='{first}']")
        eventually(lambda: pairing.count() == 1, "cy is shown the pairing", shown=cy)
        assert pairing.get_attribute("data-state") == "playing"
        eventually(lambda: set(standings(cy)) == {ana.name, bob.name}, "both in cy's table",
                   shown=cy)
        assert cy.page.locator("#tournament-page button.join").count() == 1  # cy is not in

        resign(club, ana.name, first)
        # The arena pairs them again at once: the next game opens by itself on both pages.
        eventually(lambda: shown_game_id(ana) not in ("", first), "ana's next game", shown=ana)
        eventually(lambda: shown_game_id(bob) == shown_game_id(ana), "bob's next game", shown=bob)
        in_a_game(ana)
        # cy is pushed the result (bob won) and bob's two points.
        eventually(lambda: pairing.get_attribute("data-state") in ("blue", "red"),
                   "cy is shown the result", shown=cy)
        eventually(lambda: standings(cy).get(bob.name) == "2", "bob's 2 points in cy's table",
                   shown=cy)
        assert standings(cy).get(ana.name) == "0"
        next_game = shown_game_id(ana)
        eventually(lambda: cy.page.locator(
            f"#tournament-page .pairings li[data-game='{next_game}']").count() == 1,
            "cy is shown the next pairing", shown=cy)
        cy.shot("tournament-arena")
        for player in (ana, bob, cy):
            assert player.problems == [], player.problems
    finally:
        for player in (ana, bob, cy):
            player.close()


def test_a_swiss_from_upcoming_to_its_final_table_linked_from_the_game(
        browser: Any, club: LocalServer) -> None:
    """Catches: a tournament not listed before it starts, Join and Leave that the page does
    not follow, a Swiss game that does not open at the start, and a finished tournament
    game with no way to its tournament's final table."""
    name = fresh_name("Evening Swiss ")
    tid = create_tournament(club, "--kind", "swiss", "--room", "bridge", "--rounds", "1",
                            "--starts", "+3600", "--name", name)
    ana, bob = Page(browser, fresh_name("ana")), Page(browser, fresh_name("bob"))
    try:
        for player in (ana, bob):
            open_with_token(player, club)
            open_tournament(player, tid, "upcoming")
            assert "Starts" in player.page.locator("#tournament-when").inner_text()
            assert "1 round" in player.page.locator("#tournament-facts").inner_text()
            player.page.click("#tournament-page button.join")
            player.page.wait_for_selector("#tournament-page button.leave")
            player.page.wait_for_selector("#tournament-page .next-opens")
        eventually(lambda: set(standings(bob)) == {ana.name, bob.name}, "both in the table",
                   shown=bob)
        # Leave, then join again: the button follows each answer.
        ana.page.click("#tournament-page button.leave")
        ana.page.wait_for_selector("#tournament-page button.join")
        ana.page.click("#tournament-page button.join")
        ana.page.wait_for_selector("#tournament-page button.leave")
        row = ana.page.locator(f"#tournaments-upcoming li[data-tournament='{tid}']")
        assert "2 players" in row.inner_text() and "you're in" in row.inner_text()

        # Its start moved to now once both are in (made to start 25 s on, it started
        # before them on a machine slow enough to take that long to open two pages and
        # join): the server starts it, round 1's game opens on both pages, nobody asked.
        start_now(club, tid)
        for player in (ana, bob):
            in_a_game(player)
        game = shown_game_id(ana)
        assert game and shown_game_id(bob) == game
        resign(club, ana.name, game)

        # The finished game stays shown; its header names the tournament, a link.
        link = ana.page.locator("#game-tournament a.tournament-link")
        link.wait_for(timeout=30_000)
        assert link.inner_text() == f"Tournament {name}"
        link.click()
        page = ana.page.locator("#tournament-page")
        eventually(lambda: "Final standings" in page.inner_text(), "the final table", shown=ana)
        assert ana.page.evaluate("document.activeElement.id") == "tournament-title"
        assert ana.page.locator("#tab-tournaments").get_attribute("aria-selected") == "true"
        ranks = page.locator("table.standings tbody tr")
        assert ranks.first.get_attribute("data-player") == bob.name
        assert page.locator("table.standings thead th").last.inner_text() == "Tie-breaks"
        assert page.locator(f".pairings li[data-game='{game}']").get_attribute(
            "data-state") in ("blue", "red")
        ana.page.wait_for_selector(f"#tournaments-finished li[data-tournament='{tid}']")
        ana.shot("tournament-swiss-final")
        for player in (ana, bob):
            assert player.problems == [], player.problems
    finally:
        ana.close()
        bob.close()


def test_the_tab_asks_nothing_on_a_timer_and_serves_a_phone_and_a_keyboard(
        browser: Any, club: LocalServer) -> None:
    """Catches polling from the tab (the lists or the table asked again every so often),
    a tab the arrow keys cannot reach, a table wider than a 360 px phone, and what axe
    finds serious in the tab."""
    name = fresh_name("Sunday round robin ")
    tid = create_tournament(club, "--kind", "round_robin", "--room", "bridge",
                            "--starts", "+3600", "--name", name)
    ana = Page(browser, fresh_name("ana"), RECORD_SENT, phone=PHONES["360x740"],
               bypass_csp=True)
    try:
        ana.page.clock.install()
        open_with_token(ana, club)
        ana.page.wait_for_selector("#rooms li")
        # By keyboard: the Play tab, then the arrow to Tournaments.
        ana.page.focus("#tab-play")
        ana.page.keyboard.press("ArrowRight")
        assert ana.page.evaluate("document.activeElement.id") == "tab-tournaments"
        assert ana.page.get_attribute("#tab-tournaments", "aria-selected") == "true"
        assert ana.page.locator("#quick-card").is_hidden()
        row = ana.page.locator(f"#tournaments-upcoming li[data-tournament='{tid}']")
        row.wait_for()
        row.locator("button.tournament-open").focus()
        ana.page.keyboard.press("Enter")
        ana.page.wait_for_selector("#tournament-page #tournament-facts")
        assert ana.page.evaluate("document.activeElement.id") == "tournament-title"
        join = ana.page.locator("#tournament-page button.join")
        join.focus()
        ana.page.keyboard.press("Enter")
        eventually(lambda: set(standings(ana)) == {ana.name}, "ana in the table", shown=ana)
        ana.page.clock.run_for(2_000)
        ana.page.wait_for_timeout(300)
        at_rest = len(sent(ana))

        for _ in range(10):  # a minute at a time: the page's timers fire as they would
            ana.page.clock.run_for(60_000)
            ana.page.wait_for_timeout(50)
        idle = [str(f.get("action")) for f in sent(ana)[at_rest:]]
        assert idle == ["ping"], f"sent on a timer in ten minutes on the tab: {idle}"

        # A phone: nothing wider than its screen, the table and its buttons on it.
        width = ana.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the tab is {width} px wide on a 360 px phone"
        for selector in ("#tournament-page table.standings", "#tournament-page button.leave",
                         "#tab-tournaments"):
            box = ana.page.locator(selector).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (selector, box)
        found = blocking(axe_violations(ana))
        assert found == [], found
        ana.shot("tournament-phone", full_page=False)
        # Back to Play: the club's lists again, and the table's topic let go.
        before = len(sent(ana))
        ana.page.click("#tab-play")
        ana.page.wait_for_selector("#quick-card", state="visible")
        # Waited for, not given 300 ms: the page sends it when it draws the tab next.
        eventually(lambda: [(f.get("action"), f.get("topic"))
                            for f in sent(ana)[before:]][-1:]
                   == [("unsubscribe", f"tournament:{tid}")], "the table's topic let go",
                   shown=ana)
        assert ana.problems == [], ana.problems
    finally:
        ana.close()


def test_the_table_is_followed_again_after_the_server_restarts(
        browser: Any, club: LocalServer) -> None:
    """Catches a subscription not made again on the new connection: after a restart of
    ``numbridge serve`` the page reconnects by itself, and a pairing made after it still
    reaches the table shown, with no reload."""
    name = fresh_name("Night arena ")
    tid = create_tournament(club, "--kind", "arena", "--room", "bridge", "--minutes", "10",
                            "--unrated", "--name", name)
    cy = Page(browser, fresh_name("cy"), RECORD_SENT)
    try:
        open_with_token(cy, club)
        open_tournament(cy, tid)
        club.restart()
        cy.page.wait_for_selector("#conn[data-state=open]", timeout=60_000)
        topic = f"tournament:{tid}"
        eventually(lambda: [f.get("topic") for f in sent(cy)
                            if f.get("action") == "subscribe"].count(topic) == 2,
                   "the table subscribed again", shown=cy)
        ana, bob = fresh_name("ana"), fresh_name("bob")
        with club.player(ana) as wa, club.player(bob) as wb:
            for ws in (wa, wb):
                assert ws.request("join_tournament", tournament=tid)["type"] == "ack"
            game = wa.expect(lambda f: f.get("type") == "state", timeout=30)["game"]
            eventually(lambda: cy.page.locator(
                f"#tournament-page .pairings li[data-game='{game}']").count() == 1,
                "the pairing pushed after the restart", shown=cy)
            # Both were not in the table when it came: the page was asked for again.
            eventually(lambda: set(standings(cy)) == {ana, bob}, "the newcomers listed", shown=cy)
        assert cy.problems == [], cy.problems
    finally:
        cy.close()
