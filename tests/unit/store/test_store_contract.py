"""One contract, every adapter of the storage port: SQLite (a file) and DynamoDB (moto).

The DynamoDB adapter runs against moto's server in-process, which takes one
DynamoDB request at a time as DynamoDB applies each atomically, so the races
below run with the store's own concurrency on both adapters.
"""

from __future__ import annotations

import base64
import json
import threading
import zlib
from collections import Counter
from typing import Any, cast

import pytest
from numbridge.store import keys
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.games import Games, StoredEvent
from numbridge.store.port import (
    MAX_ITEM_BYTES,
    MAX_TRANSACTION_ITEMS,
    Absent,
    BadCursor,
    ConflictError,
    Delete,
    Equals,
    KeyRange,
    LimitError,
    Present,
    Put,
    Store,
    unchanged,
)
from numbridge.store.sqlite import SqliteStore
from testkit.states import late_bridge_state as _late_bridge_state


def item(pk: str, sk: str, **values: Any) -> dict[str, Any]:
    return {"pk": pk, "sk": sk, **values}


# ---------------------------------------------------------------- single items


def test_an_item_reads_back_as_written_and_none_means_absent(store: Store) -> None:
    store.put(item("A", "1", text="héllo ✓", n=12_345_678_901_234, yes=True, no=False,
                   gone=None))
    assert store.get("A", "1") == item("A", "1", text="héllo ✓", n=12_345_678_901_234,
                                       yes=True, no=False)
    assert store.get("A", "2") is None
    store.put(item("A", "1", n=2))  # a put replaces the whole item
    assert store.get("A", "1") == item("A", "1", n=2)


def test_conditions_hold_or_the_same_conflict_error_and_nothing_changes(store: Store) -> None:
    store.put(item("G", "S", v=1, turn="blue"), Absent())
    with pytest.raises(ConflictError):
        store.put(item("G", "S", v=9), Absent())
    with pytest.raises(ConflictError):
        store.put(item("G", "S", v=2, turn="red"), Equals({"v": 2, "turn": "blue"}))
    with pytest.raises(ConflictError):
        store.put(item("H", "S", v=1), Equals({"v": 1}))  # no such item
    with pytest.raises(ConflictError):
        store.put(item("H", "S", v=1), Present())
    assert store.get("G", "S") == item("G", "S", v=1, turn="blue")
    assert store.get("H", "S") is None
    store.put(item("G", "S", v=2, turn="red"), Equals({"v": 1, "turn": "blue"}))
    store.put(item("G", "S", v=3), Present())
    assert store.get("G", "S") == item("G", "S", v=3)


def test_delete_returns_what_it_removed_and_keeps_its_condition(store: Store) -> None:
    assert store.delete("P", "1") is None
    with pytest.raises(ConflictError):
        store.delete("P", "1", Present())
    store.put(item("P", "1", by="ana"))
    with pytest.raises(ConflictError):
        store.delete("P", "1", Equals({"by": "bob"}))
    assert store.delete("P", "1", Present()) == item("P", "1", by="ana")
    assert store.get("P", "1") is None


# ---------------------------------------------------------------- transactions


def test_a_transaction_is_all_or_nothing(store: Store) -> None:
    store.put(item("G", "STATE", v=1))
    losing = [
        Put(item("G", "EV#1", n=1), Absent()),
        Delete("X", "1"),
        Put(item("G", "STATE", v=2), Equals({"v": 7})),
    ]
    with pytest.raises(ConflictError):
        store.transact(losing)
    assert store.get("G", "EV#1") is None and store.get("G", "STATE") == item("G", "STATE", v=1)
    store.put(item("X", "1"))
    store.transact([Put(item("G", "EV#1", n=1), Absent()), Delete("X", "1", Present()),
                    Put(item("G", "STATE", v=2), Equals({"v": 1}))])
    assert store.get("G", "EV#1") == item("G", "EV#1", n=1)
    assert store.get("X", "1") is None and store.get("G", "STATE") == item("G", "STATE", v=2)


