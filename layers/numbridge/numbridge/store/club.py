"""Club data: proposals, each player's games, ratings, the archive."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from numbridge.names import fold_name
from numbridge.store import keys, state_codec
from numbridge.store.port import (
    Absent,
    ConflictError,
    Delete,
    Equals,
    KeyRange,
    Present,
    Put,
    Store,
    Write,
)
from numbridge.values import frozen

if TYPE_CHECKING:  # types only: the store knows no rules
    from numbridge.club.proposals import ProposalDoc

RATING_FIELDS = ("rating", "rd", "volatility")


PROPOSALS_PER_PLAYER = 5
PROPOSAL_TTL_MS = 3600 * 1000


@frozen
class Slot:
    """One of a player's open-proposal slots: which proposal holds it, until when."""

    n: int
    proposal: str
    expires_ms: int


@frozen
class StoredProposal:
    proposal: ProposalDoc
    slot: int | None  # None: made before proposals held slots


@frozen
class StoredRating:
    """A player's Glicko-2 rating in one variant; ``rv`` versions the item."""

    name: str
    rv: int
    games: int
    rating: float
    rd: float
    volatility: float


def lapsed(proposal: ProposalDoc, now_ms: int) -> bool:
    return bool(proposal["created_ms"] + PROPOSAL_TTL_MS <= now_ms)


class Proposals:
    """Open proposals, by room (a challenge: by the player it is addressed to); each
    also holds one of its author's five slots, so that the limit holds under concurrent
    proposes (a slot is taken conditionally)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def add_writes(proposal: ProposalDoc, slot: int, replacing: Slot | None) -> list[Write]:
        pid, room = proposal["id"], proposal["room"]
        expires_ms = proposal["created_ms"] + PROPOSAL_TTL_MS
        expires_s = expires_ms // 1000 + 1
        taken = Absent() if replacing is None else Equals({"proposal": replacing.proposal})
        # A challenge (``to``) is not in the room's list: only its one reader sees it,
        # under their name in the index (what their next lobby page lists).
        to = proposal.get("to")
        return [
            Put({"pk": keys.proposal(pid), "sk": keys.PROPOSAL,
                 "gsi1pk": keys.challenges(fold_name(to)) if to else keys.room(room),
                 "gsi1sk": keys.proposal_order(proposal["created_ms"], pid),
                 "proposal": json.dumps(proposal), "slot": slot, "expires_at": expires_s},
                Absent()),
            Put({"pk": keys.player(proposal["by"]), "sk": keys.proposal_slot(slot),
                 "proposal": pid, "expires_ms": expires_ms, "expires_at": expires_s}, taken),
        ]

    def slots(self, player: str) -> list[Slot]:
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.SLOT_PREFIX))
        return [Slot(int(str(i["sk"]).removeprefix(keys.SLOT_PREFIX)), str(i["proposal"]),
                     int(i["expires_ms"])) for i in page.items]

    def get(self, pid: str) -> StoredProposal | None:
        item = self.store.get(keys.proposal(pid), keys.PROPOSAL)
        if item is None:
            return None
        slot = item.get("slot")
        return StoredProposal(json.loads(str(item["proposal"])),
                              None if slot is None else int(slot))

    def in_room(self, room: str, *, limit: int | None = None,
                after: str | None = None) -> tuple[list[ProposalDoc], str | None]:
        page = self.store.query(keys.room(room), index=True, limit=limit, after=after)
        return [json.loads(str(i["proposal"])) for i in page.items], page.next

    def challenges_to(self, player: str, now_ms: int, *, limit: int) -> list[ProposalDoc]:
        """The open challenges addressed to ``player``, newest first, at most ``limit``:
        one query of the index, whose key range starts at the oldest that has not lapsed
        (the lapsed ones, waiting for the TTL, are not read)."""
        low = keys.proposal_order(now_ms - PROPOSAL_TTL_MS + 1, "")
        page = self.store.query(keys.challenges(fold_name(player)), KeyRange(low=low),
                                index=True, limit=limit, forward=False)
        return [json.loads(str(i["proposal"])) for i in page.items]

    def challenges_by(self, player: str, now_ms: int) -> list[ProposalDoc]:
        """The open challenges ``player`` made, oldest first: their slots (one query) and
        the proposals the slots hold (one batch read; at most five)."""
        held = sorted((s for s in self.slots(player) if s.expires_ms > now_ms),
                      key=lambda s: (s.expires_ms, s.proposal))
        if not held:
            return []
        pids = list(dict.fromkeys(s.proposal for s in held))
        items = self.store.get_many([(keys.proposal(pid), keys.PROPOSAL) for pid in pids])
        found: list[ProposalDoc] = []
        for item in items:
            if item is None:
                continue
            proposal: ProposalDoc = json.loads(str(item["proposal"]))
            if proposal.get("to") and not lapsed(proposal, now_ms):
                found.append(proposal)
        return found

    def lapsed(self, rooms: list[str], now_ms: int) -> list[StoredProposal]:
        """The listed proposals of these rooms that have lapsed (the index is in order of
        creation: one query of each room reads only those)."""
        high = keys.proposal_order(now_ms - PROPOSAL_TTL_MS, "\U0010ffff")
        found: list[StoredProposal] = []
        for room in rooms:
            page = self.store.query(keys.room(room), KeyRange(high=high), index=True,
                                    limit=100)
            for item in page.items:
                slot = item.get("slot")
                found.append(StoredProposal(json.loads(str(item["proposal"])),
                                            None if slot is None else int(slot)))
        return found

    def remove_writes(self, stored: StoredProposal) -> list[Write]:
        """Delete a proposal that must still exist, and free its author's slot (unless a
        newer proposal took it over after this one lapsed)."""
        pid, by = stored.proposal["id"], stored.proposal["by"]
        writes: list[Write] = [Delete(keys.proposal(pid), keys.PROPOSAL, Present())]
        if stored.slot is not None and any(
            s.n == stored.slot and s.proposal == pid for s in self.slots(by)
        ):
            writes.append(Delete(keys.player(by), keys.proposal_slot(stored.slot),
                                 Equals({"proposal": pid})))
        return writes


class PlayerGames:
    """One item per (player, game): what ``games`` lists, newest game first (game ids
    begin with their creation time)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def put_write(player: str, game_id: str, summary: dict[str, Any]) -> Write:
        return Put({"pk": keys.player(player), "sk": keys.player_game(game_id),
                    "summary": json.dumps(summary)})

    def of_player(self, player: str, *, limit: int | None = None,
                  after: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.GAME_PREFIX),
                                limit=limit, after=after, forward=False)
        return [json.loads(str(i["summary"])) for i in page.items], page.next


