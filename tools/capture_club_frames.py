"""The club's frames as a real ``numbridge serve`` sends them, recorded for the web
client's Node tests (web/test/club-frames.json, read by web/test/club.test.js).

cy subscribes to the lobby; ana proposes, seeks, cancels, and plays bob (a proposal
accepted); ana challenges bob, who declines. cy's `lobby` page and every `changes`
frame it is pushed are kept in order, with the `lobby` page a second subscription
answers at the end: the first page with the changes applied must be that page.
bob's `challenge` and ana's `declined` are kept too; then ana challenges bob again
and each subscribes afresh: the pages that list the challenge to bob (`challenges`) and
the one ana sent (`challenged`).

    PYTHONPATH=layers/numbridge .venv/bin/python tools/capture_club_frames.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import LocalServer  # noqa: E402

OUT = REPO / "web" / "test" / "club-frames.json"
# The server sends each change within 2 s of it (PROTOCOL.md): waited for, then a little more.
SETTLE_S = 3.0


def changes_until(player: Any, done: Any, timeout: float = 20.0) -> list[dict[str, Any]]:
    """The `changes` frames pushed to ``player`` until ``done(frames)`` holds."""
    frames: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while not done(frames):
        left = deadline - time.monotonic()
        frames.append(player.expect(lambda f: f.get("type") == "changes", timeout=max(left, 0.1)))
    return frames


def kinds(frames: list[dict[str, Any]]) -> list[str]:
    return [c["kind"] for f in frames for c in f["changes"]]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LocalServer(Path(tmp) / "data", Path(tmp))
        server.start()
        try:
            with server.player("cy") as cy, server.player("ana") as ana, \
                    server.player("bob") as bob:
                first = cy.request("subscribe", topic="lobby")
                pushed: list[dict[str, Any]] = []

                proposal = ana.request("propose", room="bridge", colour="blue")["proposal"]
                pushed += changes_until(cy, lambda fs: "proposal_added" in kinds(fs))
                seek = ana.request("seek", room="blitz")
                pushed += changes_until(cy, lambda fs: "seeks" in kinds(fs))
                ana.request("cancel_seek", seek=seek["seek"]["id"])
                pushed += changes_until(
                    cy, lambda fs: [c for f in fs for c in f["changes"]
                                    if c["kind"] == "seeks" and c["waiting"] == 0])
                bob.request("accept", proposal=proposal["id"])
                pushed += changes_until(cy, lambda fs: "live_added" in kinds(fs)
                                        and "proposal_removed" in kinds(fs))

                challenge = ana.request("propose", room="bridge", to="bob")["proposal"]
                pushed_challenge = bob.expect(lambda f: f.get("type") == "challenge")
                bob.request("decline", proposal=challenge["id"])
                declined = ana.expect(lambda f: f.get("type") == "declined")
                ana.request("propose", room="blitz", to="bob")
                bob.expect(lambda f: f.get("type") == "challenge")
                to_bob = bob.request("subscribe", topic="lobby")
                by_ana = ana.request("subscribe", topic="lobby")

                time.sleep(SETTLE_S)
                while True:  # whatever else came (the online count), kept in order
                    try:
                        pushed.append(cy.expect(lambda f: f.get("type") == "changes",
                                                timeout=0.5))
                    except TimeoutError:
                        break
                with server.player("cy") as again:
                    last = again.request("subscribe", topic="lobby")
            record = {
                "note": "recorded by tools/capture_club_frames.py from a real numbridge serve",
                "first": first, "changes": pushed, "last": last,
                "challenge": pushed_challenge, "declined": declined,
                "to_bob": to_bob, "by_ana": by_ana,
            }
            OUT.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
            print(OUT.relative_to(REPO), kinds(pushed))
        finally:
            server.kill()


if __name__ == "__main__":
    main()
