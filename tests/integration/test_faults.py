"""Faults injected, nothing lost: whole games played while the store throttles, times
out after writes that landed, and the handler dies between the commit and the answer;
while connections drop and frames arrive twice and out of order. Every game still
finishes, every acknowledged move is in it exactly once, and what each player's
frames add up to is the server's own view."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from harness import Conn, World
from numbridge import rules
from numbridge.rules.state import TURN_ACTIONS
from players import choose, current, start_game


class Throttled(Exception):
    """What boto3 raises when DynamoDB keeps throttling after its own retries."""


class FaultyStore:
    """The store, failing now and then: before a write, after a write, or dying after it."""

    def __init__(self, store: Any, rng: random.Random, faults: Counter[str]) -> None:
        self._store = store
        self.rng = rng
        self.faults = faults
        self.armed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def _before(self, kind: str) -> None:
        if self.armed and self.rng.random() < 0.04:
            self.faults[f"{kind} throttled"] += 1
            raise Throttled(f"{kind}: throughput exceeded")

    def _after(self) -> None:
        if not self.armed:
            return
        roll = self.rng.random()
        if roll < 0.07:
            self.faults["timeout after a write that landed"] += 1
            raise TimeoutError("read timeout (the write landed)")
        if roll < 0.14:
            self.faults["killed after the commit"] += 1
            raise SystemExit("the function died after the commit")

    def get(self, pk: str, sk: str) -> Any:
        self._before("read")
        return self._store.get(pk, sk)

    def get_many(self, keys: Any) -> Any:
        self._before("read")
        return self._store.get_many(keys)

    def query(self, *args: Any, **kwargs: Any) -> Any:
        self._before("query")
        return self._store.query(*args, **kwargs)

    def put(self, item: Any, condition: Any = None) -> None:
        self._before("write")
        self._store.put(item, condition)
        self._after()

    def transact(self, writes: Sequence[Any]) -> None:
        self._before("write")
        self._store.transact(writes)
        self._after()


class Client:
    """What a player's frames add up to, taken strictly by v, whatever their order."""

    def __init__(self, state_frame: dict[str, Any]) -> None:
        view = state_frame["view"]
        self.v = state_frame["v"]
        self.digits = list(view["digits"])
        self.owners = list(view["owners"])
        self.size = view["size"]
        self.status = view["status"]
        self.ahead: dict[int, dict[str, Any]] = {}
        self.duplicates = 0

    def receive(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "state":
            if frame["v"] > self.v:
                self.__init__(frame)  # type: ignore[misc]
            return
        if "v" not in frame:
            return
        if frame["v"] <= self.v or frame["v"] in self.ahead:
            self.duplicates += 1
            return
        self.ahead[frame["v"]] = frame
        while self.v + 1 in self.ahead:
            event = self.ahead.pop(self.v + 1)
            self.v += 1
            if event["type"] in {"placed", "taken", "swapped"}:
                index = event["cell"][0] * self.size + event["cell"][1]
                self.owners[index] = event["seat"][0]
                if event["type"] == "placed":
                    self.digits[index] = str(event["digit"])
            elif event["type"] == "finished":
                self.status = "finished"


def delivered(frames: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The frames as a flaky network hands them over: some twice, some late."""
    out = list(frames)
    out += [f for f in frames if rng.random() < 0.15]
    for i in range(len(out) - 1):
        if rng.random() < 0.3:
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


@pytest.mark.parametrize("room", ["bridge", "blitz", "domains"])
def test_faults_lose_nothing_and_apply_nothing_twice(world: World, room: str) -> None:
    rng = random.Random(11)
    faults: Counter[str] = Counter()
    faulty = FaultyStore(world.svc.store, rng, faults)
    world.use_store(faulty)
    conns = {"ana": world.join("ana"), "bob": world.join("bob")}
    devices = {name: [conn.id] for name, conn in conns.items()}
    game = start_game(world, room, conns["ana"], conns["bob"], colour="blue")
    clients = {}
    for name, conn in conns.items():
        clients[name] = Client(conn.ask("sync", game=game))
    faulty.armed = True
    acked = applied_twice = lost = retries = drops = 0
    def calm(read: Any) -> Any:  # the test's own reads see no faults
        faulty.armed = False
        try:
            return read()
        finally:
            faulty.armed = True

    def rejoin(name: str) -> Conn:
        while True:  # a $connect that failed is refused; the phone tries again
            try:
                status, conn = world.connect(name)
            except (SystemExit, Throttled, TimeoutError):
                continue  # API Gateway answers the handshake 500
            if status == 200 and conn is not None:
                return conn

    for step in range(600):
        state = calm(lambda: current(world, game))
        if state.status == "finished":
            break
        assert state.turn is not None
        mover = state.players[state.turn]
        fields = choose(state, rng)
        action = fields.pop("action")
        request_id = f"{room}-{step}"
        before = state.turns_played
        for _attempt in range(30):
            conn = conns[mover]
            try:
                answers = [f for f in conn.send(action, game=game, id=request_id, **fields)
                           if f.get("id") == request_id]
            except SystemExit:
                answers = []  # died after the commit: no answer at all
            if answers and answers[-1]["type"] == "ack":
                break
            assert not answers or answers[-1]["code"] == "internal", answers
            retries += 1
        else:
            raise AssertionError(f"{action} never acknowledged")
        acked += 1
        after = calm(lambda: current(world, game)).turns_played
        applied_twice += after > before + 1
        lost += after < before + 1
        if rng.random() < 0.05:  # a phone drops off and comes back
            drops += 1
            # $disconnect died or failed (API Gateway only logs it): the item expires
            with contextlib.suppress(SystemExit, Throttled, TimeoutError):
                conns[mover].close()
            conns[mover] = rejoin(mover)
            devices[mover].append(conns[mover].id)
    faulty.armed = False
    final = current(world, game)
    assert final.status == "finished", "the game did not finish"
    assert final.turns_played == acked
    assert (applied_twice, lost) == (0, 0)
    # every kind of fault struck at least once in the game
    assert {"killed after the commit", "timeout after a write that landed"} <= set(faults), faults
    assert any(kind.endswith("throttled") for kind in faults), faults
    record = world.svc.archive.get(game)
    assert record is not None
    assert sum(1 for entry in record["moves"] if entry["action"] in TURN_ACTIONS) == acked
    for name, conn in conns.items():
        # Everything every connection of the player received, as the network mangled it,
        # then what a reconnecting client asks for: the events after its last v.
        received = [f for cid in devices[name] for f in world.api.frames[cid]
                    if f.get("game") == game]
        client = clients[name]
        for frame in delivered(received, rng):
            client.receive(frame)
        for frame in conn.send("sync", game=game, v=client.v):
            client.receive(frame)
        view = rules.player_view(final, "blue" if name == "ana" else "red", world.clock())
        assert (client.v, client.status) == (final.v, "finished")
        assert "".join(client.digits) == view["digits"]
        assert "".join(client.owners) == view["owners"]
    print(f"{room}: {acked} moves, {retries} retries, {drops} drops, faults {dict(faults)}")

