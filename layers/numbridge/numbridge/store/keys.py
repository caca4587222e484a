"""The layout of the one table: every partition and sort key, written once.

| item | pk | sk | gsi1pk / gsi1sk |
| --- | --- | --- | --- |
| game state | ``GAME#g`` | ``STATE`` | (none: its ``deadline`` is a plain attribute) |
| game event | ``GAME#g`` | ``EV#000000017`` | |
| archive record | ``GAME#g`` | ``RECORD`` | |
| its review (the coach's, after the game) | ``GAME#g`` | ``REVIEW`` | |
| rematch offer | ``GAME#g`` | ``REMATCH`` | |
| a game being played | ``GAME#g`` | ``PLAYING`` | ``PLAYING#room`` / game id |
| a game's watcher | ``GAME#g`` | ``WATCH#c`` | |
| proposal | ``PROPOSAL#p`` | ``PROPOSAL`` | ``ROOM#r`` / created#p |
| challenge (``to`` a) | ``PROPOSAL#p`` | ``PROPOSAL`` | ``CHALLENGES#folded a`` / created#p |
| a player's proposal slot | ``PLAYER#a`` | ``SLOT#0`` … ``SLOT#4`` | |
| a player's bot-game slot | ``PLAYER#a`` | ``BOTSLOT#0`` … ``BOTSLOT#2`` | |
| a player's connection slot | ``PLAYER#a`` | ``CONNSLOT#0`` … ``CONNSLOT#9`` | |
| a player's game | ``PLAYER#a`` | ``GAME#g`` | |
| a player's game in progress | ``PLAYER#a`` | ``LIVE#g`` | |
| rating | ``PLAYER#a`` | ``RATING#variant`` | ``LEADERBOARD#variant`` / rank#name |
| connection | ``CONN#c`` | ``CONN`` | |
| a player's connection | ``PLAYER#a`` | ``CONN#c`` | |
| a connection's watch | ``CONN#c`` | ``WATCH#g`` | |
| a topic's subscriber | ``TOPIC#t#n`` (n = 0 … 15) | ``SUB#c`` | |
| a connection's subscription | ``CONN#c`` | ``SUB#t`` | |
| a waiting seek | ``SEEKS#room`` | ``SEEK#created#s`` | |
| a player's one seek | ``PLAYER#a`` | ``SEEK`` | |
| players online, counted | ``ONLINE#n`` (n = 0 … 15) | ``COUNT`` | |
| the online count last pushed | ``LOBBY`` | ``ONLINE`` | |
| request receipt | ``REQ#a`` | ``ID#request-id`` | |
| a player's record (account) | ``NAME#folded name`` | ``ACCOUNT`` | ``ACCOUNTS`` / folded name |
| tournament | ``TOURNEY#t`` | ``TOURNEY`` | ``TOURNEYS#status`` / starts#t |
| a tournament's player | ``TOURNEY#t`` | ``PLAYER#a`` | ``STANDINGS#t`` / standing |
| a tournament's free arena player | ``TOURNEY#t`` | ``WAIT#a`` | |
| a tournament's pairing (a game, or a bye) | ``TOURNEY#t`` | ``PAIR#round#slot`` | |
| a tournament's game being played | ``TOURNEY#t`` | ``LIVE#g`` | |
| a Swiss or round robin round | ``TOURNEY#t`` | ``ROUND#round`` | |
| a tournament's last standings push | ``TOURNEY#t`` | ``PUSHED`` | |
| a tournament's players, counted | ``TOURNEY#t`` | ``COUNT#n`` (n = 0 … 15) | |

A tournament's items are laid out in ``store.tournaments``.

A game's deadline is in no index: it moves with every move, and an index keyed by it
was written again at every move (the state's whole size, ALL attributes projected). The
sweep finds the games being played by their room (``PLAYING#room``) and reads their
states' deadlines (``store.games.Games.deadlines``). States stored before still carry
``DEADLINE#n`` / deadline (``DEADLINE#0`` … ``DEADLINE#15``, sharded by game) until their
next write; the sweep reads that deadline too.

A topic's subscribers and the online count are sharded by connection and by player
(``n`` = crc32 % 16): one partition key takes about 1,000 writes a second, and every
lobby shown and every connection moves them.

A game's watchers sort last in its partition, right after ``STATE``: one query
reads the game's version and its watchers (``WATCHERS_END``).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable

STATE = "STATE"
RECORD = "RECORD"
REVIEW = "REVIEW"
REMATCH = "REMATCH"
PROPOSAL = "PROPOSAL"
CONN = "CONN"
EVENT_PREFIX = "EV#"
GAME_PREFIX = "GAME#"
CONN_PREFIX = "CONN#"
DEADLINE_SHARDS = 16
_EVENT_DIGITS = 9


def game(game_id: str) -> str:
    return f"GAME#{game_id}"


def game_id_of(pk: str) -> str:
    return pk.removeprefix("GAME#")


def event(v: int) -> str:
    return f"{EVENT_PREFIX}{v:0{_EVENT_DIGITS}d}"


LAST_EVENT = event(10**_EVENT_DIGITS - 1)


def player(name: str) -> str:
    return f"PLAYER#{name}"


def player_game(game_id: str) -> str:
    return f"GAME#{game_id}"


RATING_PREFIX = "RATING#"


def rating(variant: str) -> str:
    return f"{RATING_PREFIX}{variant}"


def leaderboard(variant: str) -> str:
    return f"LEADERBOARD#{variant}"


def proposal(proposal_id: str) -> str:
    return f"PROPOSAL#{proposal_id}"


def room(room_id: str) -> str:
    return f"ROOM#{room_id}"


def proposal_order(created_ms: int, proposal_id: str) -> str:
    return f"PROPOSAL#{created_ms:015d}#{proposal_id}"


def challenges(folded_name: str) -> str:
    """The challenges addressed to a player, in the index: under the name as
    :func:`numbridge.names.fold_name` folds it (the one the account is under)."""
    return f"CHALLENGES#{folded_name}"


SLOT_PREFIX = "SLOT#"
LIVE_PREFIX = "LIVE#"


def player_live_game(game_id: str) -> str:
    return f"{LIVE_PREFIX}{game_id}"


def proposal_slot(n: int) -> str:
    return f"{SLOT_PREFIX}{n}"


BOT_SLOT_PREFIX = "BOTSLOT#"
CONNECTION_SLOT_PREFIX = "CONNSLOT#"


def bot_slot(n: int) -> str:
    return f"{BOT_SLOT_PREFIX}{n}"


def connection_slot(n: int) -> str:
    return f"{CONNECTION_SLOT_PREFIX}{n}"


def leaderboard_rank(provisional: bool, rating_e6: int, name: str) -> str:
    """Ascending order is the leaderboard's: established players first, then by rating
    (highest first), then by name."""
    return f"{int(provisional)}#{10**13 - rating_e6:014d}#{name}"


def connection(connection_id: str) -> str:
    return f"CONN#{connection_id}"


PLAYING = "PLAYING"
WATCH_PREFIX = "WATCH#"
# Sorts after every watcher of a game (the highest code point).
WATCHERS_END = f"{WATCH_PREFIX}\U0010ffff"


def playing_in(room_id: str) -> str:
    return f"PLAYING#{room_id}"


def playing_order(game_id: str) -> str:
    # A game id begins with its creation time: the index keeps the games in that order.
    return game_id


def watcher(connection_id: str) -> str:
    """A game's watcher, under the game."""
    return f"{WATCH_PREFIX}{connection_id}"


