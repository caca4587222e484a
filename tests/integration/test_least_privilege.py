"""Least privilege, proven on moto: each function runs with the credentials of an IAM user
whose only policy is that function's statements in template.yaml (iam.py), in one
scenario that crosses every function. A call its policy does not allow fails the test;
and every statement is needed: without any one of them the scenario is denied a call.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import harness
import iam
import pytest
from cognito_fakes import sign_up_event
from harness import SECRET, SpySqs, World
from numbridge import rules, sam_template
from numbridge.auth import issue_token, secret_source
from numbridge.club.rooms import Rooms
from numbridge.service import context as ctx
from numbridge.service.aws.sqs_bot_turns import SqsBotTurns
from numbridge.service.aws.sqs_lobby import SqsLobbyFeed
from numbridge.service.aws.sqs_reviews import SqsReviews
from numbridge.service.aws.sqs_timers import SqsTimers
from numbridge.service.aws.sqs_tournaments import SqsTournamentSteps
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store import keys
from numbridge.store.club import Ratings
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.tournaments import Tournaments
from players import choose, current, first_moves, start_game
from testkit import moto_server

API_ID = "nbws0001"
STAGE = "prod"
MANAGEMENT_ENDPOINT = f"https://{API_ID}.execute-api.{iam.REGION}.amazonaws.com/{STAGE}"
MINUTE = 60_000
# template.yaml's function → the directory the harness loads it from
DIRS = {fid: uri.rstrip("/").rsplit("/", 1)[-1]
        for fid, uri in sam_template.function_dirs(iam.TEMPLATE).items()}
SCENARIO_FUNCTIONS = sorted(DIRS)
# What Lambda itself does with a function's role (its log group, the queue it polls,
# the sweep's on-failure destination) is another policy, not the code's: iam.statements
# reads the code's only, and test_template checks the other.


@pytest.fixture(scope="module")
def cfn() -> dict[str, Any]:
    return iam.transformed()


@dataclass
class Stack:
    """The stack's resources in moto, and the administrator who made them."""

    admin: iam.User
    iam_client: Any
    names: dict[str, str]  # Ref / GetAtt / pseudo parameters → values, for iam.resolve
    users: dict[str, iam.User] = dataclasses.field(default_factory=dict)  # function → user

    def statements(self, cfn: dict[str, Any], function_id: str) -> list[dict[str, Any]]:
        return [iam.resolve(s, self.names) for s in iam.statements(cfn, function_id)]


def make_stack() -> Stack:
    admin_iam = moto_server.client("iam")
    # Everything the test itself does runs as an administrator, under the same checks.
    admin = iam.user_with(admin_iam, "admin", [{"Effect": "Allow", "Action": "*",
                                                "Resource": "*"}])
    secret = admin.client("secretsmanager").create_secret(Name="token", SecretString=SECRET)
    names = {
        "AWS::Partition": "aws", "AWS::Region": iam.REGION, "AWS::AccountId": iam.ACCOUNT,
        "AWS::URLSuffix": "amazonaws.com", "StageName": STAGE, "WebSocketApi": API_ID,
        "GameTable": "games", "GameTable.Arn": iam.table_arn("games"),
        "TokenSecret": secret["ARN"],
        "SweepFailureQueue.Arn": f"arn:aws:sqs:{iam.REGION}:{iam.ACCOUNT}:sweep-failures",
    }
    for logical_id, queue in (("TimerQueue", "timers"), ("BotQueue", "bots"),
                              ("LobbyQueue", "lobby"), ("ReviewQueue", "reviews"),
                              ("TournamentQueue", "tournaments")):
        arn = f"arn:aws:sqs:{iam.REGION}:{iam.ACCOUNT}:{queue}"
        names |= {f"{logical_id}.Arn": arn, f"{logical_id}.QueueName": queue}
    return Stack(admin, admin_iam, names)


