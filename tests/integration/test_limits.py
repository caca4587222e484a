"""Limits that keep the lobby usable: five open proposals each, an hour's life,
every list a page at a time (each answer fits one 32 KB frame: proposals, games,
live games, the leaderboard), a per-player request rate."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from harness import Conn, World
from numbridge.club.ratings import Rating
from numbridge.service.ratelimit import RateLimiter
from numbridge.service.usecases import lobby
from numbridge.service.usecases.pages import MAX_FRAME_BYTES, PAGE_SIZE
from numbridge.store.club import Proposals, Ratings
from players import start_game

HOUR_MS = 3600 * 1000


def fits_a_frame(answer: dict[str, Any]) -> None:
    assert len(json.dumps(answer, separators=(",", ":")).encode()) <= MAX_FRAME_BYTES


def all_pages(conn: Conn, action: str, key: str, **fields: Any) -> list[list[dict[str, Any]]]:
    pages, after = [], None
    while True:
        answer = conn.ask(action, **fields, **({"after": after} if after else {}))
        assert answer["type"] == action, answer
        fits_a_frame(answer)
        pages.append(answer[key])
        after = answer["next"]
        if after is None:
            return pages


def test_at_most_five_open_proposals_each_and_a_withdrawal_frees_one(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    made = [ana.ask("propose", room="bridge")["proposal"]["id"] for _ in range(5)]
    sixth = ana.ask("propose", room="bridge")
    assert (sixth["type"], sixth["code"]) == ("error", "illegal")
    assert "at most 5" in sixth["message"]
    assert bob.ask("propose", room="bridge")["type"] == "proposal"  # a limit per player
    assert ana.ask("withdraw", proposal=made[0])["type"] == "ack"
    assert ana.ask("propose", room="bridge")["type"] == "proposal"
    assert bob.ask("accept", proposal=made[1])["type"] == "ack"  # accepting frees one too
    assert ana.ask("propose", room="blitz")["type"] == "proposal"
    assert ana.ask("propose", room="blitz")["code"] == "illegal"


def test_a_proposal_lapses_after_an_hour(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    old = ana.ask("propose", room="bridge")["proposal"]["id"]
    world.clock.advance(10 * 60 * 1000)
    for _ in range(4):
        ana.ask("propose", room="bridge")
    world.clock.advance(HOUR_MS - 10 * 60 * 1000 - 1)
    assert old in [p["id"] for page in all_pages(bob, "proposals", "proposals", room="bridge")
                   for p in page]
    world.clock.advance(1)
    listed = [p["id"] for page in all_pages(bob, "proposals", "proposals", room="bridge")
              for p in page]
    assert old not in listed and len(listed) == 4
    late = bob.ask("accept", proposal=old)
    assert (late["code"], "lapsed" in late["message"]) == ("not_found", True)
    again = ana.ask("propose", room="bridge")  # the lapsed one's slot is free again
    assert again["type"] == "proposal"
    assert ana.ask("propose", room="bridge")["code"] == "illegal"


def test_the_limit_holds_when_proposals_race(world: World,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    ana = world.join("ana")
    for _ in range(3):
        ana.ask("propose", room="bridge")
    racers = 6
    barrier = threading.Barrier(racers)
    real_slots = Proposals.slots
    first_read = threading.local()

    def slots_then_wait(self: Proposals, player: str) -> Any:
        found = real_slots(self, player)
        if not getattr(first_read, "done", False):  # all read the same slots first
            first_read.done = True
            barrier.wait(timeout=10)
        return found

    monkeypatch.setattr(Proposals, "slots", slots_then_wait)
    devices = [world.join("ana") for _ in range(racers)]
    answers: list[dict[str, Any]] = []

    def propose(conn: Conn) -> None:
        answers.append(conn.ask("propose", room="bridge"))

    threads = [threading.Thread(target=propose, args=(d,)) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a["type"] for a in answers) == ["error"] * 4 + ["proposal"] * 2, answers
    monkeypatch.setattr(Proposals, "slots", real_slots)
    listed = all_pages(ana, "proposals", "proposals", room="bridge")
    assert sum(len(p) for p in listed) == 5


def test_proposals_come_a_page_at_a_time_in_order_across_rooms(world: World) -> None:
    players = [world.join(f"player-with-a-long-name-{n:04d}") for n in range(26)]
    made = []
    for conn in players:
        for room in ("bridge", "domains", "blitz", "bridge", "domains"):
            made.append(conn.ask("propose", room=room)["proposal"])
            world.clock.advance(1)
    pages = all_pages(players[0], "proposals", "proposals", room="bridge")
    assert [len(p) for p in pages] == [PAGE_SIZE, 2]
    bridge = [p for p in made if p["room"] == "bridge"]
    assert [p["id"] for page in pages for p in page] == [p["id"] for p in bridge]
    everywhere = all_pages(players[0], "proposals", "proposals")
    seen = [p["id"] for page in everywhere for p in page]
    assert sorted(seen) == sorted(p["id"] for p in made) and len(seen) == len(made)
    assert all(len(page) <= PAGE_SIZE for page in everywhere)
    bad = players[0].ask("proposals", room="bridge", after="bm90IGEgY3Vyc29y")
    assert (bad["type"], bad["code"]) == ("error", "malformed")


def test_games_come_newest_first_a_page_at_a_time(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    dealt = []
    for _ in range(PAGE_SIZE + 3):
        dealt.append(start_game(world, "blitz", ana, bob, rated=False))
        world.clock.advance(1000)
    pages = all_pages(bob, "games", "games")
    assert [len(p) for p in pages] == [PAGE_SIZE, 3]
    assert [g["game"] for page in pages for g in page] == dealt[::-1]
    # They are all being played: the live games, a page at a time too.
    live = all_pages(bob, "live", "games", room="blitz")
    assert [len(p) for p in live] == [PAGE_SIZE, 3]
    assert [g["game"] for page in live for g in page] == dealt[::-1]


def test_the_leaderboard_comes_in_rank_order_a_page_at_a_time(world: World) -> None:
    writes = []
    for n in range(PAGE_SIZE + 10):
        rating = Rating(1200.0 + (n * 37) % 600, 60.0 if n % 3 else 200.0, 0.06)
        writes.append(Ratings.put_write(
            f"p{n:03d}", "bridge", {"rating": rating.rating, "rd": rating.rd,
                                     "volatility": rating.volatility},
            games=5, expected_rv=None, provisional=rating.rd > 110))
    for start in range(0, len(writes), 25):
        world.store.transact(writes[start:start + 25])
    ana = world.join("ana")
    pages = all_pages(ana, "leaderboard", "players", variant="bridge")
    rows = [r for page in pages for r in page]
    assert [len(p) for p in pages] == [PAGE_SIZE, 10]
    assert rows == sorted(rows, key=lambda r: (r["provisional"], -r["rating"], r["name"]))
    assert sum(r["provisional"] for r in rows) == 20


def test_one_player_flooding_is_told_to_wait_and_the_others_are_not(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    limiter = world.svc.limiter = RateLimiter()
    answers = [ana.ask("rooms") for _ in range(limiter.burst + 5)]
    limited = [a for a in answers if a["type"] == "error"]
    assert len(limited) == 5 and {a["code"] for a in limited} == {"rate_limited"}
    assert all(0 < a["retry_after_ms"] <= 1000 / limiter.per_second + 1 for a in limited)
    assert bob.ask("rooms")["type"] == "rooms"  # a bucket per player
    world.clock.advance(limited[-1]["retry_after_ms"])
    assert ana.ask("rooms")["type"] == "rooms"


def test_game_ids_sort_by_creation() -> None:
    times = (1_796_000_000_000, 1_796_000_000_001, 1_800_000_000_000)
    ids = [lobby.new_game_id(ms) for ms in times]
    assert ids == sorted(ids) and len(set(ids)) == 3
