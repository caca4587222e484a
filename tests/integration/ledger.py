"""Every game's state at every version and every frame posted to every connection,
so a test can ask afterwards: did any client learn what it may not know?

The states come from the commits themselves (the store's ``transact``), so the
check knows, for each frame, what was hidden at the version it speaks of.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from numbridge import rules
from numbridge.protocol.models import EVENT_TYPES
from numbridge.store import keys
from numbridge.store.games import state_text, stored_events
from numbridge.store.port import Put, Store, Write, clean
from testkit.hidden import Secrets, leaks, said_in, secrets_of


@dataclass(frozen=True)
class Posted:
    connection: str
    frame: dict[str, Any]
    latest: dict[str, int]  # game → its committed version when the frame was posted
    request: dict[str, Any] | None  # the request this thread was handling


class Ledger:
    def __init__(self, store: Store) -> None:
        self.states: dict[str, dict[int, str]] = {}  # game → v → the state (JSON)
        self.events: dict[str, dict[int, tuple[str | None, dict[str, Any]]]] = {}
        self.players: dict[str, str] = {}  # connection → player
        self.posted: list[Posted] = []
        self._lock = threading.Lock()
        self._local = threading.local()
        real = store.transact

        def transact(writes: list[Write]) -> None:
            real(writes)
            self._committed(writes)

        store.transact = transact  # type: ignore[method-assign]

    # --- recording ----------------------------------------------------------------

    def _committed(self, writes: list[Write]) -> None:
        with self._lock:
            for w in writes:
                if not isinstance(w, Put) or not str(w.item["pk"]).startswith("GAME#"):
                    continue
                game = keys.game_id_of(str(w.item["pk"]))
                if w.item["sk"] == keys.STATE:
                    text = state_text(w.item)
                    if _parses(text):  # a test may poison a state on purpose
                        self.states.setdefault(game, {})[int(str(w.item["v"]))] = text
                elif str(w.item["sk"]).startswith("EV#"):
                    for e in stored_events(clean(w.item)):
                        self.events.setdefault(game, {})[e.v] = (e.to, e.frame)

    @contextmanager
    def handling(self, body: str) -> Iterator[None]:
        """Frames posted meanwhile on this thread answer (or follow) this request."""
        try:
            request = json.loads(body)
        except (ValueError, RecursionError):  # hostile bodies are the point of some tests
            request = None
        self._local.request = request if isinstance(request, dict) else None
        try:
            yield
        finally:
            self._local.request = None

    def post(self, connection: str, frame: dict[str, Any]) -> None:
        """Remember a posted frame; a batch of events as each of its events (each must be
        exactly what that event alone would have been)."""
        with self._lock:
            latest = {g: max(vs) for g, vs in self.states.items()}
            request = getattr(self._local, "request", None)
            for one in frame["events"] if frame.get("type") == "events" else [frame]:
                self.posted.append(Posted(connection, one, latest, request))

    # --- checking -----------------------------------------------------------------

    @cache  # noqa: B019 - one ledger per test
    def state(self, game: str, v: int) -> rules.GameState:
        return rules.GameState.from_dict(json.loads(self.states[game][v]))

    def secrets(self, game: str, v: int, seat: str | None) -> Secrets:
        """What ``seat`` may not know at version ``v`` (which may lie inside a commit
        of several events: the state committed with it, and the seat's hand as its
        ``hand`` events up to ``v`` left it)."""
        committed = sorted(self.states[game])
        at = self.state(game, next(c for c in committed if c >= v))
        found = secrets_of(at, seat)
        if seat is None or found.own_hand is None:
            return found
        before = max((c for c in committed if c <= v), default=committed[0])
        hand = tuple(self.state(game, before).hand(seat))  # type: ignore[arg-type]
        for u in range(before + 1, v + 1):
            to, event = self.events.get(game, {}).get(u, (None, {}))
            if to == seat and event.get("type") == "hand":
                hand = tuple(event["hand"])
        return dataclasses.replace(found, own_hand=hand)

    def seat(self, game: str, player: str) -> str | None:
        players = self.state(game, min(self.states[game])).players
        return next((s for s, p in players.items() if p == player), None)

    def check(self) -> Counter[str]:
        """Raise if any frame told its receiver something hidden; frames checked, by type."""
        problems: list[str] = []
        checked: Counter[str] = Counter()
        for posted in self.posted:
            player = self.players.get(posted.connection, "?")
            found = self._check(posted, player)
            problems += [f"to {player}: {p} in {posted.frame}" for p in found]
            checked[str(posted.frame.get("type"))] += 1
        assert not problems, "hidden information reached a client:\n" + "\n".join(problems)
        return checked

    def readable(self, game: str) -> bool:
        """Whether the game's states parse (a test may store a poisoned one on purpose)."""
        try:
            self.state(game, min(self.states[game]))
        except (ValueError, KeyError, TypeError):
            return False
        return True

    def _check(self, posted: Posted, player: str) -> list[str]:
        frame = posted.frame
        answered = posted.request if (posted.request or {}).get("id") == frame.get("id") else None
        # The game a frame speaks of: its own field, or that of the request it answers.
        about = frame.get("game", (answered or {}).get("game"))
        problems: list[str] = []
        for game, v in posted.latest.items():
            if not self.readable(game):
                continue
            seat = self.seat(game, player)
            if game != about:
                # Another game's secrets: only the solution itself could be recognised.
                problems += leaks(frame, [dataclasses.replace(
                    self.secrets(game, v, seat), cells=frozenset(), other_hands=(), bag=(),
                    own_hand=None, public_boards=frozenset(), only_solution=True)])
                continue
            if type(frame.get("v")) is int:
                v = frame["v"]
                if v > max(self.states[game]):
                    problems.append(f"a frame at v {v}, a version never committed")
                    continue
                problems += self._audience(frame, game, v, seat)
            problems += leaks(frame, [self.secrets(game, v, seat)], said_in(answered))
        return problems

    def _audience(self, frame: Mapping[str, Any], game: str, v: int,
                  seat: str | None) -> list[str]:
        """An event reaches its audience as stored; anyone else gets a bare placeholder."""
        kind = frame.get("type")
        if kind == "state":
            view = frame["view"]
            state = self.state(game, v)
            wrong = []
            if view["v"] != v:
                wrong.append(f"a state frame at v {v} with a view at v {view['v']}")
            if seat is not None and (view.get("you") != seat
                                     or view.get("hand") != list(state.hand(seat))):  # type: ignore[arg-type]

                wrong.append(f"a view for {seat} that is not {seat}'s")
            if seat is None and ({"you", "hand"} & set(view)):
                wrong.append("a spectator's view with a seat or a hand")
            return wrong
        if kind != "hidden" and kind not in EVENT_TYPES:
            return []
        stored = self.events.get(game, {}).get(v)
        if stored is None:
            return [f"an event at v {v} that was never committed"]
        to, event = stored
        expected = event if to is None or to == seat else {"type": "hidden", "game": game,
                                                            "v": v}
        return [] if dict(frame) == expected else [f"expected {expected}"]


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
