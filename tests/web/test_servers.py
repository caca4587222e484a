"""A link that names another server: the page asks before it connects to one the player
has not confirmed (nothing connects meanwhile; declining keeps the server it had), keeps
each server's token apart, and may reach only its own origin and the servers confirmed
(Chromium enforces the connect-src the page adds before any socket opens).

Two servers of its own: ``home`` serves the page, ``away`` is the other one, started with
``--public-url`` naming home's origin so that it takes the page's sockets (its Origin)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import Page, fresh_name
from e2e_server import LocalServer, free_port, serving

STORED = "k => localStorage.getItem(k)"
# A socket to `url` opened from the page: the policy violation it causes, if any.
BLOCKED = """(url) => new Promise((resolve) => {
  const seen = (event) => {
    if (event.blockedURI && event.blockedURI.startsWith(url.replace(/\\/$/, ''))) {
      document.removeEventListener('securitypolicyviolation', seen);
      resolve(event.violatedDirective);
    }
  };
  document.addEventListener('securitypolicyviolation', seen);
  try {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); resolve('opened'); };
  } catch (err) {
    resolve(`thrown: ${err.name}`);
  }
  setTimeout(() => resolve(null), 5000);
})"""


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[LocalServer, LocalServer]]:
    for folder in ("home", "away"):
        (tmp_path / folder).mkdir()
    with serving(tmp_path / "home") as home:
        away = LocalServer(tmp_path / "away" / "data", tmp_path / "away",
                           args=["--public-url", home.url])
        away.start()
        try:
            yield home, away
        finally:
            away.kill()


def who(player: Page) -> str:
    return str(player.page.locator("#who").inner_text())


def test_a_link_to_an_unknown_server_asks_first_and_tokens_stay_apart(
        browser: Any, servers: tuple[LocalServer, LocalServer]) -> None:
    home, away = servers
    ana, bea = fresh_name("ana"), fresh_name("bea")
    player = Page(browser, ana)
    sockets: list[str] = []
    player.page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page = player.page
        ana_token, bea_token = home.token(ana), away.token(bea)
        page.goto(f"{home.url}/?token={ana_token}")
        player.wait_connected()
        assert who(player) == f"Playing as {ana}"

        # A link to away, with a token for it: asked first, and nothing connects meanwhile.
        link = f"{home.url}/?server={away.ws_url}&token={bea_token}"
        sockets.clear()
        page.goto(link)
        page.wait_for_selector("#server-ask:not([hidden])")
        assert page.locator("#server-ask-address").inner_text() == away.ws_url
        assert page.evaluate("document.activeElement.id") == "server-stay"
        page.wait_for_timeout(1000)
        assert sockets == [], sockets
        assert page.locator("#app").is_hidden() and page.locator("#login").is_hidden()

        # Declined: the page's own server, as ana (the link's token is not taken either).
        page.click("#server-stay")
        player.wait_connected()
        assert who(player) == f"Playing as {ana}"
        assert page.evaluate(STORED, "numbridge.server") is None
        assert all(url.startswith(home.ws_url) for url in sockets), sockets
        # A server not confirmed is out of reach from the page: Chromium refuses the socket.
        assert page.evaluate(BLOCKED, away.ws_url) == "connect-src"

        # Confirmed: away, as bea; its token kept under its own key.
        sockets.clear()
        page.goto(link)
        page.wait_for_selector("#server-ask:not([hidden])")
        assert sockets == []
        page.click("#server-connect")
        player.wait_connected()
        assert who(player) == f"Playing as {bea}"
        assert page.evaluate(STORED, "numbridge.server") == away.ws_url
        assert sockets and all(url.startswith(away.ws_url) for url in sockets), sockets
        assert page.evaluate(STORED, f"numbridge.token@{away.ws_url}") == bea_token
        assert page.evaluate(STORED, "numbridge.token") == ana_token
        # Another server still unconfirmed is blocked; the confirmed one is reachable.
        elsewhere = f"ws://127.0.0.1:{free_port()}/"
        assert page.evaluate(BLOCKED, elsewhere) == "connect-src"

        # A link to a third server, declined: the stored server stays away.
        page.goto(f"{home.url}/?server={elsewhere}")
        page.wait_for_selector("#server-ask:not([hidden])")
        page.click("#server-stay")
        player.wait_connected()
        assert page.evaluate(STORED, "numbridge.server") == away.ws_url
        assert who(player) == f"Playing as {bea}"

        # Back home: ana's token, untouched by bea's; and away again without a question.
        page.goto(f"{home.url}/?server=")
        player.wait_connected()
        assert who(player) == f"Playing as {ana}"
        page.goto(f"{home.url}/?server={away.ws_url}")
        player.wait_connected()
        assert page.locator("#server-ask").is_hidden()
        assert who(player) == f"Playing as {bea}"
        # The refusals this test asked for are reported on the console; nothing else is.
        problems = [p for p in player.problems if "Content Security Policy" not in p]
        assert problems == [], problems
    finally:
        player.close()
