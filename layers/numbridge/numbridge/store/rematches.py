"""Rematch offers: one item under the finished game (``GAME#g`` / ``REMATCH``).

``status`` is ``offered`` (by ``by``) until the other player accepts — then
``accepted`` with the new ``game`` — or declines, which deletes it. Every
change is conditioned on what was read, so however many offers and accepts
cross, one commit wins and exactly one new game is dealt.
"""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import Absent, Delete, Equals, Put, Store, Write
from numbridge.values import frozen


@frozen
class Rematch:
    by: str  # the player who offered
    status: str  # "offered" or "accepted"
    game: str | None = None  # the new game, once accepted


class Rematches:
    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, game_id: str) -> Rematch | None:
        item = self.store.get(keys.game(game_id), keys.REMATCH)
        if item is None:
            return None
        new = item.get("game")
        return Rematch(str(item["by"]), str(item["status"]), None if new is None else str(new))

    @staticmethod
    def offer_write(game_id: str, by: str) -> Write:
        return Put({"pk": keys.game(game_id), "sk": keys.REMATCH, "by": by,
                    "status": "offered"}, Absent())

    @staticmethod
    def accept_write(game_id: str, offer: Rematch, new_game: str) -> Write:
        return Put({"pk": keys.game(game_id), "sk": keys.REMATCH, "by": offer.by,
                    "status": "accepted", "game": new_game},
                   Equals({"by": offer.by, "status": "offered"}))

    @staticmethod
    def decline_write(game_id: str, offer: Rematch) -> Write:
        return Delete(keys.game(game_id), keys.REMATCH,
                      Equals({"by": offer.by, "status": "offered"}))
