"""Record what the web client receives from a real ``numbridge serve``, as fixtures for
its reducer tests (``web/test/fixtures/*.json``, read by ``node --test web/test/``).

Two players, ana (blue) and bob (red), play whole games in each variant
through the server, with mistakes, clue takes, exchanges, the pie rule, draw
and adjournment offers, and cy watching some of them; then a game lost to the
clock while the server was stopped (the folded ``timeouts``) and one adjourned
automatically. Every frame each connection receives is kept in order, and now
and then each asks ``sync`` without ``v``: the ``state`` answers are the views
the reducer must reach by applying the events before them.

    PYTHONPATH=layers/numbridge .venv/bin/python tools/capture_web_fixtures.py

With ``--records`` it writes only ``web/test/fixtures/records/*.json`` instead: the
archive ``record`` of whole games in each variant (one of them against the backend's
easy bot), for the replay tests (web/js/replay.js).

Deterministic in its choices (seeded), not in its boards: the server deals them.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "e2e"), str(REPO / "tests")]  # the e2e client, testkit

from client import solve  # noqa: E402
from e2e_server import LocalServer, Player  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

Frame = dict[str, Any]
OUT = REPO / "web" / "test" / "fixtures"

QUICK_ROOMS = """
rooms:
  - id: bridge
    title: Bridge
    variants:
      bridge: {size: 9, clues: {min: 26, max: 34, default: 30}, take_price: 1}
    move_ms: 45000
    game_ms: 900000
    highlighting: true
    blocks: [regular, irregular]
  - id: blitz
    title: Blitz
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 30000
    game_ms: 300000
    highlighting: true
    blocks: [regular, irregular]
  - id: domains
    title: Domains
    variants:
      domains: {size: 9, clues: {min: 22, max: 34, default: 30}, take_price: 1}
    move_ms: 45000
    game_ms: 1200000
    highlighting: true
    blocks: [regular, irregular]
  - id: quick
    title: Quick (for timeouts)
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 1000
    game_ms: 9000
    highlighting: true
    blocks: [regular]
  - id: quick-study
    title: Quick study (for abandonment)
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 1000
    game_ms: null
    highlighting: true
    blocks: [regular]