class Tee:
    """The @connections API: moto's (which checks the caller's rights), then the
    harness's recording one (which delivers to the test's connections)."""

    def __init__(self, client: Any, recorder: harness.ManagementApi) -> None:
        self.client = client
        self.recorder = recorder

    def post_to_connection(self, ConnectionId: str, Data: bytes) -> dict[str, Any]:
        self.client.post_to_connection(ConnectionId=ConnectionId, Data=Data)
        return self.recorder.post_to_connection(ConnectionId=ConnectionId, Data=Data)

    def delete_connection(self, ConnectionId: str) -> dict[str, Any]:
        self.client.delete_connection(ConnectionId=ConnectionId)
        return self.recorder.delete_connection(ConnectionId=ConnectionId)



def function_services(world: World, stack: Stack, function_id: str,
                      granted: list[dict[str, Any]]) -> Any:
    """The services as ``context.from_environment`` builds them in the function, with
    clients of the function's own IAM user; sends still recorded for the harness."""
    user = stack.users[function_id] = iam.user_with(stack.iam_client, function_id, granted)
    timers, bots = SpySqs(user.client("sqs")), SpySqs(user.client("sqs"))
    timers.sent, bots.sent = world.sqs.sent, world.bot_sqs.sent
    lobby = SpySqs(user.client("sqs"), world.clock)
    lobby.sent = world.lobby_sqs.sent
    reviews = SpySqs(user.client("sqs"))
    reviews.sent = world.review_sqs.sent
    steps = SpySqs(user.client("sqs"), world.clock)
    steps.sent = tournament_sqs(world).sent
    source = secret_source(stack.names["TokenSecret"], user.client("secretsmanager"))
    return dataclasses.replace(
        world.svc,
        store=DynamoStore(user.client("dynamodb"), "games"),
        management=Tee(user.client("apigatewaymanagementapi",
                                      endpoint_url=MANAGEMENT_ENDPOINT), world.api),
        timers=SqsTimers(timers, world.svc.timers.queue_url),  # type: ignore[attr-defined]
        bots=SqsBotTurns(bots, world.svc.bots.queue_url, delay_ms=800),  # type: ignore[attr-defined]
        lobby=SqsLobbyFeed(lobby, world.svc.lobby.queue_url),  # type: ignore[attr-defined]
        reviews=SqsReviews(reviews, world.svc.reviews.queue_url),  # type: ignore[attr-defined]
        tournament_steps=SqsTournamentSteps(
            steps, world.svc.tournament_steps.queue_url),  # type: ignore[attr-defined]
        token_secret=source.get,
    )


def with_tournament_queue(world: World) -> None:
    """The tournament queue in moto, the steps sent to it remembered (as the world's
    other queues are)."""
    url = world.sqs.client.create_queue(QueueName="tournaments")["QueueUrl"]
    world.svc = dataclasses.replace(
        world.svc, tournament_steps=SqsTournamentSteps(SpySqs(world.sqs.client, world.clock),
                                                       url))


def tournament_sqs(world: World) -> SpySqs:
    steps = world.svc.tournament_steps
    assert isinstance(steps, SqsTournamentSteps)
    return steps.client  # type: ignore[no-any-return]


def deliver_steps(world: World) -> None:
    """Hand the tournament steps due now to the tournament function, as SQS would."""
    sent = tournament_sqs(world).sent
    for _ in range(20):
        due = [m for m in sent if m["body"].get("due_ms") is None
               or m["body"]["due_ms"] <= world.clock()]
        if not due:
            return
        sent[:] = [m for m in sent if m not in due]
        event = harness.sqs_event([m["body"] for m in due], "t", "tournaments")
        assert harness.function("tournament")(event, harness.LambdaContext()) == {
            "batchItemFailures": []}


class Denied(Exception):
    """A function was denied a call: the scenario stops there."""


@contextmanager
def as_functions(monkeypatch: pytest.MonkeyPatch, services: dict[str, Any],
                 stop_at: iam.Calls | None = None) -> Iterator[None]:
    """Each handler the harness calls runs on its own function's services; with
    ``stop_at``, the scenario ends after the first invocation denied a call."""
    by_dir = {DIRS[fid]: svc for fid, svc in services.items()}
    real = harness.function

    def function(name: str) -> Any:
        handler = real(name)

        def run(event: Any, context: Any) -> Any:
            ctx.install(by_dir[name])
            try:
                return handler(event, context)
            finally:
                if stop_at is not None and stop_at.denied():
                    raise Denied(name)

        return run

    with monkeypatch.context() as patch:
        patch.setattr(harness, "function", function)
        yield


