"""The view a bot keeps from the frames pushed to it (numbridge.bot.tracking), checked
against a fresh ``sync`` through the handlers: at the end of every transition, for both
seats, in whole games of each variant played by the brain on its tracked views, with
the club's offers, an adjournment, a timeout, long absences and every way a game ends.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import Conn, World
from numbridge.bot import Knowledge, decide, observe
from numbridge.bot.tracking import apply_event, tracked_view
from numbridge.rules.seats import SEATS, other
from players import first_moves, start_game
from testkit.tracked_views import check_tracked

MINUTE = 60_000


class Follower:
    """One seat's client: applies each frame of the game it receives, in order, and at
    the end of each transition compares its view with a fresh ``sync``."""

    def __init__(self, world: World, conn: Conn, game: str) -> None:
        self.world, self.conn, self.game = world, conn, game
        [dealt] = [f for f in conn.frames if f["type"] == "state" and f["game"] == game]
        self.view = tracked_view(dealt)
        self.knowledge = observe(Knowledge(), dealt)
        self.read = conn.frames.index(dealt) + 1
        self.checked = 0

    def catch_up(self) -> None:
        while self.read < len(self.conn.frames):
            frame = self.conn.frames[self.read]
            self.read += 1
            if frame.get("game") != self.game or "v" not in frame or "id" in frame:
                continue  # answers, presence, rematch offers: not events pushed
            assert frame["v"] == self.view["v"] + 1, "the harness delivers in order"
            self.view = apply_event(self.view, frame)
            self.knowledge = observe(self.knowledge, frame)
            if frame["v"] == self.world.stored_state(self.game)["v"]:
                self.check()

    def check(self) -> None:
        frames = self.conn.send("sync", game=self.game)
        self.read += len(frames)
        [answer] = frames  # nothing else came meanwhile
        assert answer["type"] == "state" and answer["v"] == self.view["v"], answer
        check_tracked(self.view, answer["view"])
        self.checked += 1

    def ask(self, action: str, **fields: Any) -> None:
        answer = self.conn.ask(action, game=self.game, **fields)
        assert answer["type"] == "ack", (action, fields, answer)


class Table:
    def __init__(self, world: World, room: str, **choices: Any) -> None:
        self.world = world
        ana, bob = world.join("ana"), world.join("bob")
        self.game = start_game(world, room, ana, bob, colour="blue", **choices)
        self.conns = {"blue": ana, "red": bob}
        self.seats = {seat: Follower(world, self.conns[seat], self.game) for seat in SEATS}
        self.rng = random.Random(room)

    def settle(self) -> None:
        for follower in self.seats.values():
            follower.catch_up()

    def act(self, seat: str, action: str, **fields: Any) -> None:
        self.seats[seat].ask(action, **fields)
        self.settle()

    @property
    def mover(self) -> str:
        turn = self.seats["blue"].view["turn"]
        assert turn in SEATS
        return str(turn)

    def move(self, ignoring_offers: bool = False) -> None:
        """The mover's brain decides on its tracked view (an offer lapses if ignored)."""
        seat = self.mover
        follower = self.seats[seat]
        view = follower.view
        if ignoring_offers:
            view = {**view, "offers": {"draw": None, "adjourn": None}}
        if view.get("swap_available"):
            frame: dict[str, Any] | None = {"action": "swap", "game": self.game}
        else:
            frame = decide(view, follower.knowledge, "easy", self.rng)
        assert frame is not None and frame["action"] in {"place", "take", "exchange", "swap"}
        self.act(seat, frame.pop("action"), **{k: v for k, v in frame.items() if k != "game"})

    def time_out(self) -> None:
        """The mover lets its move limit pass; the timer applies it."""
        deadline = self.seats["blue"].view["deadline_ms"]
        self.world.clock.advance(deadline - self.world.clock.now)
        assert self.world.deliver_timers() == {"batchItemFailures": []}
        self.settle()

    @property
    def finished(self) -> bool:
        return bool(self.seats["blue"].view["status"] == "finished")


