"""A link that names another server: the page asks before it connects to one the player
has not confirmed (nothing connects meanwhile; declining keeps the server it had), keeps
each server's token apart, and may reach only its own origin and the servers confirmed
(Chromium enforces the connect-src the page adds before any socket opens).

Two servers of its own: ``home`` serves the page, ``away`` is the other one, started with
``--public-url`` naming home's origin so that it takes the page's sockets (its Origin)."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_kit import Page, eventually, fresh_name
from e2e_server import LocalServer, free_port, serving

STORED = "k => localStorage.getItem(k)"
WEB = Path(__file__).resolve().parents[2] / "web"
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
        # free_port: only the address of a server that never runs (nothing binds it; the
        # page must not even try it), unlike one of ours, which binds --port 0 itself.
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


# A stack's managed login, stood in for by the test (Playwright answers its requests; no
# such host exists), and an attacker's. Both https:, as the page requires of a login.
LOGIN = "https://club.auth.eu-west-1.amazoncognito.com"
EVIL = "https://login.evil.example"


def expired_token(name: str) -> str:
    """The ID token the page holds an hour later: expired, so the page renews it from the
    refresh token before it reconnects (the page reads its claims; nobody checks the rest)."""
    return ".".join(
        base64.urlsafe_b64encode(json.dumps(part).encode()).decode().rstrip("=")
        for part in ({"alg": "none"}, {"sub": name, "exp": 1_000_000_000})
    ) + ".x"


STORE_TOKEN = """([key, token]) => {
  localStorage.setItem(key, token);
  sessionStorage.setItem(key, token);
}"""
CONNECT_SRC = """() => [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')]
  .map((meta) => meta.content).join(' ')"""


class FakeLogins:
    """Answers the requests to LOGIN as Cognito would (a sign-in page that sends the
    player straight back with a code; the token endpoint) and records every request to
    LOGIN and to EVIL: method, path and body."""

    def __init__(self, player: Page, tokens: Callable[[], str]) -> None:
        self.tokens = tokens
        self.seen: dict[str, list[tuple[str, str, str]]] = {LOGIN: [], EVIL: []}
        for origin in self.seen:
            player.context.route(f"{origin}/**", self._answer)

    def _answer(self, route: Any) -> None:
        request = route.request
        url = urlsplit(request.url)
        origin = f"{url.scheme}://{url.netloc}"
        self.seen[origin].append((request.method, url.path, request.post_data or ""))
        if origin == EVIL:
            route.fulfill(status=400, body="{}", headers=CORS)
        elif url.path == "/oauth2/authorize":
            asked = parse_qs(url.query)
            back = f"{asked['redirect_uri'][0]}?code=the-code&state={asked['state'][0]}"
            route.fulfill(status=200, content_type="text/html",
                          body=f'<meta http-equiv="refresh" content="0;url={back}">')
        elif url.path == "/oauth2/token" and request.method == "POST":
            route.fulfill(status=200, headers=CORS, body=json.dumps(
                {"id_token": self.tokens(), "refresh_token": "refresh-of-the-player"}))
        else:
            route.fulfill(status=404, body="")

    def refreshes(self, origin: str) -> list[str]:
        return [body for _, path, body in self.seen[origin]
                if path == "/oauth2/token" and "grant_type=refresh_token" in body]


CORS = {"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[str, LocalServer]]:
    """The page as a stack's players get it (docs/aws.md): web/ served by a plain web
    server (no CSP header of `numbridge serve`'s: only the policy the page adds itself
    stands between it and another origin), and the stack's server, which takes the page's
    sockets (`--public-url` names the page's origin). Yields the page's address and it."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "web").symlink_to(WEB)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietFiles, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    (tmp_path / "away").mkdir()
    away = LocalServer(tmp_path / "away" / "data", tmp_path / "away", args=["--public-url", origin])
    try:
        away.start()
        yield f"{origin}/web/", away
    finally:
        away.kill()
        httpd.shutdown()
        httpd.server_close()


class QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_a_link_cannot_swap_a_confirmed_servers_login_and_take_its_refresh_token(
        browser: Any, stack: tuple[str, LocalServer]) -> None:
    """The bug: a link naming a server the browser had confirmed, with `login=` of the
    attacker's, replaced the stored login without asking; when the ID token neared expiry
    the page POSTed its 30-day refresh token to `<login>/oauth2/token` (and the page's own
    policy let it). Now the link is asked about, the login's address shown, and declining
    keeps the login the player confirmed: the refresh token goes there, never elsewhere."""
    site, away = stack
    bea = fresh_name("bea")
    player = Page(browser, bea, service_workers="block")
    logins = FakeLogins(player, lambda: away.token(bea))
    try:
        page = player.page
        # The stack's link, the first time: the question shows the server and its login.
        page.goto(f"{site}?server={away.ws_url}&login={LOGIN}&client=clubclient")
        page.wait_for_selector("#server-ask:not([hidden])")
        assert page.locator("#server-ask-address").inner_text() == away.ws_url
        assert page.locator("#server-ask-login-address").inner_text() == LOGIN
        page.click("#server-connect")
        # Signed in through the managed login (PKCE), and back with a refresh token.
        page.click("#cognito-button")
        player.wait_connected()
        assert who(player) == f"Playing as {bea}"
        assert LOGIN in page.evaluate(CONNECT_SRC)

        # An hour later the ID token has expired, and a link comes: the same server, the
        # attacker's login.
        page.evaluate(STORE_TOKEN, [f"numbridge.token@{away.ws_url}", expired_token(bea)])
        page.goto(f"{site}?server={away.ws_url}&login={EVIL}&client=evilclient")
        eventually(lambda: logins.seen[EVIL] or page.locator("#server-ask:not([hidden])").count(),
                   "the question, or the attacker's login reached")
        assert logins.seen[EVIL] == [], f"the attacker's login was sent {logins.seen[EVIL]}"
        assert page.locator("#server-ask-address").inner_text() == away.ws_url
        assert page.locator("#server-ask-login-address").inner_text() == EVIL
        assert page.evaluate("document.activeElement.id") == "server-stay"

        # Declined: the login confirmed renews the token, and the player plays on.
        before = len(logins.refreshes(LOGIN))
        page.click("#server-stay")
        player.wait_connected()
        assert who(player) == f"Playing as {bea}"
        assert [body for body in logins.refreshes(LOGIN)[before:]
                if "refresh_token=refresh-of-the-player" in body], logins.seen[LOGIN]
        assert EVIL not in page.evaluate(CONNECT_SRC)
        kept = json.loads(page.evaluate(STORED, "numbridge.logins"))
        assert kept == {away.ws_url: {"url": LOGIN, "client": "clubclient"}}
        # Opened again: the attacker's login was not kept either.
        page.goto(site)
        player.wait_connected()
        assert logins.seen[EVIL] == []
        problems = [p for p in player.problems if "Content Security Policy" not in p]
        assert problems == [], problems
    finally:
        player.close()
