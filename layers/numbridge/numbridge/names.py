"""What a player may be called: the one rule, for tokens of every kind.

Names starting ``bot-`` belong to the club's bot seats (``bot-easy``,
``bot-normal``, ``bot-strong``): the backend plays them, so no token may name
one — whoever held it could move for the bot in every game it plays.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
BOT_PREFIX: Final = "bot-"
RESERVED_PREFIXES: Final = (BOT_PREFIX,)
BOT_LEVELS: Final = ("easy", "normal", "strong")


def check_player_name(name: str) -> str:
    # fullmatch: ``$`` alone would let a final newline through ("ana\n" shown as "ana").
    if not PLAYER_NAME.fullmatch(name):
        raise ValueError(
            f"player name {name!r} must be 1-32 characters: letters, digits, '_', '.', '-'"
        )
    if is_reserved(name):
        raise ValueError(f"player names starting {'/'.join(RESERVED_PREFIXES)} "
                         "are the club's own")
    return name


def is_reserved(name: str) -> bool:
    return fold_name(name).startswith(RESERVED_PREFIXES)


def fold_name(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, NFKC again (Unicode's
    NFKC_Casefold, near enough). ``Ana`` and ``ana`` fold alike: one player."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def bot_player(level: str) -> str:
    """The player who sits in a bot seat of ``level``."""
    return BOT_PREFIX + level


def bot_level(player: str) -> str | None:
    """The level of a bot seat's player, or None for a person."""
    if player.startswith(BOT_PREFIX) and player[len(BOT_PREFIX):] in BOT_LEVELS:
        return player[len(BOT_PREFIX):]
    return None
