"""Frames for fuzzing the message handler, and the checks every answer must pass.

Strategies: each client request (``numbridge.protocol.requests.REQUEST_KINDS``) as its
JSON Schema turned into values, aimed at a live game (its id, cells on and off
the board, digits held and not), and raw mutations of those frames —
truncation, byte flips, deep nesting, type swaps, huge numbers, NaN,
duplicate keys, unknown fields, lone surrogates, oversized frames, and text
and bytes that were never JSON. :class:`Fuzzer` sends them from players with a
seat, without one and from a connection that never signed in, mostly to
``MessageHandler.handle`` and some through the whole Lambda event, and checks:
no exception escapes; every answer is a valid frame (an ``error`` with the id
when it could be read, or a legal answer); a refusal changes no game and
reaches nobody else. Used by tests/integration/test_fuzz.py and
bench/fuzz_bench.py.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harness import Conn, LambdaContext, World, function, load_event
from hypothesis import strategies as st
from numbridge.protocol import FrameRefused
from numbridge.protocol.models import validate_frame
from numbridge.protocol.requests import REQUEST_KINDS
from numbridge.protocol.shapes import object_schema
from numbridge.protocol.wire import MAX_FRAME_BYTES, load_object
from numbridge.service.dispatch import MessageHandler
from numbridge.service.outcome import Outcome
from numbridge.store.port import Store, Write
from players import choose, current, start_game

Json = Any
_ids = itertools.count(1)

# --- values ------------------------------------------------------------------------

json_scalars = (st.none() | st.booleans() | st.integers(-(2**40), 2**40)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
json_values = st.recursive(json_scalars, lambda kids: st.lists(kids, max_size=4)
                           | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                           max_leaves=10)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Json]:
    """Values of the JSON Schema subset the request declarations make (protocol.shapes)."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0),
                       max_size=schema.get("maxLength", 20))
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum"), max_value=10**6)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array" and "prefixItems" in schema:
        return st.tuples(*(from_schema(s) for s in schema["prefixItems"])).map(list)
    raise ValueError(f"no strategy for the schema {schema}")


@dataclass
class Targets:
    """Ids and values worth aiming at; ``live`` changes when a game ends, so the
    strategies pick from here at draw time."""

    live: str = ""
    games: list[str] = field(default_factory=list)  # finished ones and "g-nope"
    proposals: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)  # the digits the players hold

    def game(self, pick: int) -> str:
        """Half the time the live game."""
        return self.live if pick % 2 == 0 else self.games[pick % len(self.games)]


def _pick(choose: Any) -> st.SearchStrategy[Json]:
    return st.integers(0, 1000).map(choose)


def aimed(name: str, schema: dict[str, Any], targets: Targets) -> st.SearchStrategy[Json]:
    plain = from_schema(schema)
    if name == "id":
        return st.builds(lambda: f"f-{next(_ids)}") | plain
    if name == "game":
        return _pick(targets.game) | plain
    if name == "proposal":
        return _pick(lambda i: targets.proposals[i % len(targets.proposals)]) | plain
    if name == "room":
        return _pick(lambda i: targets.rooms[i % len(targets.rooms)]) | plain
    if name == "cell":
        return st.lists(st.integers(-1, 9), min_size=2, max_size=2) | plain
    if name == "digit":
        return _pick(lambda i: targets.hand[i % len(targets.hand)]) | st.integers(0, 10) | plain
    if name == "v":
        return st.integers(0, 50) | plain
    return plain


def model_frames(targets: Targets) -> st.SearchStrategy[dict[str, Json]]:
    """Well-formed frames of every action (and some with optional fields left out)."""
    choices = []
    for name, kind in REQUEST_KINDS.items():
        schema = object_schema(kind.shapes, {"action": {"const": name, "type": "string"}})
        required = set(schema.get("required", []))
        props = schema["properties"]
        fixed = {k: aimed(k, s, targets) for k, s in props.items() if k in required}
        optional = {k: aimed(k, s, targets) for k, s in props.items() if k not in required}
        choices.append(st.fixed_dictionaries(fixed, optional=optional))
    return st.one_of(choices)


# --- mutations ------------------------------------------------------------------------


