"""The caps, each a typed refusal that changes nothing: three bot games in play per
player, ten open connections per player, twenty watched games per connection, five
hundred watchers per game (a smaller cap stands in for it where that many would only
be slow); ``live`` reads the count kept on the game's live item; the rate limit is
spent before the connection is read. Each also when requests race, and when a
hostile client repeats what was refused."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from harness import Conn, World
from numbridge.caps import (
    BOT_GAMES_PER_PLAYER,
    CONNECTION_LIFE_MS,
    CONNECTIONS_PER_PLAYER,
    WATCHERS_PER_GAME,
    WATCHES_PER_CONNECTION,
)
from numbridge.service.ratelimit import RateLimiter
from numbridge.store import keys
from numbridge.store.bot_slots import BotSlots
from numbridge.store.connections import Connections
from numbridge.store.port import Item, KeyRange, Page, Store
from numbridge.store.watches import Watches
from players import choose, current, start_game

SMALL_CAP = 5


def bot_game(conn: Conn, **fields: Any) -> dict[str, Any]:
    """A bot game's answer (the ack, or the refusal)."""
    return conn.ask("propose", room="blitz", bot="easy", **fields)


def bot_games_of(world: World, player: str) -> list[str]:
    """The player's games against the bot still in play, from the archive's view."""
    games = []
    for item in world.store.query(keys.player(player), KeyRange(prefix=keys.LIVE_PREFIX)).items:
        games.append(str(item["sk"]).removeprefix(keys.LIVE_PREFIX))
    return games


def slots(world: World, player: str) -> list[str]:
    return sorted(s.game for s in BotSlots(world.store).of_player(player))


def dealt_game(conn: Conn) -> str:
    """The game last dealt to this connection."""
    return str([f for f in conn.frames if f["type"] == "state"][-1]["game"])


# ---------------------------------------------------------------- bot games


