"""Tournaments in the one table: the event, its players, its rounds, its games.

Every item of a tournament is in its partition ``TOURNEY#t``:

| item | sk | gsi1pk / gsi1sk | written by |
| --- | --- | --- | --- |
| the tournament | ``TOURNEY`` | ``TOURNEYS#status`` / starts#t | create, start, each round, end |
| a player | ``PLAYER#a`` | ``STANDINGS#t`` / standing | join, leave, each of their results |
| a free arena player | ``WAIT#a`` | | a join, a result; a pairing, a leave |
| a pairing | ``PAIR#round#slot`` | | the pairing (a game, or a bye); its result |
| a game being played | ``LIVE#g`` | | the pairing (put); its result (deleted) |
| a round (Swiss, round robin) | ``ROUND#round`` | | the round's pairing, once |
| the last standings push | ``PUSHED`` | | at most every few seconds |
| its players, counted | ``COUNT#n`` (16) | | a join or leave (the player's shard) |

No item is written by every game of a tournament: a result writes its game's
``LIVE`` and ``PAIR`` items and its two players' items (a thousand players' games
contend for nothing), and the tournament's own item is written at its start, once a
round and at its end. Its players are counted in sixteen shards (a join or a leave
writes the player's own shard, so a crowd joining at the hour contends for sixteen
items, not one); the tournament's item takes the sum when it finishes.

**Exactly once.** A result is counted in one transaction that deletes the game's
``LIVE`` item on condition that it is there, and writes both players' items on
condition that they are as read: a duplicate trigger, a retry or a second step finds
the ``LIVE`` item gone (or loses the race) and counts nothing. A round is paired once:
its ``ROUND`` item is put on condition that it is absent, with the tournament's item
as read; each of its games is dealt in a transaction that puts its ``PAIR`` item on
condition that it is absent. An arena pairing deletes both players' ``WAIT`` items on
condition that they are still there: a player is never in two games at once.

**Queries, not reads of everyone.** The standings are a query of ``gsi1`` under
``STANDINGS#t``: highest score first while it runs (``1#``), the final table's rank
once it has finished (``0#``); the free arena players a query of ``WAIT#``; the games
still being played a query of ``LIVE#`` (a round has ended when none is left); the
tournaments in one status a query of ``gsi1`` under ``TOURNEYS#status``, in the order
they start — the sweep's query of the upcoming ones due to start.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    Item,
    KeyRange,
    Page,
    Put,
    Store,
    Value,
    Write,
    unchanged,
)
from numbridge.values import frozen

Kind = Literal["arena", "swiss", "round_robin"]
Status = Literal["upcoming", "running", "finished"]
Outcome = Literal["win", "draw", "loss"]
# Why a tournament finished without being played through: the host cancelled it, or a
# Swiss or round robin had fewer than two players at its start.
Cancelled = Literal["by_host", "too_few_players"]
CANCELLED: tuple[Cancelled, ...] = ("by_host", "too_few_players")
KINDS: tuple[Kind, ...] = ("arena", "swiss", "round_robin")
STATUSES: tuple[Status, ...] = ("upcoming", "running", "finished")
# A bye, and a win by forfeit in a round robin, are worth a win.
WIN2, DRAW2 = 2, 1


@frozen
class Tournament:
    """The tournament's own item (``item``: as read, the condition of its next write)."""

    id: str
    name: str
    kind: Kind
    room: str
    rated: bool
    status: Status
    starts_ms: int
    created_ms: int
    ends_ms: int | None = None
    rounds: int | None = None
    round: int = 0
    players: int = 0
    cancelled: Cancelled | None = None
    # A round robin's players in the order its Berger tables take them (fixed at start).
    order: tuple[str, ...] = ()
    item: Mapping[str, Value] | None = None

    def public(self) -> dict[str, Any]:
        """As ``tournaments`` and ``tournament`` show it (PROTOCOL.md's TOURNAMENT)."""
        shown: dict[str, Any] = {
            "id": self.id, "name": self.name, "kind": self.kind, "room": self.room,
            "rated": self.rated, "status": self.status, "starts_ms": self.starts_ms,
            "players": self.players}
        if self.ends_ms is not None:
            shown["ends_ms"] = self.ends_ms
        if self.kind != "arena":
            if self.rounds is not None:
                shown["rounds"] = self.rounds
            shown["round"] = self.round
        if self.cancelled is not None:
            shown["cancelled"] = self.cancelled
        return shown

    def to_item(self) -> dict[str, Value | None]:
        return {
            "pk": keys.tournament(self.id), "sk": keys.TOURNEY,
            "gsi1pk": keys.tournaments_by_status(self.status),
            "gsi1sk": keys.tournament_order(self.starts_ms, self.id),
            "id": self.id, "name": self.name, "kind": self.kind, "room": self.room,
            "rated": self.rated, "status": self.status, "starts_ms": self.starts_ms,
            "created_ms": self.created_ms, "ends_ms": self.ends_ms, "rounds": self.rounds,
            "round": self.round, "players": self.players,
            "cancelled": self.cancelled,
            "order": json.dumps(list(self.order)) if self.order else None,
        }

    def put_write(self, was: Tournament | None) -> Put:
        """This tournament stored: new (none of that id yet), or in place of ``was`` as
        read (a lost race is a :class:`~numbridge.store.port.ConflictError`)."""
        if was is None:
            return Put(self.to_item(), Absent())
        assert was.item is not None
        return Put(self.to_item(), unchanged(was.item))