def ok(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer["type"] not in {"error", "denied"}, answer
    return answer


def expired(world: World, player: str) -> harness.Conn:
    """A connection of ``player`` whose token has expired since it connected (its items
    say so, as they would after the token's ``exp``): every function that pushes to it
    closes it (DeleteConnection) instead."""
    conn = world.join(player)
    past = world.clock() // 1000 - 1
    for pk, sk in ((f"CONN#{conn.id}", "CONN"), (f"PLAYER#{player}", f"CONN#{conn.id}")):
        item = world.store.get(pk, sk)
        assert item is not None
        world.store.put({**item, "token_expires_at": past})
    return conn


def closed(world: World, conn: harness.Conn) -> None:
    assert conn.id in world.api.deleted, f"{conn.id} of {conn.player} was not closed"


def scenario(world: World) -> None:
    """Every function, on every code path that reaches AWS, once."""
    # signup: a new name passes (the record read, then the player's partition)
    sign_up = harness.function("signup")
    assert sign_up(sign_up_event("newcomer"), harness.LambdaContext())["userName"] == "newcomer"
    ana, ben, cy = world.join("ana"), world.join("ben"), world.join("cy")
    # lobby: a subscriber of the lobby (fanout posts to it; the online count first)
    lobbyist = world.join("lou")
    ok(lobbyist.ask("subscribe", topic="lobby"))
    world.deliver_lobby()
    # signup: a player's name, in another case, is refused (the record read)
    with pytest.raises(ValueError, match="taken"):
        sign_up(sign_up_event("ANA"), harness.LambdaContext())
    # lobby: a proposal listed and withdrawn; deal: another one accepted
    proposal = ok(ana.ask("propose", room="blitz", colour="blue"))["proposal"]["id"]
    ok(ben.ask("proposals"))
    ok(ana.ask("withdraw", proposal=proposal))
    # lobby: a challenge, listed in the lobby's page to its player (the index) and to its
    # maker (their slots, the proposals they hold), then declined
    challenge = ok(ana.ask("propose", room="blitz", to="ben"))["proposal"]["id"]
    assert [p["id"] for p in ok(ben.ask("subscribe", topic="lobby"))["challenges"]] == [challenge]
    assert [p["id"] for p in ok(ana.ask("subscribe", topic="lobby"))["challenged"]] == [challenge]
    ok(ben.ask("decline", proposal=challenge))
    game = start_game(world, "blitz", ana, ben, colour="blue")
    # move: a watcher, the first moves, a client catching up
    ok(cy.ask("watch", game=game))
    first_moves(world, game, {"ana": ana, "ben": ben})
    ok(ana.ask("sync", game=game, v=0))
    # disconnect (a watcher, a player: presence), connect again (presence)
    cy.close()
    ben.close()
    ben = world.join("ben")
    # timeout: a turn's timer (the next one armed), then the sweep ends the game on time
    world.clock.advance(31_000)
    world.deliver_timers()
    world.clock.advance(10 * MINUTE)
    world.sweep()
    assert current(world, game).status == "finished"
    # deal: a rematch; move: resigned (a game finished by a move)
    ok(ana.ask("offer_rematch", game=game))
    ok(ben.ask("accept_rematch", game=game))
    [accepted] = [f for f in ana.frames if f["type"] == "rematch_accepted"]
    ok(ana.ask("resign", game=accepted["rematch"]))
    # fanout: what the lobby heard so far, pushed
    world.deliver_lobby()
    assert any(f["type"] == "changes" for f in lobbyist.frames)
    # deal: two seekers paired at once; two who are far apart wait, and the fanout
    # pairs them when their window has widened (the game's timer armed)
    ok(world.join("sid").ask("seek", room="blitz"))
    ok(world.join("sal").ask("seek", room="blitz"))
    world.store.transact([Ratings.put_write("ivy", "blitz", {"rating": 2400.0, "rd": 50.0,
                                                             "volatility": 0.06},
                                            games=40, expected_rv=None, provisional=False)])
    ok(world.join("ivy").ask("seek", room="blitz"))
    ok(world.join("jo").ask("seek", room="blitz"))
    world.clock.advance(61_000)
    world.deliver_lobby()
    assert not world.svc.seeks.in_room("blitz", world.clock())
    # fanout: a subscriber whose token expired is closed, not posted to
    stale = world.join("lou")
    ok(stale.ask("subscribe", topic="lobby"))
    past = world.clock() // 1000 - 1
    for pk, sk in [(f"CONN#{stale.id}", "CONN"), ("PLAYER#lou", f"CONN#{stale.id}"),
                   *[(s, f"SUB#{stale.id}") for s in keys.topic_shards("lobby")]]:
        item = world.store.get(pk, sk)
        if item is not None:
            world.store.put({**item, "token_expires_at": past})
    ok(ana.ask("propose", room="blitz"))
    world.deliver_lobby()
    closed(world, stale)
    # lobby: the archive, the leaderboard, the games in progress
    for ask in ({"action": "games"}, {"action": "record", "game": game},
                {"action": "leaderboard", "variant": "blitz"}, {"action": "live"},
                {"action": "rooms"}):
        ok(ana.ask(**ask))
    # bot: a game against a bot, its first turn lost and sent again by the watchdog
    # (timeout), then played to the end
    frames = ana.send("propose", room="blitz", bot="easy", colour="red")
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    bot_game = str(frames[1]["game"])
    world.bot_sqs.sent.clear()
    deadline = rules.next_deadline(current(world, bot_game))
    assert deadline is not None
    world.sqs.sent[:] = [s for s in world.sqs.sent if s["body"]["deadline_ms"] < deadline]
    world.clock.advance(11_000)
    world.deliver_timers()
    world.play_bots()
    # the bot agrees to adjourn and asks to resume (a turn it sends itself)
    ok(ana.ask("offer_adjourn", game=bot_game))
    world.play_bots()
    ok(ana.ask("resume", game=bot_game))
    rng = random.Random(3)
    for _ in range(300):
        world.play_bots()
        state = current(world, bot_game)
        if state.status == "finished":
            break
        fields = choose(state, rng)
        ok(ana.ask(fields.pop("action"), game=bot_game, **fields))
    assert current(world, bot_game).status == "finished"
    # review: the games finished so far (on time, resigned, the bot's), each reviewed
    # beside its record
    assert world.review_sqs.sent
    assert world.deliver_reviews() == {"batchItemFailures": []}
    assert "review" in ok(ana.ask("record", game=bot_game))["record"]
    # lobby, deal, move: a connection whose token expired is told and forgotten
    expiring = [world.connect(None, token=issue_token("dee", SECRET, ttl_s=60, now=time.time()))
                for _ in range(3)]
    world.clock.advance(int((time.time() + 61) * 1000) - world.clock())
    for (status, conn), (action, fields) in zip(expiring, (
            ("rooms", {}), ("accept", {"proposal": "p-none"}),
            ("sync", {"game": game, "v": 0})), strict=True):
        assert status == 200 and conn is not None
        [refusal] = conn.send(action, **fields)
        assert refusal["code"] == "unauthorized" and "expired" in refusal["message"], refusal
        assert world.svc.connections.get(conn.id) is None
        closed(world, conn)
    # every function that pushes closes a connection whose token expired, not posting
    # to it: lobby (a game against the bot dealt), bot (its move), timeout (a turn's
    # timer), move, deal, disconnect and connect (presence)
    gus = world.join("gus")
    dead = expired(world, "gus")
    frames = gus.send("propose", room="blitz", bot="easy", colour="blue")
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    closed(world, dead)
    gus_game = str(frames[1]["game"])
    world.bot_sqs.sent.clear()
    rng = random.Random(5)
    fields = choose(current(world, gus_game), rng)
    dead = expired(world, "gus")
    ok(gus.ask(fields.pop("action"), game=gus_game, **fields))
    closed(world, dead)
    dead = expired(world, "gus")
    world.play_bots(max_rounds=1)
    closed(world, dead)
    dead = expired(world, "gus")
    world.clock.advance(31_000)
    world.deliver_timers()
    closed(world, dead)
    hal = world.join("hal")
    proposal = ok(hal.ask("propose", room="blitz", colour="red"))["proposal"]["id"]
    dead = expired(world, "gus")
    ok(gus.ask("accept", proposal=proposal))
    closed(world, dead)
    dead = expired(world, "gus")
    hal.close()
    world.clock.advance(5_000)  # fanout: hal's absence told, a few seconds later
    world.deliver_lobby()
    closed(world, dead)
    dead = expired(world, "gus")
    world.join("hal")
    closed(world, dead)
    tournament(world)


def tournament(world: World) -> None:
    """An arena from its start to its end: the host makes it and two players join;
    timeout: the sweep sends its step once it is due; tournament: the step starts it and
    pairs them (a game dealt, its timer armed, the lobby told, the players' states and
    the subscribers' changes posted; a subscriber whose token expired closed) and sends
    itself the arena's end; lobby: a third player joins the running arena (a step);
    move: a resignation (the game's end a step); timeout: the next game lost on time
    after the end (a step); tournament: the results counted, the standings read from the
    index, the arena finished."""
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock(), minutes=10, rated=False)
    tia, tom, una = world.join("tia"), world.join("tom"), world.join("una")
    ok(una.ask("subscribe", topic=f"tournament:{tid}"))
    stale = world.join("vic")
    ok(stale.ask("subscribe", topic=f"tournament:{tid}"))
    past = world.clock() // 1000 - 1
    for pk, sk in [(f"CONN#{stale.id}", "CONN"), ("PLAYER#vic", f"CONN#{stale.id}"),
                   *[(s, f"SUB#{stale.id}") for s in keys.topic_shards(f"tournament:{tid}")]]:
        item = world.store.get(pk, sk)
        if item is not None:
            world.store.put({**item, "token_expires_at": past})
    ok(tia.ask("join_tournament", tournament=tid))
    ok(tom.ask("join_tournament", tournament=tid))
    world.sweep()  # the arena due to start: its step sent
    deliver_steps(world)
    closed(world, stale)
    [game] = [str(i["game"]) for i in Tournaments(world.store).live(tid)]
    ok(una.ask("join_tournament", tournament=tid))
    deliver_steps(world)  # una waits: nobody else is free
    ok(tom.ask("resign", game=game))
    deliver_steps(world)  # counted; two of the three free paired at once
    [game] = [str(i["game"]) for i in Tournaments(world.store).live(tid)]
    world.clock.advance(11 * MINUTE)  # past the arena's end: its game lost on time
    world.sweep()
    assert current(world, game).status == "finished"
    deliver_steps(world)
    ok(tia.ask("tournament", tournament=tid))
    finished = Tournaments(world.store).get(tid)
    assert finished is not None and finished.status == "finished"


