"""How many players are online, for the lobby: counted, not listed.

Sixteen counters (``ONLINE#n`` / ``COUNT``, a player's shard by crc32 of the name):
+1 at a player's first open connection, -1 at their last, each a read-modify-write
conditioned on the item as read (one partition takes about 1,000 writes a second,
and every connect and disconnect of a busy club would land on one). The count is
their sum: one batch read.

``LOBBY`` / ``ONLINE`` remembers the count last pushed to the lobby and when, and
when a later push is already due (``due_ms``): the fan-out pushes the count at
most every :data:`PUSH_EVERY_MS`, and two fan-outs at once do not both push it
(each claims the push with a write conditioned on the item as read).
"""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import Absent, ConflictError, Item, Store, unchanged
from numbridge.values import frozen

PUSH_EVERY_MS = 5_000
ATTEMPTS = 8


@frozen
class LastPushed:
    players: int
    sent_ms: int
    due_ms: int
    item: Item | None


class Online:
    def __init__(self, store: Store) -> None:
        self.store = store

    def change(self, player: str, delta: int) -> None:
        """Count a player in (+1) or out (-1); never below zero."""
        shard = keys.online_shard(player)
        for _ in range(ATTEMPTS):
            item = self.store.get(shard, keys.COUNT)
            players = max(0, (0 if item is None else int(item["players"])) + delta)
            try:
                self.store.put({"pk": shard, "sk": keys.COUNT, "players": players},
                               Absent() if item is None else unchanged(item))
                return
            except ConflictError:
                continue
        raise ConflictError("the online count kept changing")

    def count(self) -> int:
        items = self.store.get_many([(shard, keys.COUNT) for shard in keys.online_shards()])
        return sum(int(i["players"]) for i in items if i is not None)

    def last_pushed(self) -> LastPushed:
        item = self.store.get(keys.LOBBY, keys.ONLINE)
        if item is None:
            return LastPushed(-1, 0, 0, None)
        return LastPushed(int(item["players"]), int(item["sent_ms"]), int(item["due_ms"]),
                          item)

    def claim(self, last: LastPushed, *, players: int, sent_ms: int, due_ms: int) -> bool:
        """Record a push (or a push scheduled) unless another fan-out did first."""
        try:
            self.store.put({"pk": keys.LOBBY, "sk": keys.ONLINE, "players": players,
                            "sent_ms": sent_ms, "due_ms": due_ms},
                           Absent() if last.item is None else unchanged(last.item))
        except ConflictError:
            return False
        return True