def decline_a_draw(table: Table) -> None:
    table.act(other(table.mover), "offer_draw")  # type: ignore[arg-type]
    table.act(table.mover, "decline_draw")


def let_a_draw_lapse(table: Table) -> None:
    table.act(other(table.mover), "offer_draw")  # type: ignore[arg-type]
    table.move(ignoring_offers=True)


def adjourn_and_resume(table: Table) -> None:
    table.act(table.mover, "offer_adjourn")
    table.act(other(table.mover), "accept_adjourn")  # type: ignore[arg-type]
    table.act("blue", "resume")
    table.act("red", "resume")


def let_an_adjournment_lapse(table: Table) -> None:
    table.act(other(table.mover), "offer_adjourn")  # type: ignore[arg-type]
    table.move(ignoring_offers=True)


EPISODES = {3: decline_a_draw, 5: let_a_draw_lapse, 7: adjourn_and_resume,
            9: Table.time_out, 11: let_an_adjournment_lapse}


@pytest.mark.parametrize("room", ["bridge", "blitz", "domains"])
def test_a_whole_game_tracked_from_pushed_frames_is_what_sync_says(
    world: World, room: str,
) -> None:
    table = Table(world, room)
    done: set[int] = set()
    for _ in range(400):
        if table.finished:
            break
        moves = table.seats["blue"].view["moves"]
        episode = EPISODES.get(moves)
        if episode is not None and moves not in done:
            done.add(moves)
            episode(table)
        else:
            table.move()
    assert table.finished and done == set(EPISODES)
    kinds = {f["type"] for f in table.conns["red"].frames}
    assert {"placed", "hand", "hidden", "turn", "draw_declined", "draw_lapsed", "adjourned",
            "resume_requested", "resumed", "timeout", "adjourn_lapsed", "finished"} <= kinds
    for follower in table.seats.values():
        assert follower.checked >= table.seats["blue"].view["moves"]


def test_absences_and_the_club_endings_tracked_from_pushed_frames(world: World) -> None:
    # A study game left for 200 minutes: four timeouts adjourn it; it resumes.
    study = Table(world, "study", variant="domains")
    first_moves(world, study.game, {"ana": study.conns["blue"], "bob": study.conns["red"]})
    study.settle()
    world.sqs.sent.clear()  # the server was stopped: no timer is delivered
    world.clock.advance(200 * MINUTE)
    assert world.sweep() == {"advanced": 1}
    study.settle()
    assert study.seats["red"].view["status"] == "adjourned"
    study.act("red", "resume")
    study.act("blue", "resume")
    study.move()
    study.act("red", "resign")
    assert study.seats["blue"].view["result"]["by"] == "resign"

    # A clocked game left for 200 minutes: the catch-up is folded and ends on time.
    clocked = Table(world, "domains")
    first_moves(world, clocked.game, {"ana": clocked.conns["blue"],
                                      "bob": clocked.conns["red"]})
    clocked.settle()
    world.sqs.sent.clear()
    world.clock.advance(200 * MINUTE)
    assert world.sweep() == {"advanced": 1}
    clocked.settle()
    assert "timeouts" in {f["type"] for f in clocked.conns["blue"].frames}
    assert clocked.seats["red"].view["result"]["by"] == "time"

    # A draw agreed while adjourned; an abort before the first moves.
    agreed = Table(world, "bridge")
    agreed.move()
    agreed.act("blue", "offer_adjourn")
    agreed.act("red", "accept_adjourn")
    agreed.act("red", "offer_draw")
    agreed.act("blue", "accept_draw")
    assert agreed.seats["red"].view["result"]["by"] == "agreement"
    aborted = Table(world, "blitz")
    aborted.act("red", "abort")
    assert aborted.seats["blue"].view["result"]["by"] == "aborted"