def watched(game_id: str) -> str:
    """A game a connection watches, under the connection."""
    return f"{WATCH_PREFIX}{game_id}"


def deadline_shard(game_id: str) -> str:
    # crc32, not hash(): the same shard in every process.
    return f"DEADLINE#{zlib.crc32(game_id.encode()) % DEADLINE_SHARDS}"


def deadline_shards() -> list[str]:
    return [f"DEADLINE#{n}" for n in range(DEADLINE_SHARDS)]


def deadline_order(deadline_ms: int) -> str:
    return f"{deadline_ms:015d}"


def receipts(player_name: str) -> str:
    return f"REQ#{player_name}"


RECEIPT_PREFIX = "ID#"


def receipt(request_id: str) -> str:
    return f"{RECEIPT_PREFIX}{request_id}"


ACCOUNT = "ACCOUNT"
ACCOUNTS = "ACCOUNTS"


def account(folded_name: str) -> str:
    """A player's record, under the name as :func:`numbridge.names.fold_name` folds it."""
    return f"NAME#{folded_name}"



TOPIC_SHARDS = 16
SUB_PREFIX = "SUB#"


def topic_shard(topic: str, connection_id: str) -> str:
    return f"TOPIC#{topic}#{zlib.crc32(connection_id.encode()) % TOPIC_SHARDS}"


def topic_shards(topic: str) -> list[str]:
    return [f"TOPIC#{topic}#{n}" for n in range(TOPIC_SHARDS)]


def subscriber(connection_id: str) -> str:
    """A topic's subscriber, under the topic's shard."""
    return f"{SUB_PREFIX}{connection_id}"


def subscribed(topic: str) -> str:
    """A topic a connection subscribes to, under the connection."""
    return f"{SUB_PREFIX}{topic}"


SEEK = "SEEK"
SEEK_PREFIX = "SEEK#"


def seeks(room_id: str) -> str:
    return f"SEEKS#{room_id}"