"""


class Recording(Player):
    """A player's connection that keeps every frame it receives, in order."""

    def __init__(self, name: str, server: LocalServer) -> None:
        url = f"{server.ws_url}?token={server.token(name)}"
        super().__init__(name, connect(url, open_timeout=10, legacy=True))
        self.stream: list[Frame] = []
        self.v = -1

    def _receive(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{self.name}: nothing matched")
        frame = json.loads(self.ws.recv(timeout=remaining))
        self.stream.append(frame)
        if isinstance(frame.get("v"), int) and frame.get("type") != "state":
            self.v = max(self.v, frame["v"])
        if frame.get("id") is not None:
            self._answers[str(frame["id"])] = frame
        else:
            self.pushed.append(frame)

    def request(self, action: str, timeout: float = 30.0, **fields: Any) -> Frame:
        """As Player's, waiting and asking again when the server says `rate_limited`."""
        while True:
            answer = super().request(action, timeout, **fields)
            if answer.get("code") != "rate_limited":
                return answer
            time.sleep(answer.get("retry_after_ms", 50) / 1000 + 0.05)

    def reconnect(self, server: LocalServer) -> None:
        url = f"{server.ws_url}?token={server.token(self.name)}"
        self.ws = connect(url, open_timeout=10, legacy=True)

    def snapshot(self, game: str) -> Frame:
        """The whole view now, and every event up to it received."""
        state = self.request("sync", game=game)
        assert state["type"] == "state", state
        deadline = time.monotonic() + 20
        while self.v < state["v"] and state["v"] > 0:
            self._receive(deadline)
        self.pushed.clear()
        return state

    def settle(self, until: Callable[[], bool], timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            self._receive(deadline)


class Match:
    """One game between ana and bob, played by a seeded script that knows the solution."""

    def __init__(self, ana: Recording, bob: Recording, room: str, seed: int,
                 variant_options: dict[str, Any] | None = None,
                 watcher: Recording | None = None) -> None:
        self.ana, self.bob = ana, bob
        self.watcher = watcher
        self.rng = random.Random(seed)
        proposal = ana.request("propose", room=room, colour="blue", rated=False,
                               **(variant_options or {}))
        assert proposal["type"] == "proposal", proposal
        assert bob.request("accept", proposal=proposal["proposal"]["id"])["type"] == "ack"
        dealt = ana.expect(lambda f: f["type"] == "state", timeout=60)
        bob.expect(lambda f: f["type"] == "state", timeout=60)
        self.game = dealt["game"]
        view = dealt["view"]
        self.size = view["size"]
        self.solution = solve(view["digits"], view["blocks"])
        self.views = {"blue": ana.snapshot(self.game)["view"],
                      "red": bob.snapshot(self.game)["view"]}
        if watcher is not None:
            assert watcher.request("watch", game=self.game)["type"] == "state"

    def seat(self, seat: str) -> Recording:
        return self.ana if seat == "blue" else self.bob

    def refresh(self) -> None:
        for seat in ("blue", "red"):
            self.views[seat] = self.seat(seat).snapshot(self.game)["view"]
        if self.watcher is not None:
            self.watcher.snapshot(self.game)

    @property
    def view(self) -> Frame:
        return self.views["blue"]

    def act(self, seat: str, action: str, **fields: Any) -> Frame:
        answer = self.seat(seat).request(action, game=self.game, **fields)
        assert answer["type"] == "ack", (action, fields, answer)
        self.refresh()
        return answer

    def empties(self) -> list[int]:
        return [i for i, d in enumerate(self.view["digits"]) if d == "."]

    def free_clues(self) -> list[int]:
        view = self.view
        return [i for i in range(self.size ** 2)
                if view["clues"][i] == "1" and view["owners"][i] == "."]

    def cell(self, index: int) -> list[int]:
        return [index // self.size, index % self.size]

    def move(self, k: int) -> None:
        """One turn of the player to move, chosen by the seeded script."""
        seat = self.view["turn"]
        mine = self.views[seat]
        hand = mine["hand"]
        price = mine["options"]["take_price"]
        roll = self.rng.random()
        if mine.get("swap_available") and self.rng.random() < 0.7:
            self.act(seat, "swap")
            return
        wrong = [(i, d) for d in hand for i in self.empties() if self.solution[i] != str(d)]
        if wrong and roll < 0.1:
            i, d = self.rng.choice(wrong)
            self.act(seat, "place", cell=self.cell(i), digit=d)
            return
        clues = self.free_clues()
        if clues and (not hand or (roll < 0.18 and len(hand) >= price)):
            fields: dict[str, Any] = {"cell": self.cell(self.rng.choice(clues))}
            if hand:
                fields["digit"] = self.rng.choice(hand)
            self.act(seat, "take", **fields)
            return
        if mine["bag"] and (not hand or roll < 0.22):
            self.act(seat, "exchange")
            return
        right = [(i, d) for d in hand for i in self.empties() if self.solution[i] == str(d)]
        i, d = self.rng.choice(right)
        self.act(seat, "place", cell=self.cell(i), digit=d)

    def offers(self, k: int) -> None:
        """Club offers between turns: declined, lapsed, and an adjournment and resume."""
        seat = self.view["turn"]
        them = "red" if seat == "blue" else "blue"
        if k == 3:
            self.act(seat, "offer_draw")
            self.act(them, "decline_draw")
        elif k == 6:
            self.act(them, "offer_draw")  # lapses when `seat` moves
        elif k == 8:
            self.act(seat, "offer_adjourn")
            self.act(them, "accept_adjourn")
            self.act(them, "resume")
            self.act(seat, "resume")
        elif k == 10:
            self.act(them, "offer_adjourn")  # lapses too

    def play(self, turns: int = 400, ending: str = "goal") -> None:
        for k in range(turns):
            if self.view["status"] != "playing":
                return
            self.offers(k)
            if ending == "resign" and k == 12:
                self.act(self.view["turn"], "resign")
                return
            if ending == "agreement" and k == 5:
                self.act("red", "offer_draw")
                self.act("blue", "accept_draw")
                return
            self.move(k)
        raise AssertionError("the game did not end")


COMMON = {"placed", "turn", "hand", "hidden", "ack", "state"}


def thin(stream: list[Frame]) -> list[Frame]:
    """Fewer of the asked-for views (they are most of the bytes): the first and last,
    one every few versions, and each after a rarer event."""
    kept: list[Frame] = []
    last_v = -10
    rare = False
    asked = [i for i, f in enumerate(stream) if f.get("type") == "state" and "id" in f]
    for i, frame in enumerate(stream):
        if i in asked and not (i in (asked[0], asked[-1]) or rare or frame["v"] - last_v >= 5):
            continue
        if frame.get("type") == "state":
            last_v, rare = frame["v"], False
        elif frame.get("type") not in COMMON:
            rare = True
        kept.append(frame)
    return kept


def record(name: str, players: list[Recording], note: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    data = {
        "note": note,
        "players": {player.name: thin(player.stream) for player in players},
    }
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(REPO)}: {sum(len(p.stream) for p in players)} frames")


def fresh_pair(server: LocalServer) -> tuple[Recording, Recording]:
    return Recording("ana", server), Recording("bob", server)


def whole_games(server: LocalServer) -> None:
    plays = [  # the last field: whether cy watches
        ("bridge", "bridge", 11, "goal", {"blocks": "regular"}, True),
        ("blitz", "blitz", 12, "goal", {"blocks": "irregular"}, False),
        ("domains", "domains", 13, "goal", {"blocks": "irregular", "clues": 26}, True),
        ("bridge-resign", "bridge", 14, "resign", {"blocks": "irregular"}, False),
        ("domains-agreement", "domains", 15, "agreement", {"blocks": "regular"}, False),
    ]
    for name, room, seed, ending, options, watched in plays:
        ana, bob = fresh_pair(server)
        cy = Recording("cy", server) if watched else None
        match = Match(ana, bob, room, seed, options, cy)
        match.play(ending=ending)
        match.refresh()
        watching = [cy] if cy else []
        note = f"a {room} game played to its end by {ending}{', cy watching' if cy else ''}"
        record(name, [ana, bob, *watching], note)
        for player in (ana, bob, *watching):
            player.ws.close()


def lost_on_time_while_stopped(server: LocalServer) -> None:
    """Deadlines missed while the server was down: one catch-up, folded into `timeouts`."""
    ana, bob = fresh_pair(server)
    match = Match(ana, bob, "quick", 21)
    match.move(0)
    match.move(1)  # both have moved: no abort, whatever the rules say of a first move
    last = {p.name: p.v for p in (ana, bob)}
    ana.ws.close()
    bob.ws.close()
    server.stop()
    time.sleep(14)
    server.start()
    for player in (ana, bob):
        player.reconnect(server)
        answer_id = player.send("sync", game=match.game, v=last[player.name])
        player.answer(answer_id, timeout=60)
        player.snapshot(match.game)
    assert any(f.get("type") == "timeouts" for f in ana.stream), "no folded catch-up"
    record("timeouts", [ana, bob], "a blitz game lost on time while the server was stopped")
    ana.ws.close()
    bob.ws.close()


def abandoned(server: LocalServer) -> None:
    """No game clock, four turns in a row lost to the clock: adjourned by the rules."""
    ana, bob = fresh_pair(server)
    match = Match(ana, bob, "quick-study", 22)
    match.move(0)
    match.move(1)

    def adjourned(player: Recording) -> Callable[[], bool]:
        return lambda: any(f.get("type") == "adjourned" for f in player.stream)

    for player in (ana, bob):
        player.settle(adjourned(player), timeout=40)
    match.refresh()
    match.act("red", "resume")
    match.act("blue", "resume")
    match.act(match.view["turn"], "resign")
    record("abandoned", [ana, bob], "a study-room blitz game adjourned automatically, resumed")
    ana.ws.close()
    bob.ws.close()


class BotMatch(Match):
    """Ana (blue) against the backend's bot seat: ``propose`` with ``bot``."""

    def __init__(self, ana: Recording, room: str, seed: int, level: str,
                 variant_options: dict[str, Any] | None = None) -> None:
        self.ana = ana
        self.rng = random.Random(seed)
        answer = ana.request("propose", room=room, colour="blue", bot=level,
                             **(variant_options or {}))
        assert answer["type"] == "ack", answer
        dealt = ana.expect(lambda f: f["type"] == "state", timeout=60)
        self.game = dealt["game"]
        view = dealt["view"]
        self.size = view["size"]
        self.solution = solve(view["digits"], view["blocks"])
        self.views = {"blue": ana.snapshot(self.game)["view"]}

    def refresh(self) -> None:
        self.views["blue"] = self.ana.snapshot(self.game)["view"]

    def play(self, turns: int = 400, ending: str = "goal") -> None:
        deadline = time.monotonic() + 300
        while self.view["status"] == "playing":
            assert time.monotonic() < deadline, "the bot game did not end"
            if self.view["turn"] == "blue":
                self.move(0)
            else:
                time.sleep(0.2)
                self.refresh()


def archive(player: Recording, game: str) -> Frame:
    """The game's archive record (it may lag the `finished` event by a moment)."""
    for _ in range(40):
        answer = player.request("record", game=game)
        if answer["type"] == "record":
            return dict(answer["record"])
        time.sleep(0.25)
    raise AssertionError(f"no record of {game}: {answer}")


def records(server: LocalServer) -> None:
    """Finished games' records, for the replay tests."""
    out = OUT / "records"
    out.mkdir(parents=True, exist_ok=True)
    plays = [
        ("bridge", "bridge", 31, "goal", {"blocks": "regular"}),
        ("blitz", "blitz", 32, "goal", {"blocks": "irregular"}),
        ("domains", "domains", 33, "goal", {"blocks": "irregular", "clues": 26}),
        ("bridge-resign", "bridge", 34, "resign", {"blocks": "irregular"}),
    ]
    for name, room, seed, ending, options in plays:
        ana, bob = fresh_pair(server)
        match = Match(ana, bob, room, seed, options)
        match.play(ending=ending)
        save_record(out / f"{name}.json", archive(ana, match.game))
        ana.ws.close()
        bob.ws.close()
    ana = Recording("ana", server)
    match = BotMatch(ana, "blitz", 35, "easy", {"blocks": "regular"})
    match.play()
    save_record(out / "blitz-bot.json", archive(ana, match.game))
    ana.ws.close()


def save_record(path: Path, data: Frame) -> None:
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(REPO)}: {len(data['moves'])} moves, {data['result']}")


def main() -> None:
    only_records = "--records" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        rooms = Path(tmp) / "rooms.yaml"
        rooms.write_text(QUICK_ROOMS)
        env = {"ROOMS_CONFIG": str(rooms)}
        if only_records:
            env["BOT_DELAY_MS"] = "0"
        server = LocalServer(Path(tmp) / "data", Path(tmp), env=env)
        server.start()
        try:
            if only_records:
                records(server)
                return
            whole_games(server)
            abandoned(server)
            lost_on_time_while_stopped(server)
        finally:
            server.kill()


if __name__ == "__main__":
    main()
