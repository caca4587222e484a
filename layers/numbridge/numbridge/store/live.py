"""Games in progress, two ways, each written with the status changes of the game in
the same transaction (``service.finish``):

- each player's (``PLAYER#a`` / ``LIVE#g``): whom to tell when the player comes
  online or goes offline, without reading their whole ``games`` list; put when
  the game starts, deleted when it finishes;
- the club's games being played, by room (``GAME#g`` / ``PLAYING``, in the
  index under ``PLAYING#room``, newest first): what ``live`` lists; put when a
  game starts or resumes, deleted when it is adjourned or finishes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numbridge.store import keys
from numbridge.store.port import Delete, KeyRange, Put, Store, Write
from numbridge.values import frozen


@frozen
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


class PlayingGames:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def put_write(game_id: str, room: str, variant: str, players: Mapping[Any, str]) -> Write:
        return Put({"pk": keys.game(game_id), "sk": keys.PLAYING,
                    "gsi1pk": keys.playing_in(room), "gsi1sk": keys.playing_order(game_id),
                    "room": room, "variant": variant,
                    "blue": players["blue"], "red": players["red"]})

    @staticmethod
    def delete_write(game_id: str) -> Write:
        return Delete(keys.game(game_id), keys.PLAYING)

    def in_room(self, room: str, *, limit: int | None = None,
                after: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """Newest first (a game id begins with its creation time)."""
        page = self.store.query(keys.playing_in(room), index=True, limit=limit, after=after,
                                forward=False)
        games = [{"game": keys.game_id_of(str(i["pk"])), "room": i["room"],
                  "variant": i["variant"], "players": {"blue": i["blue"], "red": i["red"]}}
                 for i in page.items]
        return games, page.next
