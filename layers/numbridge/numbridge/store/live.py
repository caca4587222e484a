"""Each player's games in progress (``PLAYER#a`` / ``LIVE#g``): whom to tell when the
player comes online or goes offline, without reading their whole ``games`` list.

Written with the status change that starts a game and deleted with the one that
finishes it, in the same transaction (``service.finish``).
"""

from __future__ import annotations

from dataclasses import dataclass

from numbridge.store import keys
from numbridge.store.port import Delete, KeyRange, Put, Store, Write


@dataclass(frozen=True)
class LiveGame:
    game: str
    seat: str  # the player's seat
    opponent: str


class LiveGames:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def put_write(player: str, game_id: str, seat: str, opponent: str) -> Write:
        return Put({"pk": keys.player(player), "sk": keys.player_live_game(game_id),
                    "seat": seat, "opponent": opponent})

    @staticmethod
    def delete_write(player: str, game_id: str) -> Write:
        return Delete(keys.player(player), keys.player_live_game(game_id))

    def of_player(self, player: str) -> list[LiveGame]:
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.LIVE_PREFIX))
        return [LiveGame(str(i["sk"]).removeprefix(keys.LIVE_PREFIX), str(i["seat"]),
                         str(i["opponent"])) for i in page.items]
