"""Drive the real Lambda entry points (functions/*/app.py) with API Gateway-shaped
events against moto's DynamoDB (or SQLite) and SQS. The only stand-in is API
Gateway's ``@connections`` API, recorded here (the e2e tests use the real local
gateway). Every frame posted is validated against the protocol models and kept,
with every committed state, in a ledger (``ledger.py``): after each test the
``world`` fixture checks that no client received anything it may not know.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import itertools
import json
import random
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from botocore.exceptions import ClientError
from ledger import Ledger
from numbridge.auth import MAX_TTL_S, issue_token
from numbridge.club.rooms_config import load_rooms
from numbridge.local.apigateway.routing import select_route
from numbridge.protocol.models import validate_frame
from numbridge.sam_template import create_tables, routes
from numbridge.service import context as ctx
from numbridge.service.aws.sqs_bot_turns import SqsBotTurns
from numbridge.service.aws.sqs_lobby import SqsLobbyFeed
from numbridge.service.aws.sqs_reviews import SqsReviews
from numbridge.service.aws.sqs_timers import SqsTimers
from numbridge.service.context import Services
from numbridge.service.ratelimit import RateLimiter
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.port import Store

REPO = Path(__file__).resolve().parents[2]
SECRET = "integration-test-secret-0123456789abcdef"
START_MS = 1_796_000_000_000


def load_event(name: str) -> dict[str, Any]:
    return json.loads((REPO / "events" / f"{name}.json").read_text())

def sqs_event(bodies: list[Any], prefix: str, queue: str) -> dict[str, Any]:
    """An SQS event for ``bodies`` as Lambda gets it from ``queue`` (AWS's sample record,
    one per body, each its own message id)."""
    event = load_event("timer-sqs")
    template = event["Records"][0]
    event["Records"] = []
    for i, body in enumerate(bodies):
        record = copy.deepcopy(template)
        record.update(messageId=f"{prefix}{next(_ids)}-{i}", body=json.dumps(body),
                      eventSourceARN=f"arn:aws:sqs:us-east-1:123456789012:{queue}")
        event["Records"].append(record)
    return event



_modules: dict[str, ModuleType] = {}


def function(name: str) -> Any:
    """``lambda_handler`` of functions/<name>/app.py, loaded as Lambda would."""
    if name not in _modules:
        path = REPO / "functions" / name / "app.py"
        spec = importlib.util.spec_from_file_location(f"fn_{name}_app", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[name] = module
    return _modules[name].lambda_handler


class LambdaContext:
    function_name = "numbridge-test"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:numbridge-test"
    memory_limit_in_mb = 512
    log_group_name = "/aws/lambda/numbridge-test"
    log_stream_name = "test"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


class Clock:
    def __init__(self, now: int = START_MS) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


class ManagementApi:
    """API Gateway's @connections API: delivers to open connections, 410 otherwise."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.open: set[str] = set()
        self.deleted: set[str] = set()
        self.frames: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.crash_after_commit = False

    def delete_connection(self, ConnectionId: str) -> dict[str, Any]:
        if ConnectionId not in self.open:
            raise ClientError(
                {"Error": {"Code": "GoneException", "Message": "gone"},
                 "ResponseMetadata": {"HTTPStatusCode": 410}},
                "DeleteConnection",
            )
        self.open.discard(ConnectionId)
        self.deleted.add(ConnectionId)
        return {}

    def post_to_connection(self, ConnectionId: str, Data: bytes) -> dict[str, Any]:
        if self.crash_after_commit:
            raise SystemExit("injected crash between commit and posts")
        if ConnectionId not in self.open:
            raise ClientError(
                {"Error": {"Code": "GoneException", "Message": "gone"},
                 "ResponseMetadata": {"HTTPStatusCode": 410}},
                "PostToConnection",
            )
        frame = json.loads(Data)
        validate_frame(frame)  # every frame the server sends fits the protocol models
        self.ledger.post(ConnectionId, frame)
        self.frames[ConnectionId].append(frame)
        return {}


class SpySqs:
    """The real (moto) SQS client, remembering the timer messages sent."""

    def __init__(self, client: Any, clock: Clock | None = None) -> None:
        self.client = client
        self.sent: list[dict[str, Any]] = []
        self.clock = clock  # when given, each message remembers when it was sent ("at")

    def send_message(self, **kwargs: Any) -> Any:
        self.sent.append({"body": json.loads(kwargs["MessageBody"]),
                          "delay": kwargs.get("DelaySeconds", 0), **self._at()})
        return self.client.send_message(**kwargs)

    def _at(self) -> dict[str, int]:
        return {} if self.clock is None else {"at": self.clock()}

    def send_message_batch(self, **kwargs: Any) -> Any:
        for entry in kwargs["Entries"]:
            self.sent.append({"body": json.loads(entry["MessageBody"]),
                              "delay": entry.get("DelaySeconds", 0), **self._at()})
        return self.client.send_message_batch(**kwargs)


