"""A bot seat in the backend: ``propose`` with ``bot`` deals at once against
``bot-LEVEL``; the bot function plays that seat from the bot queue's messages,
through the same use case as any player, seeing only its seat's view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from harness import World
from numbridge import rules
from numbridge.auth import issue_token
from numbridge.service.bots import move as botmove
from numbridge.store import keys
from players import choose, current


def bot_game(world: World, level: str = "easy", room: str = "blitz",
             **choices: Any) -> tuple[str, Any]:
    ana = world.join("ana")
    rid = "p1"
    frames = ana.send("propose", id=rid, room=room, bot=level, **choices)
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    assert frames[0] == {"type": "ack", "id": rid}
    return str(frames[1]["game"]), ana


def test_propose_with_a_bot_deals_at_once_unrated_without_a_proposal(world: World) -> None:
    game, ana = bot_game(world, "normal", colour="red")
    state = current(world, game)
    assert state.players == {"blue": "bot-normal", "red": "ana"}
    assert state.options.rated is False
    # No proposal was stored and no slot taken.
    assert ana.ask("proposals")["proposals"] == []
    assert world.svc.proposals.slots("ana") == []
    # Blue (the bot) moves first: its turn went to the bot queue, with the pause.
    [sent] = world.sqs_bot_sent()
    assert sent == {"body": {"game": game, "seat": "blue", "v": 0}, "delay": 1}


def test_the_bot_plays_its_moves_and_the_game_finishes_archived_unrated(
    world: World,
) -> None:
    game, ana = bot_game(world, "strong", colour="blue")
    rng = random.Random(3)
    for _ in range(300):
        world.play_bots()
        state = current(world, game)
        if state.status == "finished":
            break
        assert state.turn == "blue", "the bot left its turn unplayed"
        fields = choose(state, rng)
        assert ana.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"
    final = current(world, game)
    assert final.status == "finished" and final.result is not None
    assert any(e.action in {"place", "take", "exchange", "swap"} and e.seat == "red"
               for e in final.record)
    assert world.svc.archive.get(game) is not None
    assert ana.ask("record", game=game)["record"]["result"] == final.result.to_dict()
    # Unrated: no rating items for either player, and the games line says so.
    for player in ("ana", "bot-strong"):
        assert world.store.get(keys.player(player), "RATING#blitz") is None
    [line] = [g for g in ana.ask("games")["games"] if g["game"] == game]
    assert line["rated"] is False and "rating" not in line
    # Ana saw every event of the game in order.
    events = [f for f in ana.frames if f.get("game") == game and f["type"] != "state"
              and "v" in f and f.get("id") is None]
    assert [f["v"] for f in events] == list(range(1, final.v + 1))


def test_a_redelivered_bot_message_is_applied_once(world: World) -> None:
    game, _ = bot_game(world, "normal", colour="red")
    [sent] = world.sqs_bot_sent()
    world.bot_sqs.sent.clear()
    message = sent["body"]
    assert world.deliver_bots([message]) == {"batchItemFailures": []}
    after_first = current(world, game)
    assert after_first.v > 0
    # The same message again (SQS delivers at least once): nothing changes.
    assert world.deliver_bots([message]) == {"batchItemFailures": []}
    assert current(world, game).v == after_first.v
    # Two deliveries racing on the same version: the receipt answers the second.
    state_before = world.stored_state(game)
    outcome = botmove.take_turn(world.svc, game, "blue", 0)
    assert outcome.writes == [] and current(world, game).v == after_first.v
    assert world.stored_state(game) == state_before
    receipt = world.svc.receipts.get("bot-normal", botmove.request_id(game, 0))
    assert receipt is not None and receipt.replies[0]["type"] == "ack"


def test_a_racing_duplicate_is_answered_from_the_receipt(
    world: World, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = bot_game(world, "easy", colour="red")
    world.bot_sqs.sent.clear()
    row = world.svc.games.load(game)
    assert row is not None
    # The second delivery loaded the game before the first one committed.
    # (the first loads it twice, its check and the use case; the second once: the
    # receipt answers it before the use case runs)
    loads = iter([row] * 3)
    real_load = world.svc.games.load
    monkeypatch.setattr(world.svc.games, "load",
                        lambda g: next(loads, None) or real_load(g))
    first = botmove.take_turn(world.svc, game, "blue", 0)
    second = botmove.take_turn(world.svc, game, "blue", 0)
    assert first.replies[0]["type"] == "ack"
    assert second.replies == first.replies and second.writes == []
    moved = [e for e in current(world, game).record if e.seat == "blue" and e.is_turn]
    assert len(moved) == 1


def test_a_stale_bot_message_does_nothing(world: World) -> None:
    game, ana = bot_game(world, "easy", colour="blue")
    world.bot_sqs.sent.clear()
    state = current(world, game)
    fields = choose(state, random.Random(1))
    assert ana.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"
    moved = current(world, game)
    stale = {"game": game, "seat": "red", "v": 0}
    assert world.deliver_bots([stale]) == {"batchItemFailures": []}
    assert current(world, game).v == moved.v
    assert world.svc.receipts.get("bot-easy", botmove.request_id(game, 0)) is None


def test_the_bot_sees_only_its_seats_view(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[dict[str, Any], Any]] = []
    real = botmove.decide

    def spy(view: dict[str, Any], knowledge: Any, level: Any, rng: random.Random) -> Any:
        seen.append((json.loads(json.dumps(view)), knowledge))
        return real(view, knowledge, level, rng)

    monkeypatch.setattr(botmove, "decide", spy)
    game, ana = bot_game(world, "normal", colour="blue")
    rng = random.Random(5)
    for _ in range(4):
        state = current(world, game)
        fields = choose(state, rng)
        assert ana.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"
        before = current(world, game)
        expected = rules.player_view(before, "red", world.clock.now + 1000)
        seen.clear()
        world.deliver_bots()
        if not seen:
            continue
        view, _ = seen[0]
        assert view == json.loads(json.dumps(expected))
        text = json.dumps(view)
        assert before.board.solution not in text and "solution" not in text
        assert "hand" not in view["players"]["blue"] and "bag_contents" not in view
        assert view["you"] == "red"
    assert seen, "the bot never decided"


def test_refusals(world: World) -> None:
    ana = world.join("ana")
    unknown = ana.ask("propose", room="blitz", bot="grandmaster")
    assert unknown["type"] == "error" and unknown["code"] == "malformed"
    rated = ana.ask("propose", room="blitz", bot="easy", rated=True)
    assert rated["type"] == "error" and rated["code"] == "illegal"
    assert "unrated" in rated["message"]
    no_room = ana.ask("propose", room="nowhere", bot="easy")
    assert no_room["code"] == "not_found"
    assert world.sqs_bot_sent() == []
    unrated = ana.ask("propose", room="blitz", bot="easy", rated=False)
    assert unrated["type"] == "ack"


def test_no_person_may_be_a_bot(world: World) -> None:
    with pytest.raises(ValueError, match="club's own"):
        issue_token("bot-easy", "s" * 40)
    forged = _token_without_checks("bot-easy")
    assert world.connect(None, token=forged) == (403, None) or \
        world.connect(None, token=forged)[0] in {401, 403}


def _token_without_checks(name: str) -> str:
    import time

    import jwt
    from harness import SECRET
    from numbridge.auth import ALGORITHM, ISSUER

    now = int(time.time())
    return jwt.encode({"sub": name, "iss": ISSUER, "iat": now, "exp": now + 600}, SECRET,
                      algorithm=ALGORITHM)


def test_the_watchdog_sends_a_lost_bot_turn_again(world: World) -> None:
    game, _ = bot_game(world, "easy", colour="red")
    world.bot_sqs.sent.clear()  # the turn's message was lost
    watchdogs = [s["body"] for s in world.sqs.sent if s["body"]["game"] == game]
    deadline = rules.next_deadline(current(world, game))
    assert deadline is not None
    assert min(t["deadline_ms"] for t in watchdogs) < deadline
    # Only the watchdog falls now; the deadline's own timer waits.
    world.sqs.sent[:] = [s for s in world.sqs.sent if s["body"]["deadline_ms"] < deadline]
    world.clock.advance(11_000)
    world.deliver_timers()
    assert [s["body"] for s in world.sqs_bot_sent()] == [{"game": game, "seat": "blue", "v": 0}]
    assert world.deliver_bots() == {"batchItemFailures": []}
    assert current(world, game).v > 0


def test_a_failing_bot_turn_goes_back_to_the_queue(
    world: World, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = bot_game(world, "easy", colour="red")
    [sent] = world.sqs_bot_sent()
    world.bot_sqs.sent.clear()

    def broken(*args: Any) -> Any:
        raise RuntimeError("the brain failed")

    monkeypatch.setattr(botmove, "decide", broken)
    answer = world.deliver_bots([sent["body"], {"nonsense": True}])
    assert len(answer["batchItemFailures"]) == 1  # the unreadable one is dropped
    assert current(world, game).v == 0
    monkeypatch.undo()
    assert world.deliver_bots([sent["body"]]) == {"batchItemFailures": []}  # SQS again
    assert current(world, game).v > 0
