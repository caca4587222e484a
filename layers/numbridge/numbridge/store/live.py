"""Games in progress, two ways, each written with the status changes of the game in
the same transaction (``service.finish``):

- each player's (``PLAYER#a`` / ``LIVE#g``): whom to tell when the player comes
  online or goes offline, without reading their whole ``games`` list; put when
  the game starts, deleted when it finishes;
- the club's games being played, by room (``GAME#g`` / ``PLAYING``, in the
  index under ``PLAYING#room``, newest first): what ``live`` lists, with how many
  watch each (``watchers``, kept by ``store.watches``); put when a game starts,
  taken out of the index (kept, with its count) while it is adjourned, deleted
  when it finishes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numbridge.store import keys
from numbridge.store.port import Absent, Delete, KeyRange, Put, Store, Write, unchanged
from numbridge.store.watches import Watches
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
    def _item(game_id: str, room: str, variant: str, players: Mapping[Any, str],
              watchers: int, listed: bool, grade: str | None) -> dict[str, Any]:
        listing = ({"gsi1pk": keys.playing_in(room), "gsi1sk": keys.playing_order(game_id)}
                   if listed else {})
        # The board's grade, so the list shows it without reading each game's state.
        graded = {} if grade is None else {"grade": grade}
        return {"pk": keys.game(game_id), "sk": keys.PLAYING, **listing, "room": room,
                "variant": variant, "blue": players["blue"], "red": players["red"],
                "watchers": watchers, **graded}

    @classmethod
    def put_write(cls, game_id: str, room: str, variant: str,
                  players: Mapping[Any, str], listed: bool = True,
                  grade: str | None = None) -> Write:
        """A new game (or one moved from another store): nobody watching yet; listed
        unless adjourned."""
        return Put(cls._item(game_id, room, variant, players, 0, listed=listed, grade=grade))

    def relist_write(self, game_id: str, room: str, variant: str, players: Mapping[Any, str],
                     *, listed: bool, now_ms: int, grade: str | None = None) -> Write:
        """The game adjourned (out of the list) or resumed (back in it), its watchers
        counted again; conditioned on the item as read, as a watch's count is."""
        old = self.store.get(keys.game(game_id), keys.PLAYING)
        watchers = Watches(self.store).count(game_id, now_ms)  # read after the item
        return Put(self._item(game_id, room, variant, players, watchers, listed, grade),
                   Absent() if old is None else unchanged(old))

    @staticmethod
    def delete_write(game_id: str) -> Write:
        return Delete(keys.game(game_id), keys.PLAYING)

    def in_room(self, room: str, *, limit: int | None = None,
                after: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """Newest first (a game id begins with its creation time)."""
        page = self.store.query(keys.playing_in(room), index=True, limit=limit, after=after,
                                forward=False)
        games = [{"game": keys.game_id_of(str(i["pk"])), "room": i["room"],
                  "variant": i["variant"], "players": {"blue": i["blue"], "red": i["red"]},
                  "watchers": int(i.get("watchers", 0)),
                  **({"grade": i["grade"]} if i.get("grade") is not None else {})}
                 for i in page.items]
        return games, page.next

    def forget_watchers(self, room_ids: list[str]) -> int:
        """Every listed game watched by nobody (no connection outlived a restart of the
        local server); how many were counted as watched. An adjourned game is counted
        again when it resumes."""
        reset = 0
        for room in room_ids:
            after = None
            while True:
                page = self.store.query(keys.playing_in(room), index=True, after=after)
                for item in page.items:
                    if int(item.get("watchers", 0)):
                        self.store.put({**item, "watchers": 0}, unchanged(item))
                        reset += 1
                after = page.next
                if after is None:
                    break
        return reset