def _set(frame: dict[str, Json], key: str, raw_value: str) -> str:
    """The frame's JSON with ``key``'s value replaced by raw JSON text."""
    marker = "\u0000MARK\u0000"
    text = json.dumps({**frame, key: marker})
    return text.replace(json.dumps(marker), raw_value)


def _position(length: int) -> st.SearchStrategy[int]:
    """An index below ``length``, drawn the same way whatever the length (the live
    game's id, and so the frame's length, changes between examples)."""
    return st.integers(0, 2**20 - 1).map(lambda n: n * length >> 20)


@st.composite
def mutated(draw: st.DrawFn, models: st.SearchStrategy[dict[str, Json]]) -> str | bytes:
    frame = draw(models)
    text = json.dumps(frame)
    key = draw(st.sampled_from(sorted(frame)))
    kind = draw(st.sampled_from([
        "truncate", "flip", "nest", "nest_all", "swap", "huge", "nan", "duplicate",
        "unknown", "surrogate", "drop", "oversize", "float_int", "bool_int", "escape",
        "action",
    ]))
    if kind == "truncate":
        return text[: draw(_position(len(text)))]
    if kind == "flip":
        data = bytearray(text.encode())
        for _ in range(draw(st.integers(1, 4))):
            data[draw(_position(len(data)))] ^= draw(st.integers(1, 255))
        return bytes(data)
    if kind == "nest":
        depth = draw(st.sampled_from([31, 33, 100, 5000]))
        return _set(frame, key, "[" * depth + json.dumps(frame[key]) + "]" * depth)
    if kind == "nest_all":
        depth = draw(st.sampled_from([33, 1000, 20_000]))
        return "[" * depth + text + "]" * depth
    if kind == "swap":
        return json.dumps({**frame, key: draw(json_values)})
    if kind == "huge":
        digits = draw(st.integers(17, 6000))
        return _set(frame, key, draw(st.sampled_from(["", "-"])) + "9" * digits)
    if kind == "nan":
        return _set(frame, key, draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"])))
    if kind == "duplicate":
        return "{" + json.dumps(key) + ": " + json.dumps(draw(json_values)) + ", " + text[1:]
    if kind == "unknown":
        name = draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in frame))
        return json.dumps({**frame, name: draw(json_values)})
    if kind == "surrogate":
        return _set(frame, key, draw(st.sampled_from(['"\\ud800"', '"a\\udfffb"', '["\\udc00"]'])))
    if kind == "drop":
        return json.dumps({k: v for k, v in frame.items() if k != key})
    if kind == "oversize":
        return json.dumps({**frame, "pad": "x" * (MAX_FRAME_BYTES + 1 - len(text))})
    if kind == "float_int":
        return json.dumps({**frame, key: 1.0})
    if kind == "bool_int":
        return json.dumps({**frame, key: draw(st.booleans())})
    if kind == "action":
        return json.dumps({**frame, "action": draw(st.text(max_size=12) | json_values)})
    # escape: every character as \\uXXXX (still the same frame)
    return json.dumps(frame, ensure_ascii=True).replace('"action"', '"\\u0061ction"')


def frame_mix(targets: Targets) -> list[st.SearchStrategy[str | bytes]]:
    """What a hostile or careless client sends, one strategy per slot: frame ``k`` of
    a batch comes from slot ``k % len(slots)``, so the mix is exact (hypothesis, left
    to choose among them, mostly picks the same one). A third is well-formed and
    reaches the store; the rest is refused by the reader."""
    models = model_frames(targets)
    well_formed = models.map(json.dumps)
    return [
        well_formed, mutated(models), json_values.map(json.dumps), well_formed,
        mutated(models), st.text(max_size=40), well_formed, mutated(models),
        st.binary(max_size=40), well_formed, mutated(models), mutated(models),
    ]


# --- sending and checking ----------------------------------------------------------------


class FuzzFailure(AssertionError):
    pass