def seek_order(created_ms: int, seek_id: str) -> str:
    """Oldest first in the room's partition."""
    return f"{SEEK_PREFIX}{created_ms:015d}#{seek_id}"


ONLINE_SHARDS = 16
COUNT = "COUNT"
LOBBY = "LOBBY"
ONLINE = "ONLINE"


def online_shard(player_name: str) -> str:
    return f"ONLINE#{zlib.crc32(player_name.encode()) % ONLINE_SHARDS}"


def online_shards() -> list[str]:
    return [f"ONLINE#{n}" for n in range(ONLINE_SHARDS)]


TOURNEY = "TOURNEY"
TOURNEY_PLAYER_PREFIX = "PLAYER#"
TOURNEY_WAIT_PREFIX = "WAIT#"
TOURNEY_PAIR_PREFIX = "PAIR#"
TOURNEY_LIVE_PREFIX = "LIVE#"
TOURNEY_ROUND_PREFIX = "ROUND#"
TOURNEY_PUSHED = "PUSHED"
TOURNEY_COUNT_SHARDS = 16


def tournament_count(player_name: str) -> str:
    """The shard of a tournament's count of players that counts this player: a crowd
    joining at the hour contends for sixteen items, not one."""
    return f"COUNT#{zlib.crc32(player_name.encode()) % TOURNEY_COUNT_SHARDS}"


def tournament_counts() -> list[str]:
    return [f"COUNT#{n}" for n in range(TOURNEY_COUNT_SHARDS)]


def tournament(tournament_id: str) -> str:
    return f"TOURNEY#{tournament_id}"


def tournaments_by_status(status: str) -> str:
    """The index partition of the tournaments in one status (upcoming, running, finished)."""
    return f"TOURNEYS#{status}"


def tournament_order(starts_ms: int, tournament_id: str) -> str:
    return f"{starts_ms:015d}#{tournament_id}"


def tournament_player(name: str) -> str:
    return f"{TOURNEY_PLAYER_PREFIX}{name}"


def tournament_waiting(name: str) -> str:
    return f"{TOURNEY_WAIT_PREFIX}{name}"


def tournament_round(round_no: int) -> str:
    return f"{TOURNEY_ROUND_PREFIX}{round_no:04d}"


def tournament_pairs(round_no: int) -> str:
    """The prefix of one round's pairings (an arena's all have round 0)."""
    return f"{TOURNEY_PAIR_PREFIX}{round_no:04d}#"


def tournament_pair(round_no: int, slot: str) -> str:
    return f"{tournament_pairs(round_no)}{slot}"


def tournament_live(game_id: str) -> str:
    return f"{TOURNEY_LIVE_PREFIX}{game_id}"


def standings(tournament_id: str) -> str:
    return f"STANDINGS#{tournament_id}"


STANDING_SCORE_MAX = 10**7


def standing_order(score2: int, name: str, final_rank: int | None = None) -> str:
    """Ascending order is the standings': a final table by its rank (``0#``), before
    it by score, highest first (``1#``), ties by name."""
    if final_rank is not None:
        return f"0#{final_rank:07d}#{name}"
    return f"1#{STANDING_SCORE_MAX - score2:08d}#{name}"


STOCK_PREFIX = "STOCK#"
_STOCK_FIELDS = "-"
_STOCK_GRADES = "+"


def stock_setting(size: int, blocks: str, clues: int, grades: Iterable[str]) -> str:
    """The setting a stocked board is dealt for, as one compact string: size, block
    kind, clues and the grades asked (in the ladder's order, each once), e.g.
    ``9-regular-26-beyond``. :func:`stock_setting_fields` reads it back."""
    from numbridge.rules.seats import GRADES

    asked = set(grades)
    ordered = [g for g in GRADES if g in asked] + sorted(asked - set(GRADES))
    return _STOCK_FIELDS.join((str(size), blocks, str(clues), _STOCK_GRADES.join(ordered)))


def stock_setting_fields(setting: str) -> tuple[int, str, int, tuple[str, ...]]:
    """(size, blocks, clues, grades) of a :func:`stock_setting` string; ``ValueError``
    for text of another shape (what the values mean is checked by the dealer's rules)."""
    parts = setting.split(_STOCK_FIELDS)
    if len(parts) != 4 or not parts[0].isdigit() or not parts[2].isdigit() or not parts[3]:
        raise ValueError(f"not a stock setting: {setting!r}")
    grades = tuple(parts[3].split(_STOCK_GRADES))
    if stock_setting(int(parts[0]), parts[1], int(parts[2]), grades) != setting:
        raise ValueError(f"not a stock setting as written: {setting!r}")
    return int(parts[0]), parts[1], int(parts[2]), grades


def stock(setting: str) -> str:
    """The partition of one setting's stocked boards."""
    return f"{STOCK_PREFIX}{setting}"


def stock_slot(n: int) -> str:
    return str(n)
