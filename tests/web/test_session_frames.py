"""What the reference client really sends over a session: recorded in Chromium against a
real ``numbridge serve``, for the cost model (``python -m bench cost`` reads
``bench/session_frames.json``: docs/cost.md, "A player-hour").

One scripted session, each phase's outgoing frames kept with the page's own clock
(Playwright's fake clock, so that minutes of polling take seconds): signing in, two
minutes in the lobby, proposing and being accepted, a minute in the game without moving,
a move, a dropped socket and the reconnect, a minute watching from a third browser, the
end of the game. The test checks the client still sends what the fixture says (same
actions, same rates); ``NUMBRIDGE_RECORD_SESSION=1`` writes the fixture anew.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from browser_kit import Page, eventually, fresh_name, shown_game_id

FIXTURE = Path(__file__).resolve().parents[2] / "bench" / "session_frames.json"
# What the client sent while it polled the lobby (proposals every 4 s, live games every
# 15 s, in games too), recorded by this test before the lobby was pushed; kept for the
# cost model's polling column.
POLLING_FIXTURE = FIXTURE.with_name("session_frames_polling.json")

# Every frame the page sends, with the page's (fake) clock; the socket can be dropped.
RECORD_SENT = """
(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let action = '?';
    try { action = JSON.parse(data).action || '?'; } catch (e) { /* not JSON */ }
    window.__sent.push({ t: Date.now(), action, bytes: new Blob([data]).size });
    return send.call(this, data);
  };
  const Native = window.WebSocket;
  const sockets = [];
  function Kept(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    sockets.push(ws);
    return ws;
  }
  Kept.prototype = Native.prototype;
  for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Kept[key] = Native[key];
  window.WebSocket = Kept;
  window.__dropSockets = () => { for (const ws of sockets.splice(0)) ws.close(); };
})();
"""


class Recorder:
    """A page's frames, phase by phase (a phase: the frames sent and the page-clock time
    between its start and its end)."""

    def __init__(self, player: Page, *, from_load: bool = False) -> None:
        self.player = player
        self.phases: dict[str, dict[str, Any]] = {}
        # from the page's load on (every frame it sent), or from now
        self._mark = (0 if from_load else len(self._sent()), self._now())

    def _now(self) -> int:
        return int(self.player.page.evaluate("Date.now()"))

    def _sent(self) -> list[dict[str, Any]]:
        return list(self.player.page.evaluate("window.__sent || []"))

    def start(self) -> None:
        self._mark = (len(self._sent()), self._now())

    def end(self, phase: str) -> None:
        first, since = self._mark
        frames = self._sent()[first:]
        self.phases[phase] = {
            "page_ms": self._now() - since,
            "frames": [{"action": f["action"], "bytes": f["bytes"]} for f in frames],
        }
        self.start()


def settle(player: Page, ms: int = 1_500) -> None:
    """Let the page's clock run (its timers fire), then the answers arrive."""
    player.page.clock.run_for(ms)
    player.page.wait_for_timeout(300)


def new_page(browser: Any, name: str) -> Page:
    player = Page(browser, name, RECORD_SENT)
    player.page.clock.install()
    return player


def session(browser: Any, club: Any) -> dict[str, dict[str, Any]]:
    ana_name, bob_name, cy_name = fresh_name("ana"), fresh_name("bob"), fresh_name("cy")
    ana, bob, cy = (new_page(browser, n) for n in (ana_name, bob_name, cy_name))
    try:
        ana.page.goto(f"{club.url}/?token={club.token(ana_name)}")
        ana.wait_connected()
        rec = Recorder(ana, from_load=True)
        settle(ana)
        rec.end("sign_in")

        settle(ana, 120_000)
        rec.end("lobby")

        ana.page.wait_for_selector("#p-room option[value=bridge]", state="attached")
        ana.page.select_option("#p-room", "bridge")
        ana.page.select_option("#p-blocks", "regular")
        ana.page.select_option("#p-colour", "blue")
        ana.page.click("#propose")
        ana.page.wait_for_selector("#proposals li.proposal.mine")
        bob.page.goto(f"{club.url}/?token={club.token(bob_name)}")
        bob.wait_connected()
        # The club's proposals are pushed to it: ana's comes by itself.
        bob.page.locator(
            f"#proposals li.proposal[data-by='{ana_name}'] button.accept").first.click()
        ana.page.wait_for_selector("#board svg g.cell", timeout=60_000)
        settle(ana)
        rec.end("deal")

        settle(ana, 60_000)
        rec.end("game_minute")

        ana.page.wait_for_selector("#status-line.mine")
        ana.page.click("#actions button.exchange")
        bob.page.wait_for_selector("#status-line.mine")
        settle(ana)
        rec.end("move")

        ana.page.evaluate("window.__dropSockets()")
        ana.page.wait_for_selector("#conn[data-state=waiting]")
        eventually(lambda: (settle(ana, 2_000),
                            ana.page.locator("#conn[data-state=open]").count())[1],
                   "ana reconnected")
        settle(ana)
        rec.end("reconnect")

        watcher = Recorder(cy)
        cy.page.goto(f"{club.url}/?token={club.token(cy_name)}")
        cy.wait_connected()
        game = shown_game_id(ana)
        row = cy.page.locator(f"#live li.live-game[data-game='{game}']")
        eventually(row.count, "the game listed to the watcher")
        watcher.start()
        row.locator("button.watch").click()
        cy.page.wait_for_selector("#board svg g.cell")
        settle(cy, 60_000)
        watcher.end("watching_minute")
        cy.page.click("#actions button.unwatch")
        cy.page.wait_for_selector("#app[data-screen=club]")
        settle(cy)
        watcher.end("unwatch")

        rec.start()
        bob.page.click("#actions button.resign")
        bob.page.click("#actions button.resign")  # armed, then confirmed
        ana.page.wait_for_selector("#status-line.finished, .result", timeout=30_000)
        settle(ana, 3_000)
        rec.end("game_end")
        problems = ana.problems + bob.problems + cy.problems
        assert problems == [], problems
        return {**rec.phases, **watcher.phases}
    finally:
        for player in (ana, bob, cy):
            player.close()


def rates(phases: dict[str, dict[str, Any]]) -> dict[str, Counter[str]]:
    return {name: Counter(f["action"] for f in phase["frames"]) for name, phase in phases.items()}


def test_the_session_fixture_is_what_the_client_sends(browser: Any, club: Any) -> None:
    """Catches: the client sending other actions or at other rates than the recorded
    session (a poll or a timer added, the keep-alive's period changed) while the cost
    model still counts the old ones."""
    phases = session(browser, club)
    recorded = {"client": "web/ (the reference client)", "phases": phases}
    if os.environ.get("NUMBRIDGE_RECORD_SESSION") == "1" or not FIXTURE.exists():
        FIXTURE.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))["phases"]
    assert set(fixture) == set(phases)
    for name, counted in rates(phases).items():
        expected = rates(fixture)[name]
        assert set(counted) == set(expected), (name, counted, expected)
        for action, n in expected.items():
            # The polls' count depends on where in their period a phase starts: ±1.
            assert abs(counted[action] - n) <= 1, (name, action, counted[action], n)