def stocked_blitz(rooms: Rooms) -> Rooms:
    """The rooms, Blitz's boards graded past hidden singles: every game the scenario deals
    is then a stocked ask (store.board_stock), so each function that deals sends its
    stock's refill, and the review function fills the stock."""
    return Rooms([dataclasses.replace(room, grades=("locked_candidates", "beyond"))
                  if room.id == "blitz" else room for room in rooms])


@dataclass
class Run:
    calls: iam.Calls
    seconds: float
    failure: BaseException | None
    stack: Stack


def run_scenario(cfn: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                 without: tuple[str, int] | None = None) -> Run:
    """The scenario with each function as its own IAM user; ``without`` drops one
    statement (function, index) from that function's policy."""
    started = time.perf_counter()
    calls = iam.Calls()
    failure: BaseException | None = None
    with moto_server.in_process():
        stack = make_stack()
        world = World(harness.dynamodb_store(stack.admin.client("dynamodb")),
                      stack.admin.client("sqs"))
        with_tournament_queue(world)
        world.svc = dataclasses.replace(world.svc, rooms=stocked_blitz(world.svc.rooms))
        services = {}
        for function_id in SCENARIO_FUNCTIONS:
            granted = stack.statements(cfn, function_id)
            if without is not None and without[0] == function_id:
                granted = granted[:without[1]] + granted[without[1] + 1:]
            services[function_id] = function_services(world, stack, function_id, granted)
        try:
            with iam.enforcing(calls), as_functions(
                    monkeypatch, services, stop_at=calls if without else None):
                scenario(world)
        except Exception as exc:  # a denied call may surface as anything
            failure = exc
        finally:
            world.close()
    return Run(calls, time.perf_counter() - started, failure, stack)