def _opt_int(item: Mapping[str, Value], name: str) -> int | None:
    value = item.get(name)
    return None if value is None else int(str(value))


def _cancelled(value: Value | None) -> Cancelled | None:
    if value is True:  # stored before the reason was: the host's
        return "by_host"
    return value if value in CANCELLED else None


def tournament_of(item: Mapping[str, Value]) -> Tournament:
    return Tournament(
        id=str(item["id"]), name=str(item["name"]), kind=item["kind"],  # type: ignore[arg-type]
        room=str(item["room"]), rated=item.get("rated") is True,
        status=item["status"], starts_ms=int(str(item["starts_ms"])),  # type: ignore[arg-type]
        created_ms=int(str(item["created_ms"])), ends_ms=_opt_int(item, "ends_ms"),
        rounds=_opt_int(item, "rounds"), round=int(str(item.get("round", 0))),
        players=int(str(item.get("players", 0))), cancelled=_cancelled(item.get("cancelled")),
        order=tuple(str(n) for n in json.loads(str(item.get("order", "[]")))),
        item=dict(item))


@frozen
class Played:
    """One game of a player as their item keeps it (the pure modules' ``results.Played``
    is built from it)."""

    opponent: str
    seat: str
    outcome: Outcome
    game: str


@frozen
class Entrant:
    """A player's item: who, their rating at joining, their games and score."""

    name: str
    rating: float
    joined_ms: int
    active: bool = True  # joined and not left (nor withdrawn)
    score2: int = 0  # twice the score shown
    games: int = 0
    history: tuple[Played, ...] = ()
    byes: int = 0
    missed: int = 0  # rounds missed (absent at their pairing)
    playing: str = ""  # the game being played (arena), "" when free
    final_rank: int | None = None
    tiebreaks: tuple[float, ...] = ()
    item: Mapping[str, Value] | None = None

    def put_write(self, tournament_id: str, *, fresh: bool = False) -> Put:
        """This player stored: new (``fresh``), or in place of the item as read."""
        values: dict[str, Value | None] = {
            "pk": keys.tournament(tournament_id), "sk": keys.tournament_player(self.name),
            "gsi1pk": keys.standings(tournament_id),
            "gsi1sk": keys.standing_order(self.score2, self.name, self.final_rank),
            "player": self.name, "rating_e1": round(self.rating * 10),
            "joined_ms": self.joined_ms, "active": self.active, "score2": self.score2,
            "games": self.games, "byes": self.byes, "missed": self.missed,
            "playing": self.playing,
            "history": json.dumps([[p.opponent, p.seat, p.outcome, p.game]
                                   for p in self.history], separators=(",", ":")),
            "final_rank": self.final_rank,
            "tiebreaks": json.dumps(list(self.tiebreaks)) if self.tiebreaks else None,
        }
        if fresh or self.item is None:
            return Put(values, Absent())
        return Put(values, unchanged(self.item))


