"""The coach's review in the replay, in a real browser and in each of the five languages.

Two players play a Blitz game to the end over the WebSocket (the e2e client); the local
server reviews it as soon as it ends. Each language's browser then opens the game from
"My games": the replay shows the coach's summary (the board's grade, each player's
placements proven, guesses, avoidable mistakes, the race's turning moves) and each
step's move with the coach's word on it, every word from that language's catalog.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_kit import Page, eventually, fresh_name, open_with_token
from client import deal, play_to_the_end
from e2e_server import LocalServer

REPO = Path(__file__).resolve().parents[2]
CATALOGS = {
    lang: json.loads((REPO / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", "el", "it", "bg", "es")
}
LOCALES = {"en": "en-GB", "el": "el-GR", "it": "it-IT", "bg": "bg-BG", "es": "es-ES"}


@pytest.fixture(scope="module")
def reviewed(club: LocalServer) -> dict[str, Any]:
    """A finished Blitz game's players and its record, once reviewed."""
    names = {"blue": fresh_name("rev-ana-"), "red": fresh_name("rev-bob-")}
    with club.player(names["blue"]) as ana, club.player(names["red"]) as bob:
        seats = deal(ana, bob, "blitz", blocks="regular")
        game = play_to_the_end(seats).game

        def review() -> dict[str, Any] | None:
            record = ana.request("record", game=game)["record"]
            return record if "review" in record else None

        record = eventually(review, "the game's review stored")
    return {"names": names, "game": game, "record": record}


def say(lang: str, key: str, **params: object) -> str:
    message = CATALOGS[lang][key]
    if isinstance(message, dict):
        message = message["other"]
    for name, value in params.items():
        message = message.replace("{" + name + "}", str(value))
    return str(message)


@pytest.mark.parametrize("lang", ["en", "el", "it", "bg", "es"])
def test_the_replay_shows_the_coachs_review_in_each_language(
        browser: Any, club: LocalServer, reviewed: dict[str, Any], lang: str) -> None:
    """Catches a replay that drops the review (or shows it only in English), a summary
    of the wrong player, a step whose words lack the coach's label, and a catalog key
    showing in place of a word."""
    record, names = reviewed["record"], reviewed["names"]
    player = Page(browser, names["blue"], locale=LOCALES[lang])
    try:
        page = player.page
        open_with_token(player, club)
        row = page.locator("#games li.game-row[data-status=finished]").first
        row.wait_for()
        row.locator("button.open").click()
        page.wait_for_selector("#record:not([hidden]) #replay-review")
        review = page.locator("#replay-review").inner_text()
        assert say(lang, "review.title") in review
        grade = say(lang, f"review.reading.{record['grade']}")
        assert say(lang, "review.grade", reading=grade) in review
        blue = record["review"]["summary"]["blue"]
        assert say(lang, "review.summary", name=names["blue"], proven=blue["proven"],
                   placements=blue["placements"], guesses=blue["guesses"],
                   paid=blue["guesses_paid"], avoidable=blue["avoidable_mistakes"]) in review
        assert names["red"] in review
        # The first move, as the coach saw it: its reading, and the race after it.
        first = record["review"]["moves"][0]
        page.click("#replay-first")
        page.click("#replay-forward")
        eventually(lambda: page.locator("#record").get_attribute("data-step") == "1", "step 1")
        where = page.locator("#replay-where").inner_text()
        if first["reading"] is not None and first["reading"] != "guess":
            assert say(lang, f"review.reading.{first['reading']}") in where, where
        race = say(lang, "review.race", blue=names["blue"], blue_cells=first["race"]["blue"],
                   red=names["red"], red_cells=first["race"]["red"])
        assert race in where, where
        text = page.locator("body").inner_text()
        assert [key for key in CATALOGS["en"] if key.startswith("review.") and key in text] == []
        player.shot(f"replay-review-{lang}")
        assert player.problems == [], player.problems
    finally:
        player.close()


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_game_header_shows_the_boards_grade(browser: Any, club: LocalServer,
                                                lang: str) -> None:
    """Catches a game header without the board's grade (it is in every view), a grade of
    another board, and the grade shown as its catalog key or only in English."""
    names = {"blue": fresh_name("hdr-ana-"), "red": fresh_name("hdr-bob-")}
    with club.player(names["blue"]) as ana, club.player(names["red"]) as bob:
        seats = deal(ana, bob, "blitz", blocks="regular")
        game = seats[names["blue"]].game
        view = ana.request("sync", game=game)["view"]
        player = Page(browser, names["blue"], locale=LOCALES[lang])
        try:
            page = player.page
            open_with_token(player, club)
            # Opened by its button among the games in play: My games is in the club, hidden
            # while a game is shown (here the game at ana's move), and its row came into
            # view only when the game was aborted 30 s on, as the wait for it ran out.
            page.click(f"#in-play button.in-play[data-game='{game}']")
            badge = page.locator("#game-title .badge.grade")
            badge.wait_for()
            assert badge.get_attribute("data-grade") == view["grade"]
            reading = say(lang, f"review.reading.{view['grade']}")
            assert badge.inner_text() == say(lang, "game.grade", reading=reading)
            # The game's id and version are kept out of sight, in the title's data.
            assert game not in page.locator("#game-title").inner_text()
            assert page.locator("#game-title").get_attribute("data-game") == game
            assert player.problems == [], player.problems
        finally:
            player.close()
