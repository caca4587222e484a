"""The reference client in each of its five languages, in a real browser.

For each language a browser whose ``locale`` is that language opens the page:
the sign-in card, the lobby and a game against the bot are worded from that
language's catalog (``web/i18n/<lang>.json``) — the game and its variant named
as the language's rule page names them, no message key left showing — and the
rules link opens that language's rule page. The lobby and the game are saved
as ``lobby-<lang>.png`` and ``game-<lang>.png``: in ``tests/web/artifacts/`` on
every run, and into ``docs/screenshots/`` (the README's) when asked, so that
``make test`` leaves the checkout as it was:

    NUMBRIDGE_README_SHOTS=1 .venv/bin/pytest -p no:xdist tests/web/test_languages.py

Another test switches the language with the header's switcher and finds the
choice remembered over a reload.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_kit import SCREENSHOTS, Page, board_now, eventually, fresh_name, play_the_bot, version
from client import solve
from e2e_server import LocalServer

REPO = Path(__file__).resolve().parents[2]
CATALOGS = {
    lang: json.loads((REPO / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", "el", "it", "bg", "es")
}
SCREEN = {"width": 1280, "height": 900}  # the screenshots' size
LOCALES = {"en": "en-GB", "el": "el-GR", "it": "it-IT", "bg": "bg-BG", "es": "es-ES"}
# Bridge as each rule page (docs/seeds/) names it, and the game's own name.
BRIDGE = {"en": "Bridge", "el": "Γέφυρα", "it": "Ponte", "bg": "Мост", "es": "Puente"}
GAME_NAME = {"en": "Numbridge", "el": "Numbridge", "it": "Numbridge", "bg": "Цифромост",
             "es": "Numbridge"}
RULES_HEADING = {"en": "Numbridge: the rules", "el": "Numbridge: οι κανόνες",  # noqa: RUF001
                 "it": "Numbridge: le regole", "bg": "Цифромост: правилата",
                 "es": "Numbridge: las reglas"}


def say(lang: str, key: str, **params: object) -> str:
    """The catalog's message, filled (the plural form `other` for a count)."""
    message = CATALOGS[lang][key]
    if isinstance(message, dict):
        message = message["other"]
    for name, value in params.items():
        message = message.replace("{" + name + "}", str(value))
    return str(message)


def no_key_shows(page: Any) -> None:
    """A message the catalog lacked would show as its key (``status.your_move``)."""
    text = page.locator("body").inner_text()
    shown = [key for key in CATALOGS["en"] if key in text]
    assert shown == [], shown


def in_language(browser: Any, name: str, lang: str) -> Page:
    """A browser whose language is `lang` (the page has no choice remembered yet)."""
    return Page(browser, fresh_name(name), locale=LOCALES[lang], viewport=SCREEN)