class Ratings:
    """Glicko-2 ratings per (player, variant); ``rv`` versions each rating item."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, player: str, variant: str) -> StoredRating | None:
        item = self.store.get(keys.player(player), keys.rating(variant))
        return None if item is None else _rating(item)

    @staticmethod
    def put_write(player: str, variant: str, rating: dict[str, float], games: int,
                  expected_rv: int | None, provisional: bool) -> Write:
        # Floats are stored as scaled integers: exact in both stores.
        scaled = {f"{f}_e6": round(rating[f] * 1e6) for f in RATING_FIELDS}
        values: dict[str, str | int] = {
            "pk": keys.player(player), "sk": keys.rating(variant),
            "gsi1pk": keys.leaderboard(variant),
            "gsi1sk": keys.leaderboard_rank(provisional, scaled["rating_e6"], player),
            "name": player, "rv": (expected_rv or 0) + 1, "games": games, **scaled,
        }
        if expected_rv is None:
            return Put(values, Absent())
        return Put(values, Equals({"rv": expected_rv}))

    def of_player(self, player: str) -> dict[str, StoredRating]:
        """The player's rating in each variant they have played rated, by variant."""
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.RATING_PREFIX))
        return {str(i["sk"]).removeprefix(keys.RATING_PREFIX): _rating(i) for i in page.items}

    def leaderboard(self, variant: str, *, limit: int | None = None,
                    after: str | None = None) -> tuple[list[StoredRating], str | None]:
        """In the leaderboard's order (established first, then by rating)."""
        page = self.store.query(keys.leaderboard(variant), index=True, limit=limit,
                                after=after)
        return [_rating(item) for item in page.items], page.next


def _rating(item: dict[str, Any]) -> StoredRating:
    # Floats are stored as scaled integers: exact in both stores.
    return StoredRating(str(item["name"]), int(item["rv"]), int(item["games"]),
                        *(int(item[f"{f}_e6"]) / 1e6 for f in RATING_FIELDS))


class Archive:
    def __init__(self, store: Store) -> None:
        self.store = store

    # A record is written once, in the transaction that ends its game (billed twice per
    # KB): packed as a state is (state_codec), a tenth of its JSON. Records archived
    # before as plain JSON (``record``) are read as they are.
    @staticmethod
    def put_write(game_id: str, record: dict[str, Any]) -> Write:
        # A tournament's game says so beside the packed record: what follows the commit
        # finds there whose step the finished game triggers (``service.commit``).
        return Put({"pk": keys.game(game_id), "sk": keys.RECORD,
                    "recordb": state_codec.pack(record, entries="moves"),
                    "tournament": record.get("tournament")}, Absent())

    def get(self, game_id: str) -> dict[str, Any] | None:
        """The record, with its ``review`` once one is stored (one read of both items)."""
        pk = keys.game(game_id)
        item, reviewed = self.store.get_many([(pk, keys.RECORD), (pk, keys.REVIEW)])
        if item is None:
            return None
        packed = item.get("recordb")
        if isinstance(packed, bytes):
            record = state_codec.unpack(packed, entries="moves")
        else:
            record = dict(json.loads(str(item["record"])))
        review = reviewed.get("reviewb") if reviewed is not None else None
        if isinstance(review, bytes) and "review" not in record:
            record["review"] = state_codec.unpack(review, entries="moves")
        return record

    # The review is computed after the game, off the request that finished it, and kept
    # beside the record (the record is never written again). Written once: a second
    # delivery of the same review finds it there.
    def put_review(self, game_id: str, review: dict[str, Any]) -> bool:
        """Store the game's review; False if one was stored already."""
        try:
            self.store.put({"pk": keys.game(game_id), "sk": keys.REVIEW,
                            "reviewb": state_codec.pack(review, entries="moves")}, Absent())
        except ConflictError:
            return False
        return True