def test_at_most_three_bot_games_in_play_and_each_way_of_ending_frees_one(
        world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    games = []
    for _ in range(BOT_GAMES_PER_PLAYER):
        assert bot_game(ana)["type"] == "ack"
        games.append(dealt_game(ana))
    refused = bot_game(ana, id="b4")
    assert refused == {"type": "error", "id": "b4", "code": "too_many_games",
                       "message": "at most 3 games against the bot in play each: finish, "
                                  "resign or abort one first"}
    assert ana.new() == [] and sorted(bot_games_of(world, "ana")) == sorted(games)
    assert bot_game(bob)["type"] == "ack"  # a cap per player
    # Resigning frees a place, and only one.
    assert ana.ask("resign", game=games[0])["type"] == "ack"
    assert bot_game(ana)["type"] == "ack"
    games.append(dealt_game(ana))
    assert bot_game(ana)["code"] == "too_many_games"
    # Aborting too.
    assert ana.ask("abort", game=games[1])["type"] == "ack"
    assert bot_game(ana)["type"] == "ack"
    games.append(dealt_game(ana))
    assert bot_game(ana)["code"] == "too_many_games"
    # A first move lost to the clock aborts the game by itself (the timer, or the sweep).
    world.clock.advance(10 * 60 * 1000)
    world.deliver_timers()
    world.sweep()
    assert {current(world, g).status for g in games[2:]} == {"finished"}
    assert slots(world, "ana") == []
    for _ in range(BOT_GAMES_PER_PLAYER):
        assert bot_game(ana)["type"] == "ack"
    assert bot_game(ana)["code"] == "too_many_games"


def test_an_adjourned_bot_game_keeps_its_place_until_it_finishes(world: World) -> None:
    ana = world.join("ana")
    assert bot_game(ana, colour="blue")["type"] == "ack"
    game = dealt_game(ana)
    for _ in range(BOT_GAMES_PER_PLAYER - 1):
        assert bot_game(ana)["type"] == "ack"
    assert ana.ask("offer_adjourn", game=game)["type"] == "ack"
    world.play_bots()
    assert current(world, game).status == "adjourned"
    assert bot_game(ana)["code"] == "too_many_games"
    assert ana.ask("resign", game=game)["type"] == "ack"  # resigning works while adjourned
    assert bot_game(ana)["type"] == "ack"


def test_a_game_lost_while_its_player_is_away_frees_its_place(world: World) -> None:
    """Timeouts, then the bot's goal or her game clock: the end the timers bring."""
    ana = world.join("ana")
    assert bot_game(ana, colour="blue")["type"] == "ack"
    game = dealt_game(ana)
    fields = choose(current(world, game), random.Random(1))
    assert ana.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"
    world.play_bots()
    for _ in range(100):  # then she is never there again: her game clock runs out
        if current(world, game).status == "finished":
            break
        world.clock.advance(31 * 1000)
        world.deliver_timers()
        world.play_bots()
    state = current(world, game)
    assert state.result is not None and state.result.winner == "red"
    assert state.result.by in ("time", "goal")
    assert slots(world, "ana") == []


def test_a_repeated_bot_propose_is_one_game_and_one_place(world: World) -> None:
    ana, phone = world.join("ana"), world.join("ana")
    first = bot_game(ana, id="same")
    again = bot_game(phone, id="same")
    assert first == again == {"type": "ack", "id": "same"}
    assert len(slots(world, "ana")) == 1 and len(bot_games_of(world, "ana")) == 1
    assert bot_game(ana)["type"] == "ack" and bot_game(ana)["type"] == "ack"
    refused = bot_game(ana, id="late")
    assert refused["code"] == "too_many_games"
    assert bot_game(phone, id="late") == refused  # the refusal is remembered too


def test_the_bot_game_cap_holds_when_proposes_race(world: World,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    racers = 6
    barrier = threading.Barrier(racers)
    real = BotSlots.of_player
    first_read = threading.local()

    def read_then_wait(self: BotSlots, player: str) -> Any:
        found = real(self, player)
        if not getattr(first_read, "done", False):  # all read the same (no) slots first
            first_read.done = True
            barrier.wait(timeout=30)
        return found

    monkeypatch.setattr(BotSlots, "of_player", read_then_wait)
    devices = [world.join("ana") for _ in range(racers)]
    answers: list[dict[str, Any]] = []
    threads = [threading.Thread(target=lambda d=d: answers.append(bot_game(d)))
               for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.setattr(BotSlots, "of_player", real)
    assert sorted(a["type"] for a in answers) == ["ack"] * 3 + ["error"] * 3, answers
    assert {a.get("code") for a in answers if a["type"] == "error"} == {"too_many_games"}
    assert len(bot_games_of(world, "ana")) == 3 and len(slots(world, "ana")) == 3


# ---------------------------------------------------------------- connections


def connections_of(world: World, player: str) -> list[str]:
    return Connections(world.store).of_player(player)


def test_at_most_ten_connections_each_refused_with_429(world: World) -> None:
    devices = [world.join("ana") for _ in range(CONNECTIONS_PER_PLAYER)]
    for _ in range(25):  # a hostile client retrying changes nothing
        status, conn = world.connect("ana")
        assert (status, conn) == (429, None)
    assert sorted(connections_of(world, "ana")) == sorted(d.id for d in devices)
    assert len(Connections(world.store).slots("ana")) == CONNECTIONS_PER_PLAYER
    assert all(d.ask("rooms")["type"] == "rooms" for d in devices)  # all still work
    assert world.join("bob").ask("rooms")["type"] == "rooms"  # a cap per player
    devices[3].close()
    replacement = world.join("ana")
    assert world.connect("ana")[0] == 429
    assert replacement.ask("rooms")["type"] == "rooms"


def test_a_connection_that_vanished_without_disconnect_stops_counting(world: World) -> None:
    for _ in range(CONNECTIONS_PER_PLAYER):
        world.join("ana")  # none of them will ever send $disconnect
    assert world.connect("ana")[0] == 429
    world.clock.advance(CONNECTION_LIFE_MS - 1)
    assert world.connect("ana")[0] == 429
    world.clock.advance(1)  # older than any connection lives: they are gone
    fresh = [world.join("ana") for _ in range(CONNECTIONS_PER_PLAYER)]
    assert world.connect("ana")[0] == 429
    stale = [c for c in connections_of(world, "ana") if c not in {f.id for f in fresh}]
    for cid in stale:  # their late $disconnect frees nobody else's slot
        world.disconnect(cid)
    assert world.connect("ana")[0] == 429
    assert len(Connections(world.store).slots("ana")) == CONNECTIONS_PER_PLAYER


def test_the_connection_cap_holds_when_connects_race(world: World) -> None:
    racers = 3 * CONNECTIONS_PER_PLAYER
    barrier = threading.Barrier(racers)
    statuses: list[int] = []

    def connect() -> None:
        barrier.wait(timeout=30)
        statuses.append(world.connect("ana")[0])

    threads = [threading.Thread(target=connect) for _ in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] * CONNECTIONS_PER_PLAYER + [429] * (
        racers - CONNECTIONS_PER_PLAYER)
    assert len(connections_of(world, "ana")) == CONNECTIONS_PER_PLAYER


# ---------------------------------------------------------------- watching


def games_in_play(world: World, n: int) -> list[str]:
    ana, bob = world.join("ana"), world.join("bob")
    games = []
    for _ in range(n):
        games.append(start_game(world, "blitz", ana, bob, rated=False))
        world.clock.advance(1)
    return games


def watch_rows(world: World, conn: Conn) -> int:
    return len(world.store.query(keys.connection(conn.id),
                                 KeyRange(prefix=keys.WATCH_PREFIX)).items)


def test_at_most_twenty_watched_games_per_connection(world: World) -> None:
    games = games_in_play(world, WATCHES_PER_CONNECTION + 1)
    cy = world.join("cy")
    for game in games[:WATCHES_PER_CONNECTION]:
        assert cy.ask("watch", game=game)["type"] == "state"
    extra = games[WATCHES_PER_CONNECTION]
    for n in range(30):  # asked again and again: the same refusal, nothing stored
        refused = cy.ask("watch", id=f"w{n}", game=extra)
        assert refused == {"type": "error", "id": f"w{n}", "code": "too_many_watches",
                           "message": "at most 20 games watched on one connection: "
                                      "unwatch one first"}
    assert watch_rows(world, cy) == WATCHES_PER_CONNECTION
    assert cy.ask("watch", game=games[0])["type"] == "state"  # watching again is no more
    assert world.join("cy").ask("watch", game=extra)["type"] == "state"  # per connection
    assert cy.ask("unwatch", game=games[0])["type"] == "ack"
    assert cy.ask("watch", game=extra)["type"] == "state"
    assert cy.ask("watch", game=games[0])["code"] == "too_many_watches"


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("numbridge.store.watches.WATCHERS_PER_GAME", SMALL_CAP)
    return SMALL_CAP


def live_entry(conn: Conn, game: str) -> dict[str, Any] | None:
    listed = conn.ask("live")["games"]
    return next((g for g in listed if g["game"] == game), None)


def watchers(world: World, n: int, prefix: str = "w") -> list[Conn]:
    return [world.join(f"{prefix}{i}") for i in range(n)]


def test_a_game_is_full_at_its_cap_of_watchers(world: World, small_cap: int) -> None:
    [game] = games_in_play(world, 1)
    crowd = watchers(world, small_cap)
    for conn in crowd:
        assert conn.ask("watch", game=game)["type"] == "state"
    late = world.join("late")
    refused = late.ask("watch", id="x", game=game)
    assert refused == {"type": "error", "id": "x", "code": "full",
                       "message": f"game {game} has {small_cap} watchers already"}
    for _ in range(20):
        assert late.ask("watch", game=game)["code"] == "full"
    assert Watches(world.store).count(game, world.clock()) == small_cap
    entry = live_entry(late, game)
    assert entry is not None and entry["watchers"] == small_cap
    assert crowd[0].ask("unwatch", game=game)["type"] == "ack"
    assert late.ask("watch", game=game)["type"] == "state"
    assert crowd[0].ask("watch", game=game)["code"] == "full"
    crowd[1].close()  # a closed connection's watch goes, and its place in the count
    assert crowd[0].ask("watch", game=game)["type"] == "state"
    entry = live_entry(late, game)
    assert entry is not None and entry["watchers"] == small_cap


def test_watches_the_ttl_removed_do_not_keep_a_game_full(world: World,
                                                          small_cap: int) -> None:
    [game] = games_in_play(world, 1)
    crowd = watchers(world, small_cap)
    for conn in crowd:
        assert conn.ask("watch", game=game)["type"] == "state"
    for conn in crowd[:2]:  # gone without $disconnect, their watches expired
        world.store.delete(keys.game(game), keys.watcher(conn.id))
    assert world.join("late").ask("watch", game=game)["type"] == "state"
    assert Watches(world.store).count(game, world.clock()) == small_cap - 1


def test_the_watcher_cap_holds_when_watches_race(world: World, small_cap: int) -> None:
    [game] = games_in_play(world, 1)
    crowd = watchers(world, 3 * small_cap)
    barrier = threading.Barrier(len(crowd))
    answers: list[dict[str, Any]] = []

    def watch(conn: Conn) -> None:
        barrier.wait(timeout=30)
        for _ in range(10):  # conflict means "retry"
            answer = conn.ask("watch", game=game)
            if answer.get("code") != "conflict":
                break
        answers.append(answer)

    threads = [threading.Thread(target=watch, args=(c,)) for c in crowd]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kinds = sorted(a.get("code", a["type"]) for a in answers)
    assert kinds == ["full"] * (2 * small_cap) + ["state"] * small_cap, kinds
    assert Watches(world.store).count(game, world.clock()) == small_cap
    entry = live_entry(crowd[0], game)
    assert entry is not None and entry["watchers"] == small_cap


def test_an_adjourned_game_keeps_its_watchers_counted(world: World, small_cap: int) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob, rated=False, colour="blue")
    crowd = watchers(world, small_cap)
    for conn in crowd:
        assert conn.ask("watch", game=game)["type"] == "state"
    assert ana.ask("offer_adjourn", game=game)["type"] == "ack"
    assert bob.ask("accept_adjourn", game=game)["type"] == "ack"
    assert live_entry(ana, game) is None  # adjourned games are not listed
    assert world.join("late").ask("watch", game=game)["code"] == "full"
    assert crowd[0].ask("unwatch", game=game)["type"] == "ack"
    assert ana.ask("resume", game=game)["type"] == "ack"
    assert bob.ask("resume", game=game)["type"] == "ack"
    entry = live_entry(ana, game)
    assert entry is not None and entry["watchers"] == small_cap - 1


class CountingStore:
    """The store, counting its reads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads: list[str] = []

    def get(self, pk: str, sk: str) -> Item | None:
        self.reads.append(f"get {pk} {sk}")
        return self.store.get(pk, sk)

    def query(self, pk: str, *args: Any, **kwargs: Any) -> Page:
        self.reads.append(f"query {pk}")
        return self.store.query(pk, *args, **kwargs)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        return getattr(self.store, name)  # type: ignore[no-any-return]


def test_live_reads_the_count_not_the_watchers(world: World,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    games = games_in_play(world, 3)
    cy, dan = world.join("cy"), world.join("dan")
    for conn in (cy, dan):
        assert conn.ask("watch", game=games[1])["type"] == "state"
    counting = CountingStore(world.store)
    world.use_store(counting)

    def no_audience(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("live must not count a game's watchers")

    monkeypatch.setattr(Watches, "audience", no_audience)
    monkeypatch.setattr(Watches, "of_game", no_audience)
    listed = {g["game"]: (g["watchers"], g["v"]) for g in cy.ask("live", room="blitz")["games"]}
    assert listed == {games[0]: (0, 0), games[1]: (2, 0), games[2]: (0, 0)}
    assert not [r for r in counting.reads if keys.WATCH_PREFIX in r]


# ---------------------------------------------------------------- the rate limit


def test_a_flooding_connection_costs_no_store_read(world: World) -> None:
    ana = world.join("ana")
    world.svc.limiter = RateLimiter(burst=3, per_second=1.0)
    for _ in range(3):
        assert ana.ask("rooms")["type"] == "rooms"
    counting = CountingStore(world.store)
    world.use_store(counting)
    for _ in range(50):
        answer = ana.ask("rooms")
        assert answer["code"] == "rate_limited" and answer["retry_after_ms"] > 0
    assert counting.reads == []
    phone = world.join("ana")  # the player's bucket is spent too: one more device is no
    assert phone.ask("rooms")["code"] == "rate_limited"  # way round the limit
    world.clock.advance(1000)
    assert ana.ask("rooms")["type"] == "rooms"


# On SQLite only: five hundred watches take minutes on moto (the counting is the same
# code on both adapters, and the smaller cap above runs on both).
@pytest.mark.parametrize("world", ["sqlite"], indirect=True)
def test_the_five_hundredth_watcher_is_the_last(world: World) -> None:
    """The real cap (the tests above stand a smaller one in for it)."""
    [game] = games_in_play(world, 1)
    crowd = [world.join(f"fan{n // CONNECTIONS_PER_PLAYER}")
             for n in range(WATCHERS_PER_GAME)]
    assert {c.ask("watch", game=game)["type"] for c in crowd} == {"state"}
    refused = world.join("late").ask("watch", id="one-too-many", game=game)
    assert refused == {"type": "error", "id": "one-too-many", "code": "full",
                       "message": f"game {game} has 500 watchers already"}
    assert Watches(world.store).count(game, world.clock()) == WATCHERS_PER_GAME
