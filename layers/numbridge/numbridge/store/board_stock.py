"""A stock of dealt boards for the asks the dealer aims at (``numbridge.puzzles.aims``:
grades all harder than hidden singles; ``service.stock`` names their settings), so that
a rare grade is dealt as fast as any board: the request takes one dealt ahead, and the
review queue's function deals its replacement off the request path
(``service.usecases.reviewing``).

One setting's stock is :data:`DEPTH` items, ``STOCK#setting`` / slot ``0`` …
``DEPTH-1`` (``store.keys.stock_setting``: size, blocks, clues and the grades asked),
each one board (``rules.Board``: layout, givens, solution, grade). Like a game's state,
an item never leaves the server: no request reads it out, and the club file exports no
``STOCK#`` partition.

A board is dealt at most once, whoever races: :meth:`BoardStock.take` deletes the item
it hands out on condition that it is still there (a taker that lost it tries the next
slot), and :meth:`BoardStock.put` fills a slot on condition that it is free (two
refillers of one slot: the second is skipped). The slots are read with one batch read
of their known keys (no query): the request functions and the review function already
hold that right.
"""

from __future__ import annotations

from numbridge.rules.options import Board
from numbridge.store import keys
from numbridge.store.port import Absent, ConflictError, Present, Store, Value

# Boards kept per setting. A stocked ask is rare (a club plays a few a minute at most)
# and each take sends a refill that lands within milliseconds to seconds: one board would
# cover the steady case, the rest a burst (a tournament round, several proposals at once)
# until the refill catches up. Each is an item holding a solution, and a refill deals
# them all on one invocation of the review function (about 10 ms a board typical, the
# deal budget at worst): four keeps both small.
DEPTH = 4
# A board not taken for this long is of a setting nobody asks any more (a room changed):
# its item goes with the store's TTL (DynamoDB's, numbridge serve's purge). A setting
# still asked keeps its stock: each take's refill puts a fresh board.
STOCK_DAYS = 30


class BoardStock:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def _keys(setting: str) -> list[tuple[str, str]]:
        return [(keys.stock(setting), keys.stock_slot(n)) for n in range(DEPTH)]

    def take(self, setting: str) -> Board | None:
        """One stocked board of ``setting``, removed from the stock; ``None`` if none is
        left (another taker won the last)."""
        for item in self.store.get_many(self._keys(setting)):
            if item is None:
                continue
            try:
                taken = self.store.delete(str(item["pk"]), str(item["sk"]), Present())
            except ConflictError:
                continue  # another taker won it: the next
            if taken is not None:
                return Board.from_dict(taken)
        return None

    def missing(self, setting: str) -> list[int]:
        """The free slots of ``setting``'s stock, in order."""
        items = self.store.get_many(self._keys(setting))
        return [n for n, item in enumerate(items) if item is None]

    def put(self, setting: str, slot: int, board: Board, *, now_s: int) -> bool:
        """Stock ``board`` in a free slot, for :data:`STOCK_DAYS` from ``now_s`` (epoch
        seconds); False (nothing written) if the slot was filled meanwhile (another
        refiller)."""
        if not 0 <= slot < DEPTH:
            raise ValueError(f"a stock has slots 0…{DEPTH - 1}, not {slot}")
        item: dict[str, Value | None] = {
            "pk": keys.stock(setting), "sk": keys.stock_slot(slot), **board.to_dict(),
            "expires_at": now_s + STOCK_DAYS * 86_400}
        try:
            self.store.put(item, Absent())
        except ConflictError:
            return False
        return True

