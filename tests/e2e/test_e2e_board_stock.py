"""The stock of dealt boards in `numbridge serve`: a game asking a grade the dealer aims
at (beyond) asks for a refill after its frames, the local review worker deals the stock
off the request thread, and the next game asking it is dealt from the stock."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from client import deal
from e2e_server import LocalServer, serving
from numbridge.coach import grade
from numbridge.store import keys
from numbridge.store.board_stock import DEPTH
from testkit.graded_rooms import BEYOND, GRADED

STOCKED_WITHIN_S = 60.0


def stocked_givens(server: LocalServer) -> set[str]:
    """The givens of the boards in the stock, read from the server's database (as only a
    test may)."""
    with sqlite3.connect(server.data_dir / "numbridge.db") as db:
        rows = db.execute("SELECT item FROM items WHERE pk = ?", (keys.stock(BEYOND),))
        return {str(json.loads(item)["givens"]) for (item,) in rows}


def full_stock(server: LocalServer) -> set[str]:
    give_up = time.monotonic() + STOCKED_WITHIN_S
    while True:
        givens = stocked_givens(server)
        if len(givens) == DEPTH or time.monotonic() > give_up:
            return givens
        time.sleep(0.1)


def test_a_stocked_ask_is_refilled_by_the_local_worker_and_the_next_game_is_a_hit(
        tmp_path: Path) -> None:
    """Catches a local runtime whose review queue cannot carry a refill (no refill
    method, the message unread by the review function), and a deal that ignores the
    stock once it is full."""
    with (serving(tmp_path, GRADED) as server, server.player("ana") as ana,
          server.player("bob") as bob):
        deal(ana, bob, "graded", grade="beyond")
        before = full_stock(server)
        assert len(before) == DEPTH, f"the stock has {len(before)} boards"
        second = deal(ana, bob, "graded", grade="beyond")
        givens = "".join(second["bob"].digits)
        assert givens in before  # dealt from the stock
        assert grade(second["bob"].blocks, givens) == "beyond"
        after = full_stock(server)  # refilled again, without the board dealt
        assert givens not in after and len(after) == DEPTH

