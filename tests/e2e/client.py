"""A scripted client for e2e games: it keeps its own copy of the game from the
frames it receives, solves the sudoku from the board it was shown (as a strong
player would — it never sees the solution; ``testkit.sudoku``) and plays
correct tiles (``testkit.moves``).

It applies a game's events strictly by ``v`` and checks the stream as a client
must: an event that never arrives while later ones do is a gap, an event
received twice is a duplicate — both are failures, except the copies a ``sync``
replay may overlap with live pushes (each must be the very event already
applied at that ``v``).
"""

from __future__ import annotations

import time
from typing import Any

from e2e_server import Player
from testkit import moves
from testkit.sudoku import solve

Frame = dict[str, Any]

__all__ = ["Seat", "StreamError", "deal", "play_to_the_end", "play_turn", "solve"]


class StreamError(AssertionError):
    """The events of a game did not arrive once each, in order of ``v``."""


class Seat:
    """One player's side of one game, as that player's frames describe it."""

    def __init__(self, player: Player, state: Frame) -> None:
        self.player = player
        self.game = str(state["game"])
        self.load(state)
        self.solution = solve("".join(self.digits), self.blocks)

    def load(self, state: Frame) -> None:
        view = state["view"]
        assert view["v"] == state["v"]
        self.v = int(state["v"])
        self.size = int(view["size"])
        self.blocks = str(view["blocks"])
        self.you = str(view["you"])
        self.hand = list(view["hand"])
        self.digits = list(view["digits"])
        self.owners = list(view["owners"])
        self.clues = str(view["clues"])
        self.take_price = int(view["options"]["take_price"])
        self.turn = view["turn"]
        self.bag = int(view["bag"])
        self.status = str(view["status"])
        self.result = view["result"]
        self.applied: dict[int, Frame] = {}  # v → the event applied at v
        self.ahead: dict[int, Frame] = {}  # events received before their predecessors
        self.replaying = False  # a sync replay is under way: copies may overlap
        self.overlaps = 0

    def absorb(self, frame: Frame) -> None:
        """Apply the next event (exactly ``v + 1``)."""
        if frame["v"] != self.v + 1:
            raise StreamError(f"{self.name}: v {self.v} then {frame}")
        self.v = int(frame["v"])
        self.applied[self.v] = frame
        kind = frame["type"]
        if kind in {"placed", "taken", "swapped"}:
            r, c = frame["cell"]
            index = r * self.size + c
            self.owners[index] = frame["seat"][0]
            if kind == "placed":
                self.digits[index] = str(frame["digit"])
        elif kind == "hand":
            self.hand = list(frame["hand"])
        elif kind == "turn":
            self.turn, self.bag = frame["turn"], int(frame["bag"])
        elif kind == "finished":
            self.status, self.result = "finished", frame["result"]

    @property
    def name(self) -> str:
        return self.player.name if self.player is not None else "?"

    def receive(self, frame: Frame) -> list[Frame]:
        """Take one event of this game; the events it lets us apply, in order."""
        v = int(frame["v"])
        known = self.applied.get(v) or self.ahead.get(v)
        if v <= self.v or known is not None:
            if not self.replaying:
                raise StreamError(f"{self.name}: v {v} received twice: {frame}")
            if known != frame:
                raise StreamError(f"{self.name}: two different events at v {v}: "
                                  f"{known} and {frame}")
            self.overlaps += 1
            return []
        self.ahead[v] = frame
        ready = []
        while self.v + 1 in self.ahead:
            event = self.ahead.pop(self.v + 1)
            self.absorb(event)
            ready.append(event)
        return ready

    def _next_event(self, timeout: float) -> Frame:
        try:
            # Game events only: a state comes as an answer, presence frames have no v.
            return self.player.expect(lambda f: f.get("game") == self.game
                                      and f.get("type") != "state" and "v" in f, timeout)
        except TimeoutError:
            if self.ahead:
                raise StreamError(f"{self.name}: gap — v {self.v + 1} never came, "
                                  f"later ones did: {sorted(self.ahead)}") from None
            raise

    def catch_up(self, until_v: int | None = None, timeout: float = 30.0) -> None:
        """Apply this game's events in ``v`` order until a turn closes (or ``v``
        reaches ``until_v``)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.receive(self._next_event(max(0.0, deadline - time.monotonic()))):
                if until_v is not None:
                    if self.v >= until_v:
                        return
                elif event["type"] in {"turn", "finished"}:
                    return

    def settle(self, quiet: float = 0.3) -> None:
        """Nothing more of this game is on the way: no stray copy, no event held back."""
        try:
            while True:
                self.receive(self._next_event(quiet))
        except StreamError:
            raise
        except TimeoutError:
            pass
        if self.ahead:
            raise StreamError(f"{self.name}: events beyond a gap: {sorted(self.ahead)}")

    def choose(self) -> tuple[str, dict[str, Any]]:
        fields = moves.choose(size=self.size, digits="".join(self.digits),
                              solution=self.solution, clues=self.clues,
                              owners="".join(self.owners), hand=self.hand,
                              take_price=self.take_price)
        return fields.pop("action"), fields


def play_turn(seats: dict[str, Seat]) -> None:
    """The player to move plays; both players then take in that turn's frames."""
    mover = next(s for s in seats.values() if s.you == s.turn)
    action, fields = mover.choose()
    answer = mover.player.request(action, game=mover.game, **fields)
    assert answer["type"] == "ack", answer
    mover.catch_up()
    for seat in seats.values():
        if seat is not mover:
            seat.catch_up(until_v=mover.v)
    assert len({s.v for s in seats.values()}) == 1
    assert len({"".join(s.digits) for s in seats.values()}) == 1


def play_to_the_end(seats: dict[str, Seat], max_turns: int = 300) -> Seat:
    for _ in range(max_turns):
        seat = next(iter(seats.values()))
        if seat.status == "finished":
            for each in seats.values():
                each.settle()
            return seat
        play_turn(seats)
    raise AssertionError("the game did not finish")


def deal(ana: Player, bob: Player, room: str, **choices: Any) -> dict[str, Seat]:
    """Ana proposes (blue), Bob accepts; each gets a Seat built from its state frame."""
    proposed = ana.request("propose", room=room, colour="blue", **choices)
    assert proposed["type"] == "proposal", proposed
    accepted = bob.request("accept", proposal=proposed["proposal"]["id"], timeout=60)
    assert accepted["type"] == "ack", accepted
    seats = {}
    for player in (ana, bob):
        state = player.expect(lambda f: f["type"] == "state", timeout=60)
        seats[player.name] = Seat(player, state)
    return seats