class GameWrites:
    """Wraps the store: remembers every write to a game's items that landed (a write
    refused by its condition changed nothing: a game action reusing another request's
    id is decided, and its commit fails on the receipt already there)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.games: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def put(self, item: Any, condition: Any = None) -> None:
        self._store.put(item, condition)
        self._note([str(item["pk"])])

    def delete(self, pk: str, sk: str, condition: Any = None) -> Any:
        old = self._store.delete(pk, sk, condition)
        self._note([pk])
        return old

    def transact(self, writes: Sequence[Write]) -> None:
        self._store.transact(writes)
        self._note([w.key[0] for w in writes])

    def _note(self, pks: list[str]) -> None:
        self.games.extend(pk for pk in pks if pk.startswith("GAME#"))


class Fuzzer:
    """A live game, its players, an outsider and a connection that never signed in."""

    def __init__(self, world: World, lambda_every: int = 20) -> None:
        self.world = world
        self.writes = GameWrites(world.svc.store)
        world.use_store(self.writes)
        self.handler = MessageHandler(world.svc)
        self.context = LambdaContext()
        self.lambda_every = lambda_every
        self.ana, self.bob, self.eve = (world.join(n) for n in ("ana", "bob", "eve"))
        self.ghost = Conn(world, "?", "never-signed-in=")
        world.api.open.add(self.ghost.id)
        self.senders = [self.ana, self.bob, self.eve, self.ghost]
        proposal = self.bob.ask("propose", room="domains")["proposal"]["id"]
        self.targets = Targets(games=["g-nope"], proposals=[proposal, "p-nope"],
                               rooms=[*world.svc.rooms.ids, "nowhere"])
        self.new_game()
        self.sent = 0
        self.answers: Counter[str] = Counter()  # to the fuzz's frames
        self.advanced: Counter[str] = Counter()  # to advance()'s legal actions
        self.own_proposals: dict[str, str] = {}
        self.seated: dict[str, set[str]] = {}
        self.watching: set[tuple[str, str]] = set()  # (player, game) a watch answered

    @property
    def live(self) -> str:
        return self.targets.live

    def new_game(self) -> None:
        if self.live:
            self.targets.games.append(self.live)  # still aimed at: a finished game
        self.targets.live = start_game(self.world, "bridge", self.ana, self.bob,
                                       colour="blue")
        self.games_played = getattr(self, "games_played", 0) + 1
        self._remember(current(self.world, self.live))

    def _remember(self, state: Any) -> None:
        self.snapshot = state.to_dict()
        self.targets.hand = sorted({*state.blue.hand, *state.red.hand}) or [1]

    # One frame: send it, check the answer.
    def send(self, sender: Conn, body: str | bytes, tally: Counter[str] | None = None) -> None:
        self.sent += 1
        self.writes.games.clear()
        if self.sent % self.lambda_every == 0:
            replies, pushes = self._through_lambda(sender, body)
        else:
            outcome = self.handler.handle(sender.id, body)
            replies, pushes = self._direct(outcome)
        self._check(sender, body, replies, pushes, self.answers if tally is None else tally)

    def advance(self) -> None:
        """A legal action by the player to move in the live game, sent and checked as any
        other frame: each batch moves the game on (into its later phases, and to its
        end), and a run always reaches the rules' success path."""
        state = current(self.world, self.live)
        if state.status != "playing" or state.turn is None:
            return  # adjourned by the fuzz's own frames: no move to make
        mover = self.ana if state.players[state.turn] == self.ana.player else self.bob
        fields = choose(state, random.Random(self.sent))
        self.send(mover, json.dumps({"id": f"f-{next(_ids)}", "game": self.live, **fields}),
                  self.advanced)

    def _direct(self, outcome: Outcome) -> tuple[list[dict[str, Any]], dict[str, list[Any]]]:
        for reply in outcome.replies:
            validate_frame(reply)
        pushed: dict[str, list[Any]] = {}
        for player, pushes in outcome.pushes:
            for frame in pushes:
                validate_frame(frame)
            if pushes:
                pushed.setdefault(player, []).extend(pushes)
        return list(outcome.replies), pushed

    def _through_lambda(self, sender: Conn,
                        body: str | bytes) -> tuple[list[dict[str, Any]], dict[str, list[Any]]]:
        event = load_event("message-rooms")
        event["requestContext"].update(connectionId=sender.id, routeKey="$default")
        if isinstance(body, bytes):
            event.update(body=base64.b64encode(body).decode(), isBase64Encoded=True)
        else:
            event["body"] = body
        conns = [self.ana, self.bob, self.eve, self.ghost]
        before = {c.id: len(c.frames) for c in conns}
        answer = function(self.world.routes["$default"])(event, LambdaContext())
        if answer != {"statusCode": 200}:
            raise FuzzFailure(f"the Lambda answered {answer}")
        fresh = {c.id: c.frames[before[c.id]:] for c in conns}  # validated when posted
        mine = fresh.pop(sender.id)
        # The replies come first, the last of them with the id; then the pushes to
        # the sender's own player.
        answered = max((i for i, f in enumerate(mine) if "id" in f), default=len(mine) - 1)
        replies, own = mine[:answered + 1], mine[answered + 1:]
        pushed = {c.player: fresh[c.id] for c in conns if c is not sender and fresh[c.id]}
        if own:
            pushed.setdefault(sender.player, []).extend(own)
        return replies, pushed

    def _check(self, sender: Conn, body: str | bytes, replies: list[dict[str, Any]],
               pushed: dict[str, list[Any]], tally: Counter[str]) -> None:
        if not replies:
            raise FuzzFailure(f"no answer to {body!r:.200}")
        answer = replies[-1]
        expected = _readable_id(body)
        tally[answer.get("code") or answer["type"]] += 1
        if "id" in answer and answer["id"] != expected:
            raise FuzzFailure(f"answer id {answer['id']!r}, expected {expected!r}: {body!r:.200}")
        if answer["type"] == "error":
            if len(replies) != 1:
                raise FuzzFailure(f"a refusal with more than its error: {replies}")
            if pushed:
                raise FuzzFailure(f"a refusal reached others: {pushed} for {body!r:.200}")
            self._unchanged(body, answer)
            return
        if sender is self.ghost:
            raise FuzzFailure(f"a connection that never signed in got {answer}")
        if answer["type"] == "proposal":
            self._keep_few_proposals(sender, answer["proposal"]["id"])
        if answer["type"] == "state" and _action(body) == "watch":
            self.watching.add((sender.player, answer["game"]))
        if answer["type"] == "ack" or pushed:
            self._after_change(sender, pushed)

    def _keep_few_proposals(self, author: Conn, proposal: str) -> None:
        """Aim at the new proposal, and withdraw the one before: lists stay short (and cheap)."""
        previous = self.own_proposals.pop(author.player, None)
        if previous is not None:
            author.ask("withdraw", proposal=previous)
            self.targets.proposals.remove(previous)
        self.own_proposals[author.player] = proposal
        self.targets.proposals.append(proposal)

    def _unchanged(self, body: str | bytes, answer: dict[str, Any]) -> None:
        if self.writes.games:
            raise FuzzFailure(f"a refusal ({answer}) wrote to {self.writes.games}: {body!r:.200}")

    def _after_change(self, sender: Conn, pushed: dict[str, list[Any]]) -> None:
        for player, frames in pushed.items():
            for frame in frames:
                game = frame["game"]
                if player not in self._players(game) and (player, game) not in self.watching:
                    raise FuzzFailure(f"{player} got a frame of a game not theirs: {frame}")
        state = current(self.world, self.live)
        if state.status == "finished":
            self.new_game()
        else:
            self._remember(state)

    def _players(self, game: str) -> set[str]:
        if game not in self.seated:
            self.seated[game] = set(current(self.world, game).players.values())
        return self.seated[game]

    def check_all(self) -> None:
        """Between batches: the live game is as the last accepted change left it."""
        if self.world.stored_state(self.live) != self.snapshot:
            raise FuzzFailure("the live game changed without an accepted request")


def _action(body: str | bytes) -> object:
    try:
        frame, _ = load_object(body)
    except FrameRefused:
        return None
    return frame.get("action")


def _readable_id(body: str | bytes) -> str | None:
    """The id an answer must carry: the request's, when the reader could read it."""
    try:
        _, rid = load_object(body)
    except FrameRefused as refused:
        return refused.request_id
    return rid
