"""The client as an installed app: Chromium finds nothing standing in the way of installing
it (the DevTools protocol's own check), and its service worker opens the page while the
server is down, which the page says, and which it gets over by itself once the server is
back. Its own server: the test stops and starts it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import PHONES, Page, eventually, fresh_name, open_with_token
from e2e_server import LocalServer, serving

KEPT = """async (path) => {
  const names = await caches.keys();
  for (const name of names) {
    if (await (await caches.open(name)).match(path)) return true;
  }
  return false;
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
        for path in ("/", "/web/js/main.js", "/web/style.css", "/web/icons/icon-192.png"):
            eventually(lambda p=path: page.evaluate(KEPT, p), f"{path} kept")

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
