"""The client as an installed app: Chromium finds nothing standing in the way of installing
it (the DevTools protocol's own check), and its service worker opens the page while the
server is down, which the page says, and which it gets over by itself once the server is
back. Its own server: the test stops and starts it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import PHONES, Page, fresh_name, open_with_token
from e2e_server import LocalServer, serving

KEPT = """async (path) => {
  const names = await caches.keys();
  for (const name of names) {
    if (await (await caches.open(name)).match(path)) return true;
  }
  return false;
}"""
# Every file of /web/ the page loaded (modules, styles, catalogs, icons) that no cache holds.
NOT_KEPT = """async () => {
  const here = `${location.origin}/web/`;
  const loaded = [...new Set(performance.getEntriesByType('resource').map((e) => e.name)
    .filter((url) => url.startsWith(here)))];
  const missing = [];
  for (const url of loaded) {
    if (!(await caches.match(url))) missing.push(url);
  }
  return missing;
}"""


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LocalServer]:
    with serving(tmp_path) as local:
        yield local


def test_installable_and_opens_while_the_server_is_down(browser: Any, own_server: LocalServer,
                                                        tmp_path: Path) -> None:
    ivy = Page(browser, fresh_name("ivy"), phone=PHONES["390x844"], profile=tmp_path / "profile")
    try:
        page = ivy.page
        open_with_token(ivy, own_server)
        # The worker takes the page over and keeps what it loaded: the modules too.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        # The worker says when the whole list is stored; then nothing the page loaded is
        # missing (one module missing and the page could not start offline).
        page.wait_for_selector("html[data-offline=ready]", state="attached")
        for path in ("/", "/web/js/main.js", "/web/style.css", "/web/icons/icon-192.png"):
            assert page.evaluate(KEPT, path), f"{path} not kept"
        assert page.evaluate(NOT_KEPT) == []
        # A rules page opened and left is kept as itself, not as the app's page: else the
        # club opened offline as the rules.
        page.goto(f"{own_server.url}/web/rules/en")
        page.wait_for_selector("h1")
        kept_page = page.evaluate("async () => (await (await caches.match('/')).text())")
        assert 'id="app"' in kept_page, "the app's page was replaced in the cache"
        open_with_token(ivy, own_server)

        cdp = ivy.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/web/manifest.webmanifest")
        assert manifest.get("errors", []) == [], manifest["errors"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors

        # The server goes away: the page still opens, and says what is wrong.
        own_server.stop()
        page.reload()
        page.wait_for_selector("#conn[data-state=waiting]")
        assert "connect" in page.locator("#conn").inner_text()
        page.wait_for_selector("#login-problem:not([hidden])")
        assert "does not answer" in page.locator("#login-problem").inner_text()
        ivy.shot("offline")

        # Back: it reconnects without a hand on it, and shows the lobby again.
        own_server.start()
        page.wait_for_selector("#conn[data-state=open]", timeout=40_000)
        page.wait_for_selector("#app:not([hidden])")
        assert page.locator("#login").is_hidden()
        assert ivy.problems == [], ivy.problems
    finally:
        ivy.close()