_ids = itertools.count(1)


@dataclass
class Conn:
    world: World
    player: str
    id: str
    cursor: int = 0
    v: dict[str, int] = field(default_factory=dict)

    @property
    def frames(self) -> list[dict[str, Any]]:
        return self.world.api.frames[self.id]

    def new(self) -> list[dict[str, Any]]:
        """Frames received since the last call."""
        fresh = self.frames[self.cursor:]
        self.cursor = len(self.frames)
        for f in fresh:
            for one in f["events"] if f.get("type") == "events" else [f]:
                if "game" in one and "v" in one:
                    self.v[one["game"]] = max(self.v.get(one["game"], 0), one["v"])
        return fresh

    def raw(self, body: str, route: str | None = None) -> list[dict[str, Any]]:
        self.new()
        self.world.message(self.id, body, route)
        return self.new()

    def send(self, action: str, **fields: Any) -> list[dict[str, Any]]:
        rid = fields.pop("id", None) or f"r{next(_ids)}"
        return self.raw(json.dumps({"action": action, "id": rid, **fields}))

    def ask(self, action: str, **fields: Any) -> dict[str, Any]:
        """Send and return the direct answer (the frame carrying the request id)."""
        rid = fields.pop("id", None) or f"r{next(_ids)}"
        frames = self.send(action, id=rid, **fields)
        # Looked for in everything the connection got: a racing call on the same
        # connection (test_races) may have read this answer into its own window.
        answers = [f for f in self.frames if f.get("id") == rid]
        assert answers, f"no answer to {action}: {frames}"
        return answers[-1]

    def close(self) -> None:
        self.world.disconnect(self.id)


def dynamodb_store(dynamodb: Any) -> DynamoStore:
    """The game table on moto, created from the template. Calls are not serialised
    here: races meet in the store, as they would in DynamoDB (testkit.moto_server)."""
    create_tables(dynamodb, {"GameTable": "games"})
    return DynamoStore(dynamodb, "games")


