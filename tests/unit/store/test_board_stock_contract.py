"""The stock of dealt boards (store.board_stock), on every adapter of the storage port:
each board put is taken once, whoever races; a slot is filled once; the free slots are
the ones listed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from numbridge.rules.geometry import Layout
from numbridge.rules.options import Board
from numbridge.store import keys
from numbridge.store.board_stock import DEPTH, STOCK_DAYS, BoardStock
from numbridge.store.port import Condition, Item, Store

SETTING = keys.stock_setting(9, "regular", 26, ["beyond"])
NOW = 1_800_000_000  # epoch seconds


def board(n: int) -> Board:
    """A valid 9x9 board, one of many: a fixed solution's digits relabelled by ``n``
    (the stock keeps boards; it does not deal them)."""
    relabel = "".join(str((d + n) % 9 + 1) for d in range(9))
    solution = "".join(relabel[(r * 3 + r // 3 + c) % 9] for r in range(9) for c in range(9))
    return Board(Layout.regular(9), solution[:40] + "." * 41, solution, "beyond")


def test_each_board_put_is_taken_once_and_then_the_stock_is_empty(store: Store) -> None:
    """Catches a take that reads without removing (a board dealt twice, its solution to
    two games), or one that loses a board's fields on the way back."""
    stock = BoardStock(store)
    assert stock.take(SETTING) is None
    put = {board(n) for n in range(DEPTH)}
    for slot, one in enumerate(sorted(put, key=lambda b: b.givens)):
        assert stock.put(SETTING, slot, one, now_s=NOW)
    taken = [stock.take(SETTING) for _ in range(DEPTH)]
    assert set(taken) == put
    assert stock.take(SETTING) is None
    assert stock.missing(SETTING) == list(range(DEPTH))


def test_missing_lists_the_free_slots_and_a_filled_slot_is_not_filled_again(
        store: Store) -> None:
    """Catches a put that overwrites a stocked board (two refillers: the first board
    lost, or taken twice), and free slots misreported."""
    stock = BoardStock(store)
    assert stock.missing(SETTING) == [0, 1, 2, 3]
    assert stock.put(SETTING, 1, board(1), now_s=NOW)
    assert stock.put(SETTING, 3, board(3), now_s=NOW)
    assert stock.missing(SETTING) == [0, 2]
    assert not stock.put(SETTING, 1, board(7), now_s=NOW)
    assert store.get(keys.stock(SETTING), keys.stock_slot(1))["givens"] == board(1).givens
    other = keys.stock_setting(9, "regular", 27, ["beyond"])
    assert stock.missing(other) == [0, 1, 2, 3]  # settings do not share slots
    assert stock.take(other) is None


def test_a_slot_out_of_the_stock_is_refused(store: Store) -> None:
    """Catches a stock that grows past its depth (each item a solution at rest)."""
    with pytest.raises(ValueError, match="slots"):
        BoardStock(store).put(SETTING, DEPTH, board(0), now_s=NOW)


class Interleaved:
    """A store on which a rival's whole take runs between this taker's read of the
    slots and its delete: both saw the same board."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rival: list[Board | None] = []

    def get_many(self, keys_: Sequence[tuple[str, str]]) -> list[Item | None]:
        return self.store.get_many(keys_)

    def delete(self, pk: str, sk: str, condition: Condition | None = None) -> Item | None:
        if not self.rival:
            self.rival.append(BoardStock(self.store).take(SETTING))
        return self.store.delete(pk, sk, condition)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_two_takers_racing_for_the_last_board_one_gets_it(store: Store) -> None:
    """Catches a take that hands out the board it read rather than the one its own
    conditional delete removed: both takers would deal the one board."""
    BoardStock(store).put(SETTING, 2, board(2), now_s=NOW)
    racing = Interleaved(store)
    mine = BoardStock(racing).take(SETTING)  # type: ignore[arg-type]
    got = [b for b in (mine, *racing.rival) if b is not None]
    assert got == [board(2)]
    assert BoardStock(store).missing(SETTING) == list(range(DEPTH))


def test_a_taker_that_loses_one_board_takes_the_next(store: Store) -> None:
    """Catches a take that gives up (dealing inline) when another taker won the first
    board it saw, though more are stocked."""
    stock = BoardStock(store)
    stock.put(SETTING, 0, board(0), now_s=NOW)
    stock.put(SETTING, 1, board(1), now_s=NOW)
    racing = Interleaved(store)
    mine = BoardStock(racing).take(SETTING)  # type: ignore[arg-type]
    assert {mine, *racing.rival} == {board(0), board(1)}
    assert stock.take(SETTING) is None


def test_the_setting_reads_back_and_names_grades_in_one_order() -> None:
    """Catches two keys for one ask (grades listed in another order: two stocks, each
    filled, half the hits) and a setting that does not read back."""
    a = keys.stock_setting(9, "irregular", 24, ["pairs", "locked_candidates"])
    b = keys.stock_setting(9, "irregular", 24, ["locked_candidates", "pairs"])
    assert a == b == "9-irregular-24-locked_candidates+pairs"
    assert keys.stock_setting_fields(a) == (9, "irregular", 24, ("locked_candidates", "pairs"))
    for bad in ("", "9-regular-26", "9-regular-x-beyond", "9-regular-26-pairs+locked_candidates",
                "9-regular-26-beyond-1", "x9-regular-26-beyond"):
        with pytest.raises(ValueError):
            keys.stock_setting_fields(bad)


def test_a_stocked_board_expires_after_its_days_untaken(store: Store) -> None:
    """Catches a stock that lasts for ever: the boards (with their solutions) of a setting
    no room offers any more would stay in the store; each carries the store's TTL."""
    BoardStock(store).put(SETTING, 0, board(0), now_s=NOW)
    item = store.get(keys.stock(SETTING), keys.stock_slot(0))
    assert item is not None and item["expires_at"] == NOW + STOCK_DAYS * 86_400