def test_limits_are_dynamodbs_on_every_adapter(store: Store) -> None:
    too_many = [Put(item("L", f"{i:03d}")) for i in range(MAX_TRANSACTION_ITEMS + 1)]
    with pytest.raises(LimitError):
        store.transact(too_many)
    assert store.query("L").items == []
    store.transact(too_many[:MAX_TRANSACTION_ITEMS])
    assert len(store.query("L").items) == MAX_TRANSACTION_ITEMS
    with pytest.raises(LimitError):
        store.put(item("B", "1", blob="x" * MAX_ITEM_BYTES))
    with pytest.raises(LimitError):
        store.transact([Put(item("D", "1")), Delete("D", "1")])  # one item twice
    assert store.get("B", "1") is None and store.get("D", "1") is None


# ---------------------------------------------------------------- queries


def test_queries_take_a_prefix_or_a_range_in_sort_key_order(store: Store) -> None:
    for sk in ["EV#000000003", "EV#000000001", "STATE", "EV#000000002", "RECORD", "EW", "EV"]:
        store.put(item("G", sk))
    store.put(item("H", "EV#000000001"))
    sks = [i["sk"] for i in store.query("G", KeyRange(prefix="EV#")).items]
    assert sks == ["EV#000000001", "EV#000000002", "EV#000000003"]
    sks = [i["sk"] for i in store.query("G", KeyRange(low="EV#000000002",
                                                       high="EV#999999999")).items]
    assert sks == ["EV#000000002", "EV#000000003"]
    sks = [i["sk"] for i in store.query("G", KeyRange(high="EV#000000001")).items]
    assert sks == ["EV", "EV#000000001"]
    backwards = [i["sk"] for i in store.query("G", forward=False).items]
    assert backwards == sorted(backwards, reverse=True) and len(backwards) == 7


