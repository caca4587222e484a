"""Ways into a player's page other than its own sign-in: a link's `?token=` (it asks
before it switches the player), and the sign-in form's fields (a name in Greek or
Cyrillic reaches the server whole, a password's length is advised and kept whole).

The form's answers from `POST /local/token` are the server's typed refusals, answered here
by the test (Playwright's route) so that what the page makes of each is what is checked."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from browser_kit import Page, axe_violations, blocking, eventually, fresh_name, open_with_token
from e2e_server import LocalServer

STORED_PLAYER = """() => {
  const token = localStorage.getItem('numbridge.token') || '';
  try {
    return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).sub;
  } catch (_) {
    return null;
  }
}"""
FOCUSED = "document.activeElement.id"
# The page's English words, as the test expects to read them.
EN = json.loads((Path(__file__).resolve().parents[2] / "web" / "i18n" / "en.json")
                .read_text("utf-8"))


def who(player: Page) -> str:
    return str(player.page.locator("#who").inner_text())


def test_a_token_in_a_link_asks_before_it_switches_the_player(
        browser: Any, club: LocalServer) -> None:
    """The bug: `/?token=T` signed the page in as whoever T names without asking (login
    CSRF: a link makes the player play, unknowingly, as the sender's account). Now a token
    naming another player than the page plays as shows both names, nothing connects
    meanwhile, and declining keeps the player."""
    ana, mal = fresh_name("ana"), fresh_name("mal")
    player = Page(browser, ana)
    sockets: list[str] = []
    player.page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page = player.page
        open_with_token(player, club)  # nobody played on this page yet: nothing to ask
        assert who(player) == f"Playing as {ana}"
        # A fresh token of the same player: nothing to ask either.
        page.goto(f"{club.url}/?token={club.token(ana)}")
        player.wait_connected()
        assert page.locator("#player-ask").is_hidden()

        # Somebody else's token: asked, both names shown, the token out of the address.
        sockets.clear()
        page.goto(f"{club.url}/?token={club.token(mal)}")
        page.wait_for_selector("#player-ask:not([hidden])")
        text = page.locator("#player-ask-text").inner_text()
        assert text == f"This link signs the page in as {mal}. You are playing as {ana}.", text
        assert page.locator("#player-stay").inner_text() == f"Stay as {ana}"
        assert page.locator("#player-switch").inner_text() == f"Play as {mal}"
        assert page.evaluate(FOCUSED) == "player-stay"  # Enter alone switches nobody
        assert "token=" not in page.url
        assert sockets == [], sockets  # the question comes before any socket
        assert page.locator("#app").is_hidden() and page.locator("#login").is_hidden()

        # Declined: ana plays on, and stays ana after a reload.
        page.click("#player-stay")
        player.wait_connected()
        assert who(player) == f"Playing as {ana}"
        assert page.evaluate(STORED_PLAYER) == ana
        page.reload()
        player.wait_connected()
        assert who(player) == f"Playing as {ana}"
        assert page.locator("#player-ask").is_hidden()

        # Asked again and taken: the page plays as mal.
        page.goto(f"{club.url}/?token={club.token(mal)}")
        page.wait_for_selector("#player-ask:not([hidden])")
        page.click("#player-switch")
        player.wait_connected()
        assert who(player) == f"Playing as {mal}"
        assert page.evaluate(STORED_PLAYER) == mal
        assert player.problems == [], player.problems
    finally:
        player.close()


def test_the_question_about_switching_player_is_fit_for_a_screen_reader(
        browser: Any, club: LocalServer) -> None:
    """The bug it catches: a card a screen reader does not announce as a question (no
    dialog, no name, the names out of its text), so its user switches player unawares.
    The card is a dialog named by its title, with both names in its text: axe-core
    finds nothing serious or critical in it (its context bypasses the page's policy only
    to inject axe)."""
    ana, mal = fresh_name("ana"), fresh_name("mal")
    player = Page(browser, ana, bypass_csp=True)
    try:
        open_with_token(player, club)
        player.page.goto(f"{club.url}/?token={club.token(mal)}")
        player.page.wait_for_selector("#player-ask:not([hidden])")
        assert blocking(axe_violations(player)) == []
        assert player.page.get_by_role("dialog", name=EN["switch.title"]).is_visible()
    finally:
        player.close()


class SignInAnswers:
    """Answers `POST /local/token` with the refusals queued, recording what was sent."""

    def __init__(self, player: Page, club: LocalServer) -> None:
        self.sent: list[dict[str, Any]] = []
        self.queued: list[tuple[int, dict[str, Any]]] = []
        player.page.route(f"{club.url}/local/token", self._answer)

    def _answer(self, route: Any) -> None:
        self.sent.append(json.loads(route.request.post_data or "{}"))
        status, body = self.queued.pop(0)
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


def submit(player: Page, name: str, password: str) -> str:
    """Sign-in with `name` and `password`: the problem the page then says."""
    page = player.page
    page.evaluate("() => { document.querySelector('#login-problem').textContent = ''; }")
    page.fill("#name-input", name)
    page.fill("#password-input", password)
    page.click("#name-form button[type=submit]")
    return str(eventually(lambda: page.locator("#login-problem").inner_text(),
                          "a problem said", shown=player))


def test_the_name_field_takes_greek_and_cyrillic_names_and_cuts_none(
        browser: Any, club: LocalServer) -> None:
    """The bugs: the form's rule was ASCII (`[A-Za-z0-9_.-]{1,32}`), so "Γιώργος" and
    "Пламен" never reached the server, and `maxlength="32"` cut a longer name silently.
    Now such names are sent (in NFC), a name too long is kept whole and refused with the
    rule, and the server's typed answers (`name_taken`, `rate_limited`) are worded."""
    player = Page(browser, "names")
    answers = SignInAnswers(player, club)
    try:
        page = player.page
        page.goto(f"{club.url}/")
        page.wait_for_selector("#name-input")
        password = "a phrase of four words"

        answers.queued.append((409, {"code": "name_taken", "error": "name taken"}))
        assert submit(player, "Γιώργος", password) == EN["signin.name_taken"]
        answers.queued.append((429, {"code": "rate_limited", "error": "slow down",
                                     "retry_after_ms": 5000}))
        # The wait in the language's own unit ("5 sec"): the message up to it, and the 5.
        waiting = EN["signin.rate_limited"].split("{wait}")[0]
        assert submit(player, "Пламен", password).startswith(f"{waiting}5"), waiting
        # Typed with a combining accent: the name is sent as the server reads it (NFC).
        answers.queued.append((409, {"code": "name_taken", "error": "name taken"}))
        submit(player, unicodedata.normalize("NFD", "Γιώργος"), password)
        assert [sent["name"] for sent in answers.sent] == ["Γιώργος", "Пламен", "Γιώργος"]
        assert unicodedata.is_normalized("NFC", answers.sent[-1]["name"])

        # A name too long, typed key by key: all of it stays in the field, and the page
        # says why it cannot be used (nothing is sent).
        long_name = "Пламен" * 6
        field = page.locator("#name-input")
        field.fill("")
        field.press_sequentially(long_name)
        assert field.input_value() == long_name
        page.fill("#password-input", password)
        page.evaluate("() => { document.querySelector('#login-problem').textContent = ''; }")
        page.click("#name-form button[type=submit]")
        eventually(lambda: page.locator("#login-problem").inner_text() == EN["signin.name_rule"],
                   "the name rule said", shown=player)
        assert field.input_value() == long_name
        assert len(answers.sent) == 3
        assert player.problems == [], player.problems
    finally:
        player.close()


def test_the_password_field_advises_15_characters_and_takes_up_to_128(
        browser: Any, club: LocalServer) -> None:
    """The bug: the form advised no length beyond the 8 the server needs, and let a
    password of 256 characters through to a server that takes 128; ASVS 5.0 (V6.2) asks to
    advise 15 or more and take at least 64. Now the hint says 8, 15 and 128, the field
    takes 8 to 128 — one longer is refused and said so, never cut as a maxlength would cut
    a pasted one — and a too short or too weak one is said so in the player's words
    (`weak_password`'s `reason`: which rule it broke)."""
    player = Page(browser, "passwords")
    answers = SignInAnswers(player, club)
    try:
        page = player.page
        page.goto(f"{club.url}/")
        page.wait_for_selector("#password-input")
        field = page.locator("#password-input")
        assert (field.get_attribute("minlength"), field.get_attribute("maxlength")) == ("8", None)
        assert field.get_attribute("aria-describedby") == "password-hint"
        hint = page.locator("#password-hint").inner_text()
        assert "15 or more" in hint and "8" in hint and "128" in hint, hint

        name = fresh_name("pat")
        # Too short: said at once, nothing sent.
        assert submit(player, name, "seven77") == EN["signin.password_short"]
        assert answers.sent == []
        # Too long: said at once, not cut to 128 and sent.
        assert submit(player, name, "p" * 129) == EN["signin.password_long"]
        assert answers.sent == []
        # 128 characters, sent whole; the server finds it a common one, and says so.
        answers.queued.append((400, {"code": "weak_password", "error": "common",
                                     "reason": "common"}))
        assert submit(player, name, "p" * 128) == EN["signin.password_common"]
        assert answers.sent == [{"name": name, "password": "p" * 128}]
        # A reason this page does not know (a newer server): the rule in general.
        answers.queued.append((400, {"code": "weak_password", "error": "?", "reason": "new"}))
        assert submit(player, name, "correct horse battery") == EN["signin.weak_password"]
        assert player.problems == [], player.problems
    finally:
        player.close()
