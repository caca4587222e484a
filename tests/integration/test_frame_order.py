"""The order of the frames a player receives when a game ends and the next one is dealt
at once (a tournament's re-pairing, a rematch), through the Lambda handlers on both
stores, with the steps run the moment they are sent: as fast as ``numbridge serve``'s
tournament thread (or the tournament function in AWS) can run them."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from harness import Conn, LambdaContext, SpySqs, World, function, load_event, sqs_event
from numbridge.service import context as ctx
from numbridge.service.aws.sqs_tournaments import SqsTournamentSteps
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store.tournaments import Tournaments
from players import current, first_moves


class _StepsAtOnce(SpySqs):
    """The tournament queue delivering each step to the ``tournament`` function as it is
    sent, on the sender's stack: the step runs before the sender does anything more."""

    def __init__(self, world: World) -> None:
        super().__init__(world.sqs.client, world.clock)
        self.url = self.client.create_queue(QueueName="tournaments-at-once")["QueueUrl"]
        world.svc = dataclasses.replace(world.svc,
                                        tournament_steps=SqsTournamentSteps(self, self.url))
        ctx.install(world.svc)

    def send_message(self, **kwargs: Any) -> Any:
        body = json.loads(kwargs["MessageBody"])
        if kwargs.get("DelaySeconds", 0) or body.get("due_ms") is not None:
            return super().send_message(**kwargs)  # a timer: later
        self.sent.append({"body": body})
        answer = function("tournament")(sqs_event([body], "s", "tournaments"), LambdaContext())
        assert answer == {"batchItemFailures": []}
        return {"MessageId": "m"}

    def send_message_batch(self, **kwargs: Any) -> Any:
        for entry in kwargs["Entries"]:
            self.send_message(**entry)
        return {"Successful": [{"Id": e["Id"]} for e in kwargs["Entries"]], "Failed": []}


def _game_of(frame: dict[str, Any]) -> list[tuple[str, str]]:
    """(game, kind) of each game frame in ``frame`` (an ``events`` frame holds several)."""
    frames = frame["events"] if frame.get("type") == "events" else [frame]
    return [(str(f["game"]), str(f["type"])) for f in frames if "game" in f]


def _out_of_order(conn: Conn, ended: str) -> list[str]:
    """The games whose ``state`` ``conn`` received while ``ended`` was still going: after
    its first frame and before its last."""
    seen = [pair for f in conn.frames for pair in _game_of(f)]
    mine = [i for i, (game, _) in enumerate(seen) if game == ended]
    return [game for game, kind in seen[mine[0]:mine[-1]]
            if game != ended and kind == "state"]


def test_an_arena_player_gets_the_ended_game_before_the_next_game_s_state(
        world: World) -> None:
    """Catches the commit that finishes a tournament game sending the tournament's step
    before the game's last frames are posted: a step run at once (serve's thread, the
    tournament function) pairs the players again and posts the next game's ``state``
    first, and a client that opens that game then gets the old game's end."""
    steps = _StepsAtOnce(world)
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock() + 60_000, minutes=10, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob", "cy", "dee")}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    world.clock.advance(60_000)
    function("tournament")(load_event("sweep"), LambdaContext())  # started, paired
    rng = random.Random(5)
    for _ in range(3):
        games = [str(i["game"]) for i in Tournaments(world.store).live(tid)]
        assert len(games) == 2
        for game in games:
            state = current(world, game)
            first_moves(world, game, conns, seed=rng.randrange(1000))
            loser = rng.choice(list(state.players.values()))
            assert conns[loser].ask("resign", game=game)["type"] == "ack"
            for player in state.players.values():
                assert _out_of_order(conns[player], game) == [], player
        assert any("game" in s["body"] for s in steps.sent)  # the steps did run at once
