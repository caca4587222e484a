"""A game both players leave: its clocks end it, one timer after another.

Each move nobody makes times out, and the timeout's commit arms the next timer: in AWS
the timeout function sends it to the queue it is itself invoked from, a chain of as many
hops as the game has turns. Lambda's recursive loop detection would stop such a chain
after about 16 hops (and dead-letter the timer, paging the operator), which is why the
timeout and bot functions set ``RecursiveLoop: Allow`` (template.yaml; docs/aws.md,
"Timer chains"). Here the local runtime plays the whole chain of a silent Domains game:
25 hops, past the 16, until a clock runs out.
"""

from __future__ import annotations

from pathlib import Path

from e2e_server import serving

# A second a move: the two first moves are made over the socket within it (a game whose
# first move is lost is aborted, RULES.md §7), with room for a machine many times slower
# than one that needs a few ms (at 400 ms a stall of a third of a second aborted it).
MOVE_MS = 1000
# Each timeout takes a move's time from the mover's clock: after their first moves, 12 of
# them each, and the next of turns of the one whose first move took longer is lost on
# time: 25 timers in a row, in about as long as 61 took at 400 ms.
TIMEOUTS_EACH = 12
SILENT_DOMAINS = f"""\
rooms:
  - id: silent
    title: Silent
    variants:
      domains: {{size: 9, clues: {{min: 22, max: 34, default: 30}}, take_price: 1}}
    move_ms: {MOVE_MS}
    game_ms: {(TIMEOUTS_EACH + 1) * MOVE_MS}
    highlighting: true
    blocks: [regular]
"""


def test_a_silent_domains_game_ends_by_its_clocks_after_a_chain_of_25_timers(
        tmp_path: Path) -> None:
    """Catches: a chain of timers cut short (each timer's run must set the next, past the
    16 hops after which Lambda stops a function-queue-function loop), so a game both
    players left never ends by its clocks."""
    with (serving(tmp_path, SILENT_DOMAINS) as server, server.player("ana") as ana,
          server.player("bob") as bob):
        proposed = ana.request("propose", room="silent", colour="blue", rated=False)
        assert bob.request("accept", proposal=proposed["proposal"]["id"])["type"] == "ack"
        state = ana.expect(lambda f: f["type"] == "state", timeout=60)
        game = state["game"]
        # Each plays a first move at once (an exchange is legal with a full bag); then
        # both fall silent.
        assert ana.request("exchange", game=game)["type"] == "ack"
        assert bob.request("exchange", game=game)["type"] == "ack"
        timeouts: dict[object, dict[str, object]] = {}  # by version: looked at again

        def over(frame: dict[str, object]) -> bool:
            if frame.get("game") == game and frame.get("type") == "timeout":
                timeouts[frame.get("v")] = frame
            return frame.get("game") == game and frame.get("type") == "finished"

        finished = ana.expect(over, timeout=120)
        # Nobody sent a frame after the first moves: every step was a timer's.
        assert len(timeouts) >= 2 * TIMEOUTS_EACH, len(timeouts)
        assert finished["result"]["by"] == "time", finished
        # whoever's first move took longer (a few ms) runs out first
        assert finished["result"]["winner"] in {"blue", "red"}, finished
        final = ana.request("sync", game=game)
        assert final["type"] == "state" and final["view"]["status"] == "finished"

