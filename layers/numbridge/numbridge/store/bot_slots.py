"""Each player's bot games in play: one slot per game (``PLAYER#a`` / ``BOTSLOT#n``),
taken in the transaction that deals the game (conditionally: two racing deals cannot
take one slot) and freed in the transaction that finishes it, so that the cap holds
under concurrent requests and retries alike.
"""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import Absent, Delete, Equals, KeyRange, Put, Store, Write
from numbridge.values import frozen


@frozen
class BotSlot:
    n: int
    game: str


class BotSlots:
    def __init__(self, store: Store) -> None:
        self.store = store

    def of_player(self, player: str) -> list[BotSlot]:
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.BOT_SLOT_PREFIX))
        return [BotSlot(int(str(i["sk"]).removeprefix(keys.BOT_SLOT_PREFIX)), str(i["game"]))
                for i in page.items]

    @staticmethod
    def take_write(player: str, n: int, game_id: str, replacing: BotSlot | None) -> Write:
        """Hold slot ``n`` for ``game_id``: a free one, or one whose game is over
        (``replacing``, taken over only if it still names that game)."""
        taken = Absent() if replacing is None else Equals({"game": replacing.game})
        return Put({"pk": keys.player(player), "sk": keys.bot_slot(n), "game": game_id}, taken)

    def release_writes(self, player: str, game_id: str) -> list[Write]:
        """Free the slot the game holds, if it holds one (games dealt before slots do not)."""
        return [Delete(keys.player(player), keys.bot_slot(slot.n), Equals({"game": game_id}))
                for slot in self.of_player(player) if slot.game == game_id]
