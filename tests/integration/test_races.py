"""Races other than one player's two devices, staged on both store adapters: a
timer or the sweep against a move, two players accepting one proposal, a withdraw
against an accept, two games finishing at once for one player (the rating's
version condition). Each race is staged as it happens in AWS: both requests read
the same version before either writes; the store decides who wins."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from harness import Conn, World
from numbridge import rules
from players import choose, current, start_game


def racing(obj: Any, name: str, calls: list[Callable[[], Any]],
           monkeypatch: pytest.MonkeyPatch, first: int | None = None) -> list[Any]:
    """Run ``calls`` at once, one thread each; each thread's first call of
    ``obj.name`` returns only once every thread has made its own: all read
    before any writes. With ``first``, that call goes on alone, and the others
    only once it has returned: it writes first. The results (or the exception
    raised), in order."""
    gate = threading.Barrier(len(calls), timeout=20)
    real = getattr(obj, name)
    seen: set[int] = set()
    mine = threading.local()
    done = threading.Event()

    def read_then_wait(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        me = threading.get_ident()
        if me not in seen:
            seen.add(me)
            gate.wait()
            if first is not None and mine.index != first:
                assert done.wait(60), "the first racer never finished"
        return found

    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        mine.index = i
        try:
            results[i] = calls[i]()
        except BaseException as exc:  # reported to the test below
            results[i] = exc
        finally:
            if i == first:
                done.set()

    monkeypatch.setattr(obj, name, read_then_wait)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        monkeypatch.setattr(obj, name, real)
    assert len(seen) == len(calls), "a racer never read: the race was not staged"
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def versions(conn: Conn, game: str) -> list[int]:
    return [f["v"] for f in conn.frames if f.get("game") == game and f["type"] != "state"
            and "v" in f]


def assert_stream(conn: Conn, game: str) -> None:
    """Each version once, in order, from 1: nothing applied twice, nothing lost."""
    seen = versions(conn, game)
    assert seen == list(range(1, len(seen) + 1)), seen


@pytest.mark.parametrize("by", ["timer", "sweep"])
def test_a_timer_or_the_sweep_against_a_move_on_the_same_version(
        world: World, monkeypatch: pytest.MonkeyPatch, by: str) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    assert ana.ask("exchange", game=game)["type"] == "ack"  # a first move each
    assert bob.ask("exchange", game=game)["type"] == "ack"
    state = current(world, game)
    deadline = rules.next_deadline(state)
    assert deadline is not None and state.turn == "blue"
    world.clock.advance(deadline - world.clock.now + 1)  # the move and the deadline cross
    fields = choose(state, random.Random(4))
    action = fields.pop("action")
    clock: Callable[[], Any] = world.deliver_timers if by == "timer" else world.sweep
    if by == "sweep":
        world.sqs.sent.clear()
    move, _ = racing(world.svc.games, "load", [
        lambda: ana.send(action, game=game, id="late-move", **fields), clock], monkeypatch)
    [answer] = [f for f in move if f.get("id") == "late-move"]
    # The timeout is applied once, by whichever came first; the move comes too late.
    assert answer["code"] == "not_your_turn", answer
    for conn in (ana, bob):
        assert_stream(conn, game)
        timeouts = [f for f in conn.frames if f.get("game") == game and f["type"] == "timeout"]
        assert [f["seat"] for f in timeouts] == ["blue"]
    assert bob.ask("sync", game=game)["view"]["turn"] == "red"


def test_two_players_accepting_one_proposal_make_one_game(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob, carl = world.join("ana"), world.join("bob"), world.join("carl")
    proposal = ana.ask("propose", room="blitz", colour="blue")["proposal"]["id"]
    ana.new()
    answers = racing(world.svc.proposals, "get", [
        lambda: bob.ask("accept", proposal=proposal), lambda: carl.ask("accept", proposal=proposal),
    ], monkeypatch)
    assert sorted(a["type"] for a in answers) == ["ack", "error"], answers
    [refused] = [a for a in answers if a["type"] == "error"]
    assert refused["code"] == "not_found"  # decided again: the proposal is gone
    winner = bob if answers[0]["type"] == "ack" else carl
    loser = carl if winner is bob else bob
    # One game: Ana and the winner each got its state, the loser nothing but the refusal.
    [state] = [f for f in ana.new() if f["type"] == "state"]
    assert state["view"]["players"]["red"]["name"] == winner.player
    assert [f["type"] for f in winner.frames if f["type"] == "state"] == ["state"]
    assert not [f for f in loser.frames if f["type"] == "state"]
    assert [line["game"] for line in ana.ask("games")["games"]] == [state["game"]]
    assert loser.ask("games")["games"] == []
    assert ana.ask("proposals")["proposals"] == []


def test_a_withdraw_against_an_accept_one_of_them_wins(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both read the open proposal; whichever writes first wins and the other, decided
    # again, finds it gone. Each order in turn: left to the threads, a slow deal (the
    # accept's) made the withdraw win nearly every time.
    winners = []
    for round_, first in enumerate(["withdraw", "accept"] * 2):
        ana, bob = world.join("ana"), world.join("bob")
        proposal = ana.ask("propose", room="blitz", colour="blue")["proposal"]["id"]
        games_before = {line["game"] for line in world.svc.player_games.of_player("ana")[0]}

        def withdraw(ana: Conn = ana, proposal: str = proposal, n: int = round_) -> Any:
            return ana.ask("withdraw", proposal=proposal, id=f"w{n}")

        def accept(bob: Conn = bob, proposal: str = proposal, n: int = round_) -> Any:
            return bob.ask("accept", proposal=proposal, id=f"a{n}")

        withdrawn, accepted = racing(world.svc.proposals, "get", [withdraw, accept],
                                     monkeypatch, first=["withdraw", "accept"].index(first))
        acks = [kind for kind, answer in (("withdraw", withdrawn), ("accept", accepted))
                if answer["type"] == "ack"]
        assert len(acks) == 1, (withdrawn, accepted)  # exactly one of them succeeded
        winners.append(acks[0])
        loser = accepted if acks == ["withdraw"] else withdrawn
        assert loser["type"] == "error" and loser["code"] == "not_found", loser
        # The store agrees: the proposal and its slot are gone; a game iff accepted.
        assert world.svc.proposals.get(proposal) is None
        assert all(slot.proposal != proposal for slot in world.svc.proposals.slots("ana"))
        new_games = [line["game"] for line in world.svc.player_games.of_player("ana")[0]
                     if line["game"] not in games_before]
        states = [f for f in ana.frames if f["type"] == "state"]
        if acks == ["accept"]:
            [game] = new_games
            row = world.svc.games.load(game)
            assert row is not None and set(row.players.values()) == {"ana", "bob"}
            assert [f["game"] for f in states] == [game]
        else:
            assert new_games == [] and states == []
            assert not [f for f in bob.frames if f["type"] == "state"]
        assert ana.ask("proposals")["proposals"] == []
        ana.close()
        bob.close()
    assert winners == ["withdraw", "accept"] * 2  # whoever wrote first, each round


def test_two_games_finishing_at_once_rate_the_player_twice(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob, carl = world.join("ana"), world.join("bob"), world.join("carl")
    first = start_game(world, "bridge", ana, bob, colour="blue")
    second = start_game(world, "bridge", ana, carl, colour="blue")
    assert ana.ask("resign", game=first)["type"] == "ack"  # a rating for ana to begin with
    third = start_game(world, "bridge", ana, bob, colour="blue")
    # Both finishing commits read Ana's rating (same version) before either writes.
    answers = racing(world.svc.ratings, "get", [
        lambda: ana.ask("resign", game=second), lambda: ana.ask("resign", game=third),
    ], monkeypatch)
    assert [a["type"] for a in answers] == ["ack", "ack"]
    lines = {g["game"]: g for g in ana.ask("games")["games"]}
    [row] = [p for p in ana.ask("leaderboard", variant="bridge")["players"]
             if p["name"] == "ana"]
    assert row["games"] == 3
    # No update lost: one game's rating starts where the other's ended.
    a, b = lines[second]["rating"], lines[third]["rating"]
    assert a["after"] == b["before"] or b["after"] == a["before"], (a, b)
    assert min(a["after"], b["after"]) == pytest.approx(round(row["rating"], 1), abs=0.05)
