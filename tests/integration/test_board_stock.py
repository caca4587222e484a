"""The stock of dealt boards, through the real handlers on both stores: a proposal asking
a grade the dealer aims at (beyond) is dealt inline the first time, its refill goes to
the review queue after the players' frames, the review function fills the stock, and
the next games are dealt from it, each board once. The solution is in no frame (the
world's check after each test)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from harness import World
from numbridge.club.rooms_config import parse_rooms_yaml
from numbridge.coach import grade
from numbridge.service import context as ctx
from numbridge.store import keys
from numbridge.store.board_stock import DEPTH, STOCK_DAYS
from testkit.graded_rooms import BEYOND, GRADED


@pytest.fixture
def graded(world: World) -> World:
    world.svc = dataclasses.replace(world.svc, rooms=parse_rooms_yaml(GRADED, "(test)"))
    ctx.install(world.svc)
    return world


def stocked(world: World, setting: str = BEYOND) -> dict[int, dict[str, Any]]:
    """The stock's items by slot, read from the store (as only a test may)."""
    items = world.store.get_many([(keys.stock(setting), keys.stock_slot(n))
                                  for n in range(DEPTH)])
    return {n: item for n, item in enumerate(items) if item is not None}


def deal(world: World, *, seen: list[list[str]] | None = None,
         **choices: object) -> dict[str, Any]:
    """A game proposed in the graded room and accepted: the acceptor's first view. With
    ``seen``, each message sent to the review queue appends the frame types the acceptor
    had received by then."""
    ana, bob = world.join("ana"), world.join("bob")
    made = ana.ask("propose", room="graded", **choices)
    assert made["type"] == "proposal", made
    if seen is not None:
        real = world.review_sqs.send_message

        def spy(**kwargs: Any) -> Any:
            seen.append([f["type"] for f in bob.frames])
            return real(**kwargs)

        world.review_sqs.send_message = spy  # type: ignore[method-assign]
    try:
        assert bob.ask("accept", proposal=made["proposal"]["id"])["type"] == "ack"
    finally:
        if seen is not None:
            del world.review_sqs.send_message
    [view] = [f["view"] for f in bob.frames if f["type"] == "state"]
    return dict(view)


def refills(world: World) -> list[dict[str, Any]]:
    return [m["body"] for m in world.review_sqs.sent]


def test_a_rare_grade_is_dealt_inline_once_then_from_the_stock_the_refill_fills(
        graded: World) -> None:
    """Catches a refill sent before the players' frames (or not at all), a review
    function that cannot read it, a stock filled past its depth or with boards of
    another grade, a hit that leaves its board in the stock (dealt twice) or deals
    inline anyway, and boards dealt twice."""
    seen: list[list[str]] = []
    first = deal(graded, seen=seen, grade="beyond")
    assert grade(str(first["blocks"]), str(first["digits"])) == "beyond"
    assert refills(graded) == [{"stock": BEYOND}]
    assert seen == [["ack", "state"]]  # sent once the acceptor had the game's state
    assert stocked(graded) == {}  # a miss: dealt inline; nothing stocked before the refill
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    stock = stocked(graded)
    assert sorted(stock) == list(range(DEPTH))
    givens = {str(item["givens"]) for item in stock.values()}
    assert len(givens) == DEPTH
    # each for STOCK_DAYS from the refill, on the function's clock (then the store's TTL)
    assert {item["expires_at"] for item in stock.values()} == {
        graded.clock() // 1000 + STOCK_DAYS * 86_400}
    for item in stock.values():
        assert item["grade"] == "beyond" == grade(str(item["layout"]), str(item["givens"]))
        assert sum(ch != "." for ch in str(item["givens"])) == 26
    dealt = []
    for n in range(DEPTH):
        view = deal(graded, grade="beyond")
        assert view["grade"] == "beyond"
        dealt.append(view["digits"])
        assert len(stocked(graded)) == DEPTH - 1 - n  # the hit's item is gone
    assert set(dealt) == givens and len(set(dealt)) == DEPTH
    # each hit asks for a refill too; one delivery of them fills the stock once
    assert refills(graded) == [{"stock": BEYOND}] * DEPTH
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    again = {str(item["givens"]) for item in stocked(graded).values()}
    assert len(again) == DEPTH and not again & givens


def test_a_redelivered_refill_of_a_full_stock_deals_nothing(graded: World) -> None:
    """Catches a refill that replaces stocked boards (or fails on the filled slots):
    SQS delivers at least once."""
    deal(graded, grade="pairs")
    pairs = keys.stock_setting(9, "regular", 26, ["pairs"])
    sent = list(graded.review_sqs.sent)
    assert refills(graded) == [{"stock": pairs}]
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    before = stocked(graded, pairs)
    assert len(before) == DEPTH
    graded.review_sqs.sent.extend(sent)
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    assert stocked(graded, pairs) == before


def test_an_ask_not_stocked_sends_no_refill(graded: World) -> None:
    """Catches a refill for every graded deal: the room's own range starts at hidden
    singles, which the dealer does not aim at (dealt inline as fast as any board)."""
    view = deal(graded, clues=28)
    assert view["grade"] in ("hidden_single", "locked_candidates", "pairs", "beyond")
    assert refills(graded) == []


@pytest.mark.parametrize("setting", [
    "9-regular-99-beyond",          # no 9x9 board has 99 clues
    "7-regular-26-beyond",          # no such size
    "9-hexagonal-26-beyond",        # no such blocks
    "9-regular-26-naked_single",    # dealt inline: never stocked
    "9-regular-26-hard",            # no such grade
    "9-regular-26-pairs+beyond+pairs",  # not as a setting is written
    "GAME#g-1",
])
def test_a_hostile_stock_message_is_dropped_not_retried(graded: World, setting: str) -> None:
    """Catches a setting no deal may have dealt anyway (items no take reads, or a deal
    error retried until the dead-letter queue), or written at all."""
    graded.review_sqs.sent.append({"body": {"stock": setting}})
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    assert stocked(graded, setting) == {}


class StockDown:
    """The store, failing every read and write of a stock item (a throttled partition,
    an outage): everything else as the store does it."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def get_many(self, keys_: list[tuple[str, str]]) -> Any:
        if any(pk.startswith(keys.STOCK_PREFIX) for pk, _ in keys_):
            raise RuntimeError("stock unavailable")
        return self.store.get_many(keys_)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_a_stock_that_cannot_be_read_deals_inline_and_its_refill_is_retried(
        graded: World) -> None:
    """Catches a stock failure that fails the players' game (the stock is a shortcut,
    never a dependency), and a failed refill dropped instead of handed back to SQS."""
    real = graded.store
    graded.use_store(StockDown(real))
    view = deal(graded, grade="beyond")
    assert grade(str(view["blocks"]), str(view["digits"])) == "beyond"
    sent = list(graded.review_sqs.sent)
    assert [m["body"] for m in sent] == [{"stock": BEYOND}]
    assert len(graded.deliver_reviews()["batchItemFailures"]) == 1
    graded.use_store(real)
    graded.review_sqs.sent.extend(sent)  # SQS delivers it again
    assert graded.deliver_reviews() == {"batchItemFailures": []}
    assert len(stocked(graded)) == DEPTH
