"""Your move, noticed: a player who allowed notifications gets one (through the service
worker) and a short chime when it becomes their move while the page is hidden; nothing
while it is shown. The screen is asked to stay awake while a game on the clock is shown,
and let go when it ends. The browser's own parts are watched, not replaced: the page's
calls to the audio, the wake lock and the worker's notifications are what is checked."""

from __future__ import annotations

from typing import Any

from browser_kit import (
    Page,
    eventually,
    fresh_name,
    open_with_token,
    play_the_bot,
    shown_game_id,
    version,
)
from e2e_server import LocalServer

# A page that can be told it is hidden (as if another tab were in front), and that counts
# the notes it plays and the wake locks it asks for and lets go.
WATCHED = """
(() => {
  window.__hidden = false;
  Object.defineProperty(Document.prototype, 'hidden',
    { configurable: true, get: () => window.__hidden });
  window.__notes = 0;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__notes += 1;
    return make.call(this);
  };
  window.__locks = { asked: 0, released: 0 };
  if (navigator.wakeLock) {
    navigator.wakeLock.request = async () => {
      window.__locks.asked += 1;
      const lock = new EventTarget();
      lock.release = async () => {
        window.__locks.released += 1;
        lock.dispatchEvent(new Event('release'));
      };
      return lock;
    };
  }
})();
"""
SHOWN = """async () => {
  const registration = await navigator.serviceWorker.getRegistration('/');
  if (!registration) return null;
  return (await registration.getNotifications()).map((n) => [n.tag, n.title, n.body]);
}"""


def test_your_move_noticed_while_hidden_and_the_screen_kept_awake(browser: Any,
                                                                  club: LocalServer) -> None:
    nia = Page(browser, fresh_name("nia"), init_script=WATCHED)
    try:
        page = nia.page
        nia.context.grant_permissions(["notifications"], origin=club.url)
        open_with_token(nia, club)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        play_the_bot(nia, room="blitz", colour="blue")
        game = shown_game_id(nia)
        # On the clock and shown: the screen is asked to stay on.
        eventually(lambda: page.evaluate("() => window.__locks.asked") == 1, "the wake lock asked")
        assert page.get_attribute("html", "data-awake") == "1"

        # Shown: the bot's answer to my first move makes no noise.
        page.wait_for_selector("#status-line.mine")
        page.click("#actions button.exchange")
        page.wait_for_selector("#status-line:not(.mine)")
        page.wait_for_selector("#status-line.mine", timeout=40_000)
        assert page.evaluate("() => window.__notes") == 0
        assert page.evaluate(SHOWN) == []

        # Hidden: the next time it becomes my move, a chime and a notification.
        page.evaluate("() => { window.__hidden = true; }")
        before = version(nia)
        page.click("#actions button.exchange")
        eventually(lambda: version(nia) > before, "my exchange applied")
        page.wait_for_selector("#status-line.mine", timeout=40_000)
        shown = eventually(lambda: page.evaluate(SHOWN), "the notification", 10)
        assert [tag for tag, _title, _body in shown] == [f"move-{game}"], shown
        assert "bot-easy" in shown[0][2]
        assert page.evaluate("() => window.__notes") == 2  # two short notes

        # The game over: the screen may sleep again.
        page.evaluate("() => { window.__hidden = false; }")
        page.click("#actions button.resign")
        page.click("#actions button.resign.armed")
        page.wait_for_selector("#result:not([hidden])")
        eventually(lambda: page.evaluate("() => window.__locks.released") == 1, "the lock let go")
        assert page.get_attribute("html", "data-awake") is None
        assert nia.problems == [], nia.problems
    finally:
        nia.close()
