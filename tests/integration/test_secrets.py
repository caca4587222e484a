"""Hidden information stays hidden: whole games of each variant in which every
kind of frame crosses the wire — pushes, answers, sync replays, repeated
answers, error messages, timeout and sweep pushes, a spectator's frames — and
the ledger then checks every frame each player and watcher received for any
digit, tile or solution they may not know (testkit.hidden). And the check itself
finds each leak it is shown."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from harness import Conn, World
from numbridge import rules
from numbridge.service.usecases import play as play_module
from players import choose, current, start_game


@dataclass(frozen=True)
class Probed:
    final: rules.GameState
    watchers: tuple[Conn, ...]  # from the deal, and from mid-game on (after a sync)


def probe_whole_game(world: World, room: str, seed: int) -> Probed:
    ana, bob = world.join("ana"), world.join("bob")
    eve, fay = world.join("eve"), world.join("fay")  # no seat in the game: watchers
    game = start_game(world, room, ana, bob, colour="blue")
    assert eve.ask("watch", game=game)["type"] == "state"
    conns = {"ana": ana, "bob": bob}
    rng = random.Random(seed)
    last: tuple[Conn, str, dict[str, Any]] | None = None
    for turn in range(1, 600):
        state = current(world, game)
        if state.status == "finished":
            return Probed(state, (eve, fay))
        assert state.turn is not None
        mover = conns[state.players[state.turn]]
        other = bob if mover is ana else ana
        deadline = rules.next_deadline(state)
        assert deadline is not None
        if turn % 5 == 0:  # a sync replay of the last events, from each side
            for conn in (ana, bob):
                assert conn.send("sync", game=game, v=max(0, state.v - 6))[-1]["type"] == "ack"
            assert ana.ask("sync", game=game)["type"] == "state"
            assert fay.send("sync", game=game, v=0)[-1]["type"] == "ack"
        if turn == 8:  # a watcher from mid-game on
            assert fay.ask("watch", game=game)["view"]["v"] == state.v
        if turn % 6 == 0 and "." in state.digits:  # errors that name cells and digits
            hidden = state.digits.index(".")
            cell, right = list(divmod(hidden, state.size)), int(state.board.solution[hidden])
            assert other.ask("place", game=game, cell=cell, digit=right)["code"] == (
                "not_your_turn")
            held = set(state.hand(state.turn))
            missing = next(d for d in range(1, state.size + 1) if d not in held)
            assert mover.ask("place", game=game, cell=cell, digit=missing)["code"] == "illegal"
            assert eve.ask("sync", game=game)["type"] == "state"
            assert eve.ask("candidates", game=game, digit=1)["code"] == "unauthorized"
            if held:
                candidates = mover.ask("candidates", game=game, digit=min(held))
                assert candidates["type"] == "candidates"
        if turn % 9 == 0 and last is not None:  # a repeated request: the stored answer
            conn, rid, fields = last
            assert conn.ask(fields["action"], id=rid, game=game,
                            **{k: v for k, v in fields.items() if k != "action"})["id"] == rid
        if turn > 4 and turn % 11 == 0:  # the move is lost to the clock: the timer
            world.clock.advance(deadline - world.clock.now + 1)
            world.deliver_timers()
            continue
        if turn > 4 and turn % 17 == 0:  # a lost timer message: the sweep
            world.sqs.sent.clear()
            world.clock.advance(deadline - world.clock.now + 1)
            assert world.sweep() == {"advanced": 1}
            continue
        world.clock.advance(1_000)
        fields = choose(state, rng)
        rid = f"t{turn}"
        answer = mover.ask(fields["action"], id=rid, game=game,
                           **{k: v for k, v in fields.items() if k != "action"})
        assert answer == {"type": "ack", "id": rid}, answer
        last = (mover, rid, fields)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("room", ["bridge", "blitz", "domains"])
def test_no_client_learns_a_hidden_fact_in_a_whole_game(world: World, room: str) -> None:
    final = probe_whole_game(world, room, seed=len(room)).final
    assert final.status == "finished" and final.result is not None
    checked = world.check_secrets()
    # Every kind of frame was there to be checked.
    for kind in ("state", "hand", "hidden", "turn", "ack", "error", "timeout", "candidates",
                 "placed", "finished"):
        assert checked[kind], (kind, checked)


def walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) at any depth of a frame (key None inside a list)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield None, item
            yield from walk(item)


@pytest.mark.parametrize("room", ["bridge", "blitz", "domains"])
def test_a_watcher_never_sees_a_hand_the_bag_or_the_solution(world: World, room: str) -> None:
    probed = probe_whole_game(world, room, seed=len(room) + 1)
    game, solution = probed.final.game_id, probed.final.board.solution
    ledger = world.ledger
    for watcher in probed.watchers:
        frames = [f for f in watcher.frames if f.get("game") == game]
        assert {"state", "hidden", "turn", "placed", "finished"} <= {f["type"] for f in frames}
        versions = {f["v"] for f in frames if f["type"] not in {"state", "presence"}}
        first = min(f["v"] for f in frames if f["type"] == "state")
        assert set(range(first + 1, probed.final.v + 1)) <= versions  # nothing missed
        for frame in frames:
            assert frame["type"] != "hand", frame
            assert solution not in json.dumps(frame), frame
            committed = [v for v in ledger.states[game] if v >= frame.get("v", 0)]
            at = ledger.state(game, min(committed))
            # Once the game is over its record is public: tiles may be shown.
            secret_tiles = ([] if at.status == "finished" else
                            [sorted(at.bag), sorted(at.blue.hand), sorted(at.red.hand)])
            for key, value in walk(frame):
                assert key != "hand", frame
                if isinstance(value, list) and len(value) >= 2 and all(
                        type(x) is int for x in value) and key != "cell":
                    assert sorted(value) not in secret_tiles, (key, value, frame)
    world.check_secrets()  # and testkit.hidden's whole scan, these frames included


# --- the check finds what it is shown ------------------------------------------


def a_game(world: World) -> tuple[Conn, Conn, str]:
    ana, bob = world.join("ana"), world.join("bob")
    return ana, bob, start_game(world, "bridge", ana, bob, colour="blue")


def assert_caught(world: World, says: str) -> None:
    with pytest.raises(AssertionError, match=says):
        world.check_secrets()
    world.ledger.posted.clear()  # the world's own teardown check is about the real code


def test_a_hand_event_sent_to_both_players_is_caught(world: World,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    ana, _bob, game = a_game(world)
    world.check_secrets()
    monkeypatch.setattr(play_module, "for_viewer", lambda event, seat: event.frame)
    assert ana.ask("exchange", game=game)["type"] == "ack"
    assert_caught(world, "a hand .* that is not the viewer's own")


def test_an_error_naming_an_empty_cell_and_its_digit_is_caught(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, _bob, game = a_game(world)
    state = current(world, game)
    index = state.digits.index(".")
    r, c = divmod(index, state.size)
    real = rules.apply

    def chatty(s: rules.GameState, seat: Any, action: Any, now: int, rng: Any) -> Any:
        if isinstance(action, rules.Exchange):
            raise rules.IllegalAction(f"try [{r}, {c}] with {state.board.solution[index]}")
        return real(s, seat, action, now, rng)

    monkeypatch.setattr(rules, "apply", chatty)
    assert ana.ask("exchange", game=game)["code"] == "illegal"
    assert_caught(world, "the text names")


def test_a_view_with_the_other_hand_or_a_hidden_digit_is_caught(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, _bob, game = a_game(world)
    real = rules.player_view

    def other_hand(state: rules.GameState, seat: Any, now: int) -> dict[str, Any]:
        view = real(state, seat, now)
        return {**view, "hand": list(state.hand(rules.other(seat)))}

    monkeypatch.setattr(rules, "player_view", other_hand)
    assert ana.ask("sync", game=game)["type"] == "state"
    assert_caught(world, "not the viewer's own")

    def one_digit_more(state: rules.GameState, seat: Any, now: int) -> dict[str, Any]:
        view = real(state, seat, now)
        i = state.digits.index(".")
        digits = state.digits[:i] + state.board.solution[i] + state.digits[i + 1:]
        return {**view, "digits": digits}

    monkeypatch.setattr(rules, "player_view", one_digit_more)
    assert ana.ask("sync", game=game)["type"] == "state"
    assert_caught(world, "a board string shows")