def entrant_of(item: Mapping[str, Value]) -> Entrant:
    history = tuple(Played(str(o), str(s), c, str(g))
                    for o, s, c, g in json.loads(str(item.get("history", "[]"))))
    tiebreaks = tuple(float(t) for t in json.loads(str(item.get("tiebreaks", "[]"))))
    return Entrant(
        name=str(item["player"]), rating=int(str(item["rating_e1"])) / 10,
        joined_ms=int(str(item["joined_ms"])), active=item.get("active") is True,
        score2=int(str(item.get("score2", 0))), games=int(str(item.get("games", 0))),
        history=history, byes=int(str(item.get("byes", 0))),
        missed=int(str(item.get("missed", 0))), playing=str(item.get("playing", "")),
        final_rank=_opt_int(item, "final_rank"), tiebreaks=tiebreaks, item=dict(item))


@frozen
class Pairing:
    """A pairing item: a game (``game``, ``blue``, ``red``; ``winner`` once counted,
    ``None`` a draw) or a bye (``bye``)."""

    tournament: str
    round: int
    slot: str
    game: str | None = None
    blue: str | None = None
    red: str | None = None
    bye: str | None = None
    done: bool = False
    winner: str | None = None
    item: Mapping[str, Value] | None = None

    @property
    def sort_key(self) -> str:
        return keys.tournament_pair(self.round, self.slot)

    def put_write(self, *, fresh: bool) -> Put:
        values: dict[str, Value | None] = {
            "pk": keys.tournament(self.tournament), "sk": self.sort_key,
            "round": self.round, "slot": self.slot, "game": self.game, "blue": self.blue,
            "red": self.red, "bye": self.bye, "done": self.done,
            "winner": self.winner if self.done else None}
        if fresh or self.item is None:
            return Put(values, Absent())
        return Put(values, unchanged(self.item))

    def public(self, with_round: bool) -> dict[str, Any]:
        """As the ``tournament`` answer lists it."""
        if self.bye is not None:
            return {"round": self.round, "bye": self.bye}
        shown: dict[str, Any] = {"game": self.game, "blue": self.blue, "red": self.red}
        if with_round:
            shown["round"] = self.round
        if self.done:
            shown["winner"] = self.winner
        return shown


def pairing_of(tournament_id: str, item: Mapping[str, Value]) -> Pairing:
    def text(name: str) -> str | None:
        value = item.get(name)
        return None if value is None else str(value)

    return Pairing(tournament=tournament_id, round=int(str(item["round"])),
                   slot=str(item["slot"]), game=text("game"), blue=text("blue"),
                   red=text("red"), bye=text("bye"), done=item.get("done") is True,
                   winner=text("winner"), item=dict(item))


@frozen
class RoundPlan:
    """A Swiss or round-robin round as paired, once: its pairs (blue, red) in slot order,
    the player with the bye, the players left out (absent)."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    absent: tuple[str, ...] = ()
    paired_ms: int = 0  # when it was paired (as read; a new plan is put with the time)

    def put_write(self, tournament_id: str, now_ms: int) -> Put:
        return Put({"pk": keys.tournament(tournament_id), "sk": keys.tournament_round(self.round),
                    "pairs": json.dumps([list(p) for p in self.pairs]), "bye": self.bye,
                    "absent": json.dumps(list(self.absent)), "paired_ms": now_ms}, Absent())


def round_plan_of(item: Mapping[str, Value]) -> RoundPlan:
    return RoundPlan(
        round=int(str(item["sk"]).removeprefix(keys.TOURNEY_ROUND_PREFIX)),
        pairs=tuple((str(b), str(r)) for b, r in json.loads(str(item["pairs"]))),
        bye=None if item.get("bye") is None else str(item["bye"]),
        absent=tuple(str(a) for a in json.loads(str(item.get("absent", "[]")))),
        paired_ms=int(str(item.get("paired_ms", 0))))


def slot_name(n: int) -> str:
    """A Swiss or round-robin pairing's slot in its round."""
    return f"{n:04d}"