class World:
    def __init__(self, store: Store, sqs: Any, seed: int = 7) -> None:
        queue_url = sqs.create_queue(QueueName="timers")["QueueUrl"]
        bot_queue_url = sqs.create_queue(QueueName="bots")["QueueUrl"]
        lobby_queue_url = sqs.create_queue(QueueName="lobby")["QueueUrl"]
        review_queue_url = sqs.create_queue(QueueName="reviews")["QueueUrl"]
        self.ledger = Ledger(store)  # what was committed and posted: World.check_secrets
        self.api = ManagementApi(self.ledger)
        self.clock = Clock()
        self.sqs = SpySqs(sqs)
        self.bot_sqs = SpySqs(sqs)
        self.lobby_sqs = SpySqs(sqs, self.clock)
        self.review_sqs = SpySqs(sqs)
        # (when due, body) of each lobby message sent: delivered by deliver_lobby
        self.lobby_due: list[tuple[int, dict[str, Any]]] = []
        self.store = store
        self.svc = Services(
            store=store, management=self.api, timers=SqsTimers(self.sqs, queue_url),
            bots=SqsBotTurns(self.bot_sqs, bot_queue_url, delay_ms=800),
            token_secret=lambda: SECRET, rooms=load_rooms(), clock=self.clock,
            # The harness's clock stands still: tests of the limit install their own.
            limiter=RateLimiter(burst=10**9),
            rng=random.Random(seed), deal_budget_s=20.0,
            lobby=SqsLobbyFeed(self.lobby_sqs, lobby_queue_url),
            reviews=SqsReviews(self.review_sqs, review_queue_url),
        )
        self.routes = routes()
        ctx.install(self.svc)

    def use_store(self, store: Any) -> None:
        """Route every handler through ``store`` (a wrapper around the real one): the
        services are built again on it, as a new Lambda container would build them."""
        self.svc = dataclasses.replace(self.svc, store=store)
        ctx.install(self.svc)

    # --- API Gateway ------------------------------------------------------------

    def connect(self, player: str | None, token: str | None = None,
                batch: bool = False) -> tuple[int, Conn | None]:
        event = load_event("connect")
        cid = f"conn{next(_ids)}="
        event["requestContext"]["connectionId"] = cid
        if token is None and player is not None:
            # The longest life: tests move the clock on by days.
            token = issue_token(player, SECRET, ttl_s=MAX_TTL_S)
        query = ({"token": token} if token else {}) | ({"batch": "1"} if batch else {})
        event["queryStringParameters"] = query or None
        event["multiValueQueryStringParameters"] = ({k: [v] for k, v in query.items()}
                                                    or None)
        answer = function(self.routes["$connect"])(event, LambdaContext())
        status = int(answer["statusCode"])
        if status != 200:
            return status, None
        self.api.open.add(cid)
        self.ledger.players[cid] = player or "?"
        return status, Conn(self, player or "?", cid)

    def join(self, player: str, batch: bool = False) -> Conn:
        status, conn = self.connect(player, batch=batch)
        assert status == 200 and conn is not None
        return conn

    def select_route(self, body: str) -> str:
        """As API Gateway (and the local gateway) select it."""
        return select_route(body, self.routes) or "$default"

    def message(self, cid: str, body: str, route: str | None = None) -> None:
        event = load_event("message-rooms")
        route = route or self.select_route(body)
        event["requestContext"].update(connectionId=cid, routeKey=route,
                                       messageId=f"m{next(_ids)}", requestId=f"q{next(_ids)}")
        event["body"] = body
        with self.ledger.handling(body):
            function(self.routes[route])(event, LambdaContext())

    def disconnect(self, cid: str) -> None:
        self.api.open.discard(cid)
        event = load_event("disconnect")
        event["requestContext"]["connectionId"] = cid
        function(self.routes["$disconnect"])(event, LambdaContext())

    # --- timers ---------------------------------------------------------------------

    def deliver_timers(self) -> dict[str, Any]:
        """Hand every timer message sent so far to the timeout function (as SQS would)."""
        event = load_event("timer-sqs")
        template = event["Records"][0]
        event["Records"] = []
        for i, sent in enumerate(self.sqs.sent):
            record = copy.deepcopy(template)
            record.update(messageId=f"t{i}", body=json.dumps(sent["body"]))
            event["Records"].append(record)
        self.sqs.sent.clear()
        return dict(function("timeout")(event, LambdaContext()))

    def deliver_bots(self, messages: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Hand the bot messages sent so far (or ``messages``) to the bot function, as SQS
        would; the clock moves on by each message's delay first."""
        if messages is None:
            messages = [sent["body"] for sent in self.sqs_bot_sent()]
            self.bot_sqs.sent.clear()
        event = sqs_event(messages, "b", "bots")
        self.clock.advance(1000)
        return dict(function("bot")(event, LambdaContext()))

    def deliver_reviews(self) -> dict[str, Any]:
        """Hand the review messages sent so far to the review function, as SQS would."""
        event = sqs_event([sent["body"] for sent in self.review_sqs.sent], "r", "reviews")
        self.review_sqs.sent.clear()
        return dict(function("review")(event, LambdaContext()))

    def sqs_bot_sent(self) -> list[dict[str, Any]]:
        return list(self.bot_sqs.sent)

    def play_bots(self, max_rounds: int = 400) -> int:
        """Deliver bot messages, and those they cause, until none is left; how many."""
        delivered = 0
        for _ in range(max_rounds):
            if not self.bot_sqs.sent:
                break
            delivered += len(self.bot_sqs.sent)
            assert self.deliver_bots() == {"batchItemFailures": []}
        assert not self.bot_sqs.sent, "the bots never stopped sending"
        return delivered

    def deliver_lobby(self) -> int:
        """Hand the lobby messages due by now (a delay counted from when each was sent,
        in whole seconds as SQS has it) to the fanout function in one batch, as the
        event source mapping would; how many."""
        for sent in self.lobby_sqs.sent:
            self.lobby_due.append((sent["at"] + 1000 * int(sent["delay"]), sent["body"]))
        self.lobby_sqs.sent.clear()
        due = [body for at, body in self.lobby_due if at <= self.clock()]
        self.lobby_due = [(at, body) for at, body in self.lobby_due if at > self.clock()]
        if not due:
            return 0
        event = sqs_event(due, "l", "lobby")
        assert function("fanout")(event, LambdaContext()) == {"batchItemFailures": []}
        return len(due)

    def sweep(self) -> dict[str, Any]:
        return dict(function("timeout")(load_event("sweep"), LambdaContext()))

    # --- inspection -------------------------------------------------------------------

    def stored_state(self, game: str) -> dict[str, Any]:
        row = self.svc.games.load(game)
        assert row is not None
        return row.state

    def check_secrets(self) -> Counter[str]:
        """Fail if any client received what it may not know (testkit.hidden) — every
        frame posted so far, to every connection; the frames checked, by type."""
        return self.ledger.check()

    def close(self) -> None:
        ctx.install(None)
