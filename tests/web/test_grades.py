"""Difficulty in the lobby, in a real browser: a room's range of grades in its listing,
and the grade a proposal asked for in its entry, in the catalog's words (English and
Greek). The server runs a rooms file with one graded room (ROOMS_CONFIG)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import Page, fresh_name, open_with_token
from client import deal
from e2e_server import LocalServer, serving

REPO = Path(__file__).resolve().parents[2]
CATALOGS = {lang: json.loads((REPO / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
            for lang in ("en", "el")}
LOCALES = {"en": "en-GB", "el": "el-GR"}
ROOMS = """
rooms:
  - id: graded
    title: Graded
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 30000
    game_ms: null
    highlighting: true
    blocks: [regular]
    grades: [naked_single, hidden_single]
  - id: plain
    title: Plain
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 30000
    game_ms: null
    highlighting: true
    blocks: [regular]
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with serving(tmp_path_factory.mktemp("graded"), ROOMS) as server:
        yield server


def say(lang: str, key: str, **params: str) -> str:
    message = str(CATALOGS[lang][key])
    for name, value in params.items():
        message = message.replace("{" + name + "}", value)
    return message


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_lobby_shows_a_rooms_grades_and_a_proposals_asked_grade(
        browser: Any, graded: LocalServer, lang: str) -> None:
    """Catches a proposal entry without the grade it asked for (the one thing that tells
    an acceptor how hard the board will be), a room listing without its range, and either
    shown as its catalog key or only in English."""
    asker = fresh_name("grade-ana-")
    with graded.player(asker) as ana:
        made = ana.request("propose", room="graded", grade="hidden_single")
        assert made["type"] == "proposal" and made["proposal"]["grade"] == "hidden_single"
        player = Page(browser, fresh_name("grade-bob-"), locale=LOCALES[lang])
        try:
            page = player.page
            open_with_token(player, graded)
            entry = page.locator(f"#proposals li.proposal[data-by='{asker}']")
            entry.wait_for()
            reading = CATALOGS[lang]["review.reading.hidden_single"]
            assert say(lang, "proposals.grade", reading=reading) in entry.inner_text()
            room = page.locator("#rooms li.room[data-room='graded']")
            assert say(lang, "room.grades", min=CATALOGS[lang]["review.reading.naked_single"],
                       max=reading) in room.inner_text()
            assert player.problems == [], player.problems
        finally:
            player.close()


def test_the_propose_form_asks_for_a_grade_only_where_the_room_offers_them(
        browser: Any, graded: LocalServer) -> None:
    """Catches a form that offers grades the room does not deal (refused by the server),
    sends a grade to a room without a range, or loses the grade chosen on the way."""
    player = Page(browser, fresh_name("grade-cy-"))
    try:
        page = player.page
        open_with_token(player, graded)
        page.wait_for_selector("#p-room option[value=graded]", state="attached")
        page.select_option("#p-room", "plain")
        assert page.locator("#p-grade-label").is_hidden()
        page.select_option("#p-room", "graded")
        assert page.locator("#p-grade-label").is_visible()
        offered = page.locator("#p-grade option").evaluate_all("os => os.map(o => o.value)")
        assert offered == ["", "naked_single", "hidden_single"]
        page.select_option("#p-grade", "naked_single")
        page.click("#propose")
        mine = page.locator("#proposals li.proposal.mine")
        mine.wait_for()
        said = say("en", "proposals.grade",
                   reading=str(CATALOGS["en"]["review.reading.naked_single"]))
        assert said in mine.inner_text()
        assert player.problems == [], player.problems
    finally:
        player.close()


def test_a_game_in_play_is_listed_with_its_grade(browser: Any, graded: LocalServer) -> None:
    """Catches the live list without the board's grade (the server lists it with each game
    being played)."""
    names = (fresh_name("live-ana-"), fresh_name("live-bob-"))
    with graded.player(names[0]) as ana, graded.player(names[1]) as bob:
        seats = deal(ana, bob, "graded", grade="hidden_single")
        game = seats[names[0]].game
        player = Page(browser, fresh_name("live-cy-"))
        try:
            page = player.page
            open_with_token(player, graded)
            row = page.locator(f"#live li.live-game[data-game='{game}']")
            row.wait_for()
            reading = str(CATALOGS["en"]["review.reading.hidden_single"])
            assert say("en", "game.grade", reading=reading) in row.inner_text()
            assert player.problems == [], player.problems
        finally:
            player.close()