@pytest.fixture(scope="module")
def granted_run(cfn: dict[str, Any]) -> Run:
    """The scenario once, each function with its whole policy (shared by the checks)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        return run_scenario(cfn, monkeypatch)


def permits(statement: dict[str, Any], action: str, resource: str) -> bool:
    """Whether ``statement`` allows ``action`` on ``resource``, as moto evaluates it."""
    from moto.iam.access_control import IAMPolicyStatement, PermissionResult

    return IAMPolicyStatement(statement).is_action_permitted(action, resource) \
        == PermissionResult.PERMITTED


def test_each_function_needs_nothing_its_policy_does_not_grant(
    granted_run: Run,
) -> None:
    run, stack = granted_run, granted_run.stack
    assert run.failure is None, repr(run.failure)
    assert run.calls.denied() == []
    assert {c.key for c in run.calls.seen} >= {u.key for u in stack.users.values()}, (
        "a function reached AWS as someone else")
    print(f"least privilege scenario: {len(run.calls.seen)} checked calls, {run.seconds:.1f} s")


@pytest.mark.parametrize("function_id", SCENARIO_FUNCTIONS)
def test_every_action_granted_is_called_and_every_statement_is_needed(
    cfn: dict[str, Any], granted_run: Run, function_id: str
) -> None:
    """Each action of each statement, on each of its resources, was called; and each
    statement allowed a call that no other statement of the function allows (so without
    it that call is denied: test_without_a_statement_a_call_is_denied shows it for real)."""
    run, stack = granted_run, granted_run.stack
    assert run.failure is None, repr(run.failure)
    called = run.calls.allowed(stack.users[function_id].key)
    granted = stack.statements(cfn, function_id)
    for statement in granted:
        for action in iam.actions(statement):
            for resource in iam.as_list(statement["Resource"]):
                one = {"Effect": "Allow", "Action": action, "Resource": resource}
                assert any(permits(one, a, r) for a, r in called), (
                    f"{function_id} may {action} on {resource} but never does")
    for index, statement in enumerate(granted):
        others = granted[:index] + granted[index + 1:]
        assert any(permits(statement, a, r) and not any(permits(o, a, r) for o in others)
                   for a, r in called), f"{function_id}: {statement['Sid']} is not needed"


# Removing a statement for real (the scenario stops at the first call denied): one of
# each kind here; all of them with NUMBRIDGE_IAM_EVERY_STATEMENT=1 (make test-iam).
_CFN = iam.transformed()
ALL_REMOVALS = [(fid, i, str(s.get("Sid"))) for fid in SCENARIO_FUNCTIONS
                for i, s in enumerate(iam.statements(_CFN, fid))]
SAMPLE = {("ConnectFunction", "TokenSecret"), ("LobbyFunction", "GameTable"),
          ("LobbyFunction", "GameTableIndex"), ("MoveFunction", "SendTimers"),
          # a post denied is only logged by the code: the test still sees it
          ("TimeoutFunction", "PostToConnections"), ("MoveFunction", "CloseConnections"),
          ("SignUpFunction", "GameTable"), ("TournamentFunction", "SendTournamentSteps")}
REMOVALS = ALL_REMOVALS if os.environ.get("NUMBRIDGE_IAM_EVERY_STATEMENT") == "1" else [
    r for r in ALL_REMOVALS if (r[0], r[2]) in SAMPLE]


def test_the_sample_of_removals_names_real_statements() -> None:
    assert {(f, sid) for f, _, sid in ALL_REMOVALS} >= SAMPLE


@pytest.mark.parametrize(("function_id", "index", "sid"), REMOVALS,
                         ids=[f"{f}-{sid}" for f, _, sid in REMOVALS])
def test_without_a_statement_a_call_is_denied(
    cfn: dict[str, Any], monkeypatch: pytest.MonkeyPatch, function_id: str, index: int,
    sid: str,
) -> None:
    run = run_scenario(cfn, monkeypatch, without=(function_id, index))
    assert run.calls.denied(), f"{function_id} runs the scenario without its statement {sid}"
    assert {c.key for c in run.calls.denied()} == {run.stack.users[function_id].key}
    assert isinstance(run.failure, Denied), repr(run.failure)