def test_pages_follow_each_other_in_order_and_cursors_are_checked(store: Store) -> None:
    for n in range(23):
        store.put(item("P", f"K#{n:03d}", n=n))
        store.put(item(f"Q{n}", "X", gsi1pk="ROOM#a", gsi1sk=f"{n // 2:03d}", n=n))
    for index, pk in ((False, "P"), (True, "ROOM#a")):
        seen: list[int] = []
        after = None
        pages = 0
        while True:
            page = store.query(pk, index=index, limit=5, after=after)
            seen += [int(i["n"]) for i in page.items]
            pages += 1
            if page.next is None:
                break
            after = page.next
        assert sorted(seen) == list(range(23)) and len(seen) == 23, (index, seen)
        orders = [n // 2 for n in seen] if index else seen
        assert orders == sorted(orders)
        assert pages in (5, 6)  # DynamoDB may end on an empty page
    first = store.query("P", limit=5)
    assert first.next is not None
    with pytest.raises(BadCursor):
        store.query("P", limit=5, after="not a cursor!")
    with pytest.raises(BadCursor):
        store.query("Q1", limit=5, after=first.next)  # a cursor of another partition


def test_deadlines_are_read_from_the_games_their_rooms_list(store: Store) -> None:
    """The sweep's view: every game its room lists as being played, with the deadline its
    state runs to (a page of the room's list and a batch read of states at a time); the
    state itself is in no index, so a move writes no index entry."""
    from numbridge.store.live import PlayingGames

    games = Games(store)
    pair = {"blue": "ana", "red": "bob"}
    ids = [f"g-{n:03d}" for n in range(130)]  # more than a page, more than a batch read
    for n, game_id in enumerate(ids):
        room = ("bridge", "blitz")[n % 2]
        put = games.state_put(game_id, {}, v=n, turn="blue", step=1, status="playing",
                              players=pair, deadline_ms=1_000 + n, expected=None)
        assert "gsi1pk" not in put.item and "gsi1sk" not in put.item
        store.put(put.item)
        store.transact([PlayingGames.put_write(game_id, room, room, pair)])
    # Finished, adjourned (out of the list) or in a room not asked about: not listed here.
    store.put(games.state_put("g-over", {}, v=1, turn=None, step=0, status="finished",
                              players=pair, deadline_ms=5, expected=None).item)
    store.put(games.state_put("g-adj", {}, v=1, turn="blue", step=1, status="playing",
                              players=pair, deadline_ms=6, expected=None).item)
    store.transact([PlayingGames.put_write("g-adj", "bridge", "bridge", pair, listed=False)])
    store.put(games.state_put("g-std", {}, v=1, turn="blue", step=1, status="playing",
                              players=pair, deadline_ms=7, expected=None).item)
    store.transact([PlayingGames.put_write("g-std", "study", "bridge", pair)])
    # A state stored while the deadline was an index key is read the same.
    store.put({"pk": keys.game("g-old"), "sk": keys.STATE, "v": 3, "status": "playing",
               "turn": "red", "step": 1, "players": "{}", "gsi1pk": "DEADLINE#4",
               "gsi1sk": keys.deadline_order(8)})
    store.transact([PlayingGames.put_write("g-old", "blitz", "blitz", pair)])
    rooms = ["bridge", "blitz"]
    assert games.deadlines(rooms) == [("g-old", 3, 8)] + [
        (g, n, 1_000 + n) for n, g in enumerate(ids)]
    assert games.due(rooms, 1_009) == ["g-old", *ids[:10]]
    assert games.due([*rooms, "study"], 7) == ["g-std"]


# ---------------------------------------------------------------- races


def test_of_n_writers_on_one_version_exactly_one_wins(store: Store) -> None:
    store.put(item("G", "STATE", v=1))
    writers = 12
    start = threading.Barrier(writers)
    won: list[int] = []
    lost: list[int] = []

    def write(n: int) -> None:
        start.wait()
        try:
            store.transact([Put(item("G", "STATE", v=2, by=n), Equals({"v": 1})),
                            Put(item("G", "EV#2", by=n), Absent())])
            won.append(n)
        except ConflictError:
            lost.append(n)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == writers - 1
    (winner,) = won
    assert store.get("G", "STATE") == item("G", "STATE", v=2, by=winner)
    assert store.get("G", "EV#2") == item("G", "EV#2", by=winner)


def test_counters_read_modified_and_written_unchanged_lose_no_increment(store: Store) -> None:
    """A counter kept as the caps keep theirs: read, add one, write on condition that
    the item is as read; racing writers retry. Every increment lands, exactly once."""
    store.put(item("G", "PLAYING", room="blitz", watchers=0, gsi1pk="PLAYING#blitz",
                   gsi1sk="g"))
    writers, each = 8, 5
    start = threading.Barrier(writers)

    def bump() -> None:
        start.wait()
        for _ in range(each):
            while True:
                read = store.get("G", "PLAYING")
                assert read is not None
                try:
                    store.transact([Put({**read, "watchers": int(read["watchers"]) + 1},
                                        unchanged(read))])
                    break
                except ConflictError:
                    continue

    threads = [threading.Thread(target=bump) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = store.get("G", "PLAYING")
    assert final is not None and final["watchers"] == writers * each
    stale = {**final, "watchers": 0}
    with pytest.raises(ConflictError):  # a write from an older read loses
        store.put({**final, "watchers": 1}, unchanged(stale))


def test_racing_creators_of_one_item_one_wins(store: Store) -> None:
    writers = 8
    start = threading.Barrier(writers)
    results: list[bool] = []

    def create(n: int) -> None:
        start.wait()
        try:
            store.put(item("REQ#ana", "ID#1", n=n), Absent())
            results.append(True)
        except ConflictError:
            results.append(False)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1


def test_ten_thousand_concurrent_games_spread_over_the_deadline_shards() -> None:
    from numbridge.service.usecases.lobby import new_game_id

    start = 1_796_000_000_000
    ids = [new_game_id(start + n * 37) for n in range(10_000)]
    per_shard = Counter(keys.deadline_shard(game_id) for game_id in ids)
    assert set(per_shard) == set(keys.deadline_shards())
    mean = len(ids) / keys.DEADLINE_SHARDS
    # The ids are random: a shard's count is binomial (625, sd 24). Within 25 % (6.4 sd)
    # all 16 shards stay with a chance of 1 - 5e-9; the 20 % once asked missed 1 run in
    # 200,000. A hash that leaves the shards uneven is still far outside either bound.
    assert max(per_shard.values()) < 1.25 * mean and min(per_shard.values()) > 0.75 * mean


def test_partitions_are_listed_once_each_sorted_and_by_prefix(store: Store) -> None:
    from numbridge.store.port import ListingStore

    assert isinstance(store, (SqliteStore, DynamoStore))
    listing: ListingStore = store
    assert listing.partitions() == []
    for pk, sk in [("GAME#b", "STATE"), ("GAME#b", "EV#1"), ("GAME#a", "STATE"),
                   ("PLAYER#x", "RATING#bridge"), ("GAMER", "x")]:
        store.put(item(pk, sk))
    assert listing.partitions("GAME#") == ["GAME#a", "GAME#b"]
    assert listing.partitions() == ["GAME#a", "GAME#b", "GAMER", "PLAYER#x"]
    assert listing.partitions("NONE#") == []


# ---------------------------------------------------------------- game events


def _event(game: str, v: int, to: str | None = None, **extra: Any) -> StoredEvent:
    return StoredEvent(v, to, {"type": "placed", "game": game, "v": v, **extra})


def test_a_moves_events_are_one_item_and_read_back_in_order_from_any_version(
        store: Store) -> None:
    games = Games(store)
    moves = [[_event("g", 1), _event("g", 2, "blue", hand=[1, 2, 3]), _event("g", 3)],
             [_event("g", 4)], [_event("g", 5, "red"), _event("g", 6)]]
    for events in moves:
        puts = games.event_puts("g", events)
        assert len(puts) == 1
        store.transact(puts)
    assert len(store.query(keys.game("g"), KeyRange(prefix=keys.EVENT_PREFIX)).items) == 3
    everything = [e for events in moves for e in events]
    assert games.events_after("g", 0) == everything
    for v in range(7):
        assert games.events_after("g", v) == everything[v:]  # mid-item versions too
    assert games.events_after("g", 1, limit=2) == everything[1:3]


def test_a_version_is_written_once_even_inside_an_item(store: Store) -> None:
    games = Games(store)
    store.transact(games.event_puts("g", [_event("g", 1), _event("g", 2)]))
    with pytest.raises(ConflictError):  # a second writer of the same move
        store.transact(games.event_puts("g", [_event("g", 1, other=True), _event("g", 2)]))
    assert games.events_after("g", 0) == [_event("g", 1), _event("g", 2)]


def test_large_events_are_split_over_items_under_the_item_limit(store: Store) -> None:
    games = Games(store)
    pad = "x" * 50_000
    events = [_event("g", v, pad=pad) for v in range(1, 11)]
    puts = games.event_puts("g", events)
    assert 1 < len(puts) <= len(events)
    store.transact(puts)
    assert games.events_after("g", 0) == events
    assert games.events_after("g", 7) == events[7:]


def test_events_stored_one_item_each_before_are_read_beside_the_new_ones(
        store: Store) -> None:
    """A club upgrading: a game in play has its first events in the old layout."""
    games = Games(store)
    old = [_event("g", 1), _event("g", 2, "red", hand=[4]), _event("g", 3)]
    for e in old:
        store.put({"pk": keys.game("g"), "sk": keys.event(e.v), "v": e.v, "to": e.to,
                   "frame": json.dumps(e.frame)}, Absent())
    new = [_event("g", 4), _event("g", 5, "blue")]
    store.transact(games.event_puts("g", new))
    assert games.events_after("g", 0) == old + new
    assert games.events_after("g", 2) == old[2:] + new
    assert games.events_after("g", 4) == new[1:]
    with pytest.raises(ConflictError):  # an old item's version is not written again
        store.transact(games.event_puts("g", [_event("g", 3)]))


def test_a_batch_read_answers_each_key_in_order_and_keeps_the_limits(store: Store) -> None:
    store.put(item("A", "1", n=1))
    store.put(item("B", "2", n=2))
    assert store.get_many([("B", "2"), ("A", "9"), ("A", "1")]) == [
        item("B", "2", n=2), None, item("A", "1", n=1)]
    assert store.get_many([]) == []
    with pytest.raises(LimitError):
        store.get_many([("A", "1"), ("A", "1")])
    with pytest.raises(LimitError):
        store.get_many([("A", str(n)) for n in range(101)])
    many = [("A", str(n)) for n in range(100)]
    assert store.get_many(many)[1] == item("A", "1", n=1)


def test_a_read_ahead_state_serves_the_first_load_only(store: Store) -> None:
    games = Games(store)
    store.transact([games.state_put("g", {"x": 1}, v=1, turn="blue", step=1,
                                    status="playing", players={}, deadline_ms=None,
                                    expected=None)])
    [ahead] = store.get_many([Games.state_key("g")])
    assert ahead is not None
    store.put({**ahead, "v": 2})  # changed since it was read ahead
    with Games.read_ahead("g", ahead):
        first, second = games.load("g"), games.load("g")
    assert first is not None and second is not None
    assert (first.v, second.v) == (1, 2)
    assert first.unwatched


class _WriteCounter:
    """The store, counting the writes that go through it (reads pass straight on)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.count = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def put(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1
        self.store.put(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        self.count += 1
        return self.store.delete(*args, **kwargs)

    def transact(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1
        self.store.transact(*args, **kwargs)


def test_the_first_watch_takes_the_unwatched_mark_off_and_fails_a_move_decided_before(
        store: Store) -> None:
    games = Games(store)
    store.transact([games.state_put("g", {"x": 1}, v=1, turn="blue", step=1,
                                    status="playing", players={}, deadline_ms=None,
                                    expected=None)])
    decided = games.load("g")
    assert decided is not None and decided.unwatched
    games.mark_watched("g")
    watched = games.load("g")
    assert watched is not None and not watched.unwatched and watched.state == {"x": 1}
    move = games.state_put("g", {"x": 2}, v=2, turn="red", step=1, status="playing",
                           players={}, deadline_ms=None, expected=decided)
    with pytest.raises(ConflictError):  # decided before the watch: decided again
        store.transact([move])
    again = games.state_put("g", {"x": 2}, v=2, turn="red", step=1, status="playing",
                            players={}, deadline_ms=None, expected=watched)
    store.transact([again])
    after = games.load("g")
    assert after is not None and not after.unwatched  # never unwatched again
    before = store.get(*Games.state_key("g"))
    assert before is not None
    writes = _WriteCounter(store)
    Games(cast(Store, writes)).mark_watched("g")  # a second watch: nothing to do
    assert writes.count == 0
    assert store.get(*Games.state_key("g")) == before


def test_bytes_read_back_as_written_and_conditions_compare_them(store: Store) -> None:
    blob = bytes(range(256)) + b'{"b64": "not an object"}'
    store.put(item("B", "1", blob=blob, empty=b"\x00", text="b64"))
    assert store.get("B", "1") == item("B", "1", blob=blob, empty=b"\x00", text="b64")
    with pytest.raises(ConflictError):
        store.put(item("B", "1", blob=b"new"), Equals({"blob": blob[:-1]}))
    store.transact([Put(item("B", "1", blob=b"new"), Equals({"blob": blob}))])
    assert store.get_many([("B", "1")]) == [item("B", "1", blob=b"new")]
    assert store.query("B").items == [item("B", "1", blob=b"new")]


def _old_state_item(game_id: str, state: dict[str, Any], layout: str) -> dict[str, Any]:
    """A state item as games were stored before the packed layout (``stateb``)."""
    text = json.dumps(state)
    stored = ({"state": text} if layout == "state" else
              {"statez": base64.b64encode(zlib.compress(text.encode(), 6)).decode()})
    return {"pk": keys.game(game_id), "sk": keys.STATE, "v": 3, "turn": "blue", "step": 1,
            "status": "playing", "players": json.dumps({"blue": "ana", "red": "bob"}),
            **stored}


@pytest.mark.parametrize("layout", ["state", "statez"])
def test_a_state_stored_before_loads_and_its_next_move_stores_it_packed(
        store: Store, layout: str) -> None:
    """A club upgrading: a game in play was stored as plain JSON or as base64 zlib; it
    loads as it is (no migration) and the move upon it writes the packed layout."""
    games = Games(store)
    state = {"schema": 1, "v": 3, "record": [{"seat": "blue", "at_ms": 5, "time_ms": 5}]}
    store.put(_old_state_item("g", state, layout))
    row = games.load("g")
    assert row is not None and row.state == state and row.v == 3 and not row.unwatched
    assert row.players == {"blue": "ana", "red": "bob"}
    moved = {**state, "v": 4}
    store.transact([games.state_put("g", moved, v=4, turn="red", step=1, status="playing",
                                    players=row.players, deadline_ms=None, expected=row)])
    stored = store.get(*Games.state_key("g"))
    assert stored is not None and isinstance(stored["stateb"], bytes)
    assert not {"state", "statez"} & set(stored)
    after = games.load("g")
    assert after is not None and after.state == moved and after.v == 4


def test_a_late_state_item_is_written_in_one_kilobyte(store: Store) -> None:
    """What the packed layout is for: a Bridge game's state near its end, with the
    times of a real game, is at most 1 KB (one write unit a move, not two)."""
    from numbridge.store.port import item_bytes

    games = Games(store)
    state = _late_bridge_state()
    [put] = [games.state_put("g-1a229f12800840030d8e3", state, v=217, turn="blue", step=1,
                             status="playing", players={"blue": "bob", "red": "ana"},
                             deadline_ms=1_796_000_045_000, expected=None)]
    assert isinstance(put, Put)
    assert item_bytes(put.item) <= 1024
    store.transact([put])
    row = games.load("g-1a229f12800840030d8e3")
    assert row is not None and row.state == state


def test_an_archived_record_is_packed_and_one_archived_before_reads_as_it_was(
        store: Store) -> None:
    from numbridge import rules
    from numbridge.store.club import Archive
    from numbridge.store.port import item_bytes
    from testkit.states import played

    archive = Archive(store)
    record = rules.archive_record(played("bridge", left=0))
    put = Archive.put_write("g1", record)
    assert isinstance(put, Put) and item_bytes(put.item) * 4 < len(json.dumps(record))
    store.transact([put])
    assert archive.get("g1") == record
    store.put({"pk": keys.game("g0"), "sk": keys.RECORD, "record": json.dumps(record)})
    assert archive.get("g0") == record
    assert archive.get("g9") is None


def test_a_records_review_is_stored_once_and_read_with_it(store: Store) -> None:
    """Catches a review written over (a second delivery of the review queue recomputing
    it), lost by the record's read, or read into a record archived with its own review
    (a club file's)."""
    from numbridge import rules
    from numbridge.store.club import Archive
    from testkit.states import played

    archive = Archive(store)
    record = rules.archive_record(played("bridge", left=0))
    store.transact([Archive.put_write("g1", record)])
    review = {"moves": [{"n": 0, "seat": "blue", "reading": "naked_single",
                         "race": {"blue": 8, "red": 9}}],
              "summary": {"blue": {"placements": 1}, "red": {"placements": 0}}}
    assert archive.get("g1") == record and "review" not in record
    assert archive.put_review("g1", review) is True
    assert archive.put_review("g1", {"moves": [], "summary": {}}) is False
    assert archive.get("g1") == {**record, "review": review}
    store.transact([Archive.put_write("g2", {**record, "review": review})])
    assert archive.put_review("g2", {"moves": [], "summary": {}}) is True
    assert archive.get("g2") == {**record, "review": review}