def shoot(page: Any, name: str) -> None:
    """The page from its top, as a player sees it, once the passing toasts are clicked away."""
    for toast in page.locator("#toasts .toast").all():
        toast.click()
    page.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def play_a_few_turns(player: Page, turns: int) -> None:
    """A mistake first (its red mark and log line), then right digits, by clicking."""
    page = player.page
    dealt = board_now(player)
    size = int(len(dealt) ** 0.5)
    solution = solve("".join(c["digit"] or "." for c in dealt), "".join(c["block"] for c in dealt))
    for turn in range(turns):
        eventually(lambda: page.locator("#status-line.mine").count(), "my move", 40)
        cells = board_now(player)
        tiles = page.locator("#hand button.tile")
        hand = [int(tiles.nth(k).get_attribute("data-digit")) for k in range(tiles.count())]
        empty = [int(c["index"]) for c in cells if c["digit"] == "" and c["clue"] == "0"]
        wrong = turn == 0
        k, index = next((k, i) for k, d in enumerate(hand) for i in empty
                        if (solution[i] != str(d)) == wrong)
        if "selected" not in (tiles.nth(k).get_attribute("class") or ""):
            tiles.nth(k).click()
        before, v = page.locator("#log li").count(), version(player)
        player.cell(index // size, index % size).click()
        if page.locator("#place-warning").is_visible():  # a mistake the board contradicts
            page.click("#place-warning-place")
        # The version, not only the log, says the server took the move: till then the
        # status line still says it is mine.
        eventually(lambda b=before, v=v: (version(player) > v
                                          and page.locator("#log li").count() > b),
                   "the move taken and in the log")


@pytest.mark.parametrize("lang", ["en", "el", "it", "bg", "es"])
def test_lobby_and_a_game_in_each_language(browser: Any, club: LocalServer, lang: str) -> None:
    player = in_language(browser, f"ana-{lang}-", lang)
    name = player.name
    try:
        page = player.page
        page.goto(f"{club.url}/")
        page.wait_for_selector("#name-input")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#top h1").inner_text().strip().endswith(GAME_NAME[lang])
        assert page.locator("#name-form h2").inner_text() == say(lang, "signin.title")
        assert page.locator("#language").input_value() == lang
        page.fill("#name-input", name)
        page.fill("#password-input", f"{name}'s password")  # a new name: its account made
        page.click("#name-form button[type=submit]")
        player.wait_connected()
        who = say(lang, "header.playing_as", name=name)
        assert page.locator("#who").inner_text() == who
        assert page.locator("#conn").inner_text() == say(lang, "conn.open")

        # The lobby: rooms named as the rule page names the variants.
        page.wait_for_selector("#rooms li.room[data-room=bridge]")
        assert page.locator("#rooms-card h2").inner_text() == say(lang, "lobby.rooms")
        assert BRIDGE[lang] in page.locator("#rooms li.room[data-room=bridge]").inner_text()
        assert page.locator("#b-room option[value=bridge]").inner_text() == BRIDGE[lang]
        no_key_shows(page)

        # The rules, in this language, one click away.
        href = page.locator("#rules-link").get_attribute("href")
        assert href == f"/web/rules/{lang}"
        with urllib.request.urlopen(f"{club.url}{href}", timeout=10) as answer:
            assert RULES_HEADING[lang] in answer.read().decode("utf-8")
        shoot(page, f"lobby-{lang}")

        # A game against the bot, a few moves in.
        play_the_bot(player, room="bridge")
        assert page.locator("#game-title").inner_text().startswith(BRIDGE[lang])
        assert say(lang, "hand.yours") in page.locator("#hand").inner_text()
        play_a_few_turns(player, 3)
        your_move = say(lang, "status.your_move")
        eventually(lambda: page.locator("#status-line.mine").count()
                   and page.locator("#status-line").inner_text().startswith(your_move),
                   f"my move again, said as {your_move!r}", 40)
        mistake = page.locator("#log li[data-kind=mistake]").first.inner_text()
        assert mistake.split(" ", 1)[1].startswith(say(lang, "log.you", name=name))
        assert say(lang, "action.exchange") in page.locator("#actions").inner_text()
        no_key_shows(page)
        shoot(page, f"game-{lang}")
        assert player.problems == [], player.problems
    finally:
        player.close()


def test_the_switcher_changes_the_language_and_is_remembered(
    browser: Any, club: LocalServer,
) -> None:
    player = in_language(browser, "switcher", "en")
    try:
        page = player.page
        page.goto(f"{club.url}/")
        page.wait_for_selector("#name-input")
        assert page.locator("#name-form h2").inner_text() == say("en", "signin.title")
        with page.expect_navigation():
            page.select_option("#language", "bg")
        page.wait_for_selector("#name-input")
        assert page.locator("#name-form h2").inner_text() == say("bg", "signin.title")
        assert page.evaluate("document.documentElement.lang") == "bg"
        page.reload()
        page.wait_for_selector("#name-input")
        assert page.locator("#name-form h2").inner_text() == say("bg", "signin.title")
        assert page.locator("#rules-link").get_attribute("href") == "/web/rules/bg"
        assert player.problems == [], player.problems
    finally:
        player.close()