BYE_SLOT = "bye"


class Tournaments:
    """The tournaments' items (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --------------------------------------------------------------- the tournament

    def get(self, tournament_id: str) -> Tournament | None:
        item = self.store.get(keys.tournament(tournament_id), keys.TOURNEY)
        return None if item is None else tournament_of(item)

    def in_status(self, status: Status, *, limit: int | None = None, after: str | None = None,
                  until_ms: int | None = None,
                  newest_first: bool = False) -> tuple[list[Tournament], str | None]:
        """The tournaments in one status, in the order they start (or the latest first;
        ``until_ms``: those starting by then only)."""
        high = None if until_ms is None else keys.tournament_order(until_ms, "\U0010ffff")
        page = self.store.query(keys.tournaments_by_status(status), KeyRange(high=high),
                                index=True, limit=limit, after=after, forward=not newest_first)
        return [tournament_of(i) for i in page.items], page.next

    def all_in_status(self, status: Status, until_ms: int | None = None) -> list[Tournament]:
        found: list[Tournament] = []
        after: str | None = None
        while True:
            page, after = self.in_status(status, after=after, until_ms=until_ms)
            found += page
            if after is None:
                return found

    # --------------------------------------------------------------- the count

    def counted(self, tournament_ids: Sequence[str]) -> dict[str, int]:
        """Each tournament's players (joined, not left): the sum of its count's shards."""
        wanted = [(keys.tournament(t), shard) for t in dict.fromkeys(tournament_ids)
                  for shard in keys.tournament_counts()]
        totals = dict.fromkeys(tournament_ids, 0)
        for start in range(0, len(wanted), 96):
            chunk = wanted[start:start + 96]
            for (pk, _), item in zip(chunk, self.store.get_many(chunk), strict=True):
                if item is not None:
                    totals[pk.removeprefix("TOURNEY#")] += int(str(item.get("players", 0)))
        return totals

    def count_shards(self, tournament_id: str) -> dict[int, int]:
        """Each shard of the tournament's count that holds one (a club's export)."""
        wanted = [(keys.tournament(tournament_id), shard) for shard in keys.tournament_counts()]
        return {n: int(str(item.get("players", 0)))
                for n, item in enumerate(self.store.get_many(wanted)) if item is not None}

    @staticmethod
    def count_put(tournament_id: str, shard: int, players: int) -> Put:
        """Shard ``shard`` of the count holding ``players`` (a club's import)."""
        return Put({"pk": keys.tournament(tournament_id), "sk": keys.tournament_counts()[shard],
                    "players": players}, Absent())

    def count_write(self, tournament_id: str, name: str, delta: int) -> Put:
        """The player's shard of the count moved by ``delta``, on condition that it is as
        read now."""
        shard = keys.tournament_count(name)
        was = self.store.get(keys.tournament(tournament_id), shard)
        players = int(str(was.get("players", 0))) if was else 0
        return Put({"pk": keys.tournament(tournament_id), "sk": shard,
                    "players": max(0, players + delta)},
                   Absent() if was is None else unchanged(was))

    # --------------------------------------------------------------- players

    def player(self, tournament_id: str, name: str) -> Entrant | None:
        item = self.store.get(keys.tournament(tournament_id), keys.tournament_player(name))
        return None if item is None else entrant_of(item)

    def players_of(self, tournament_id: str, names: Sequence[str]) -> dict[str, Entrant]:
        found: dict[str, Entrant] = {}
        unique = list(dict.fromkeys(names))
        for start in range(0, len(unique), 100):
            chunk = unique[start:start + 100]
            items = self.store.get_many([(keys.tournament(tournament_id),
                                          keys.tournament_player(n)) for n in chunk])
            found.update({str(i["player"]): entrant_of(i) for i in items if i is not None})
        return found

    def all_players(self, tournament_id: str) -> list[Entrant]:
        """Every player of the tournament (its start, a round's pairing, its end)."""
        return [entrant_of(i) for i in self._all(tournament_id, keys.TOURNEY_PLAYER_PREFIX)]

    def standings(self, tournament_id: str, *, limit: int | None = None,
                  after: str | None = None) -> Page:
        """One page of the standings, best first: a query of the index, not a read of
        every player."""
        return self.store.query(keys.standings(tournament_id), index=True, limit=limit,
                                after=after)

    # --------------------------------------------------------------- arena's free players

    def waiting(self, tournament_id: str) -> list[Item]:
        """The arena's free players (``player``, ``since_ms``), as their ``WAIT`` items."""
        return self._all(tournament_id, keys.TOURNEY_WAIT_PREFIX)

    @staticmethod
    def wait_write(tournament_id: str, name: str, since_ms: int) -> Put:
        return Put({"pk": keys.tournament(tournament_id), "sk": keys.tournament_waiting(name),
                    "player": name, "since_ms": since_ms})

    # --------------------------------------------------------------- games and rounds

    def live(self, tournament_id: str) -> list[Item]:
        """The tournament's games still being played (``game``, ``pair``)."""
        return self._all(tournament_id, keys.TOURNEY_LIVE_PREFIX)

    def live_game(self, tournament_id: str, game_id: str) -> Item | None:
        return self.store.get(keys.tournament(tournament_id), keys.tournament_live(game_id))

    @staticmethod
    def live_write(tournament_id: str, game_id: str, pair_key: str) -> Put:
        return Put({"pk": keys.tournament(tournament_id), "sk": keys.tournament_live(game_id),
                    "game": game_id, "pair": pair_key}, Absent())

    def pairing(self, tournament_id: str, sort_key: str) -> Pairing | None:
        item = self.store.get(keys.tournament(tournament_id), sort_key)
        return None if item is None else pairing_of(tournament_id, item)

    def pairings(self, tournament_id: str, round_no: int | None = None, *,
                 limit: int | None = None, newest_first: bool = False) -> list[Pairing]:
        """One round's pairings in slot order (``None``: every round's), or the newest."""
        prefix = keys.TOURNEY_PAIR_PREFIX if round_no is None else keys.tournament_pairs(round_no)
        page = self.store.query(keys.tournament(tournament_id), KeyRange(prefix=prefix),
                                limit=limit, forward=not newest_first)
        return [pairing_of(tournament_id, i) for i in page.items]

    def round_plan(self, tournament_id: str, round_no: int) -> RoundPlan | None:
        item = self.store.get(keys.tournament(tournament_id), keys.tournament_round(round_no))
        return None if item is None else round_plan_of(item)

    # --------------------------------------------------------------- pushes

    def pushed(self, tournament_id: str) -> Item | None:
        return self.store.get(keys.tournament(tournament_id), keys.TOURNEY_PUSHED)

    @staticmethod
    def pushed_write(tournament_id: str, sent_ms: int, due_ms: int,
                     was: Item | None, players: int | None = None) -> Write:
        """``players``: the count last pushed (kept as it was when None)."""
        if players is None and was is not None and was.get("players") is not None:
            players = int(str(was["players"]))
        item: dict[str, Value | None] = {
                "pk": keys.tournament(tournament_id), "sk": keys.TOURNEY_PUSHED,
                "sent_ms": sent_ms, "due_ms": due_ms, "players": players}
        return Put(item, Absent() if was is None else unchanged(was))

    # ---------------------------------------------------------------

    def _all(self, tournament_id: str, prefix: str) -> list[Item]:
        found: list[Item] = []
        after: str | None = None
        while True:
            page = self.store.query(keys.tournament(tournament_id), KeyRange(prefix=prefix),
                                    after=after)
            found += page.items
            after = page.next
            if after is None:
                return found
