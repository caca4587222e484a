"""The bot's one decision: given a player's view and what it remembers, the frame to send."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .beliefs import beliefs
from .choose import choose_turn, fallback
from .club import club_reply
from .frames import club_frame, turn_frame
from .knowledge import Knowledge
from .legal import is_legal
from .position import LEVELS, Level, read_view

# Fishing for tiles turn after turn gives the opponent the board (and two
# fishing bots would never end a game).
MAX_EXCHANGES_IN_A_ROW = 1


def decide(
    view: Mapping[str, Any], knowledge: Knowledge, level: Level, rng: random.Random
) -> dict[str, Any] | None:
    """The action to send now (a client frame without `id`), or None when there is none.

    ``view`` is exactly the dict ``rules.player_view`` (the `view` of a `state`
    frame) gives the bot's seat, as recent as the caller has it; ``knowledge``
    is what :func:`~numbridge.bot.knowledge.observe` folded from the frames
    seen. An answer to an offer or an adjournment comes first; a turn action
    only when the bot is to move.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    position = read_view(view)
    reply = club_reply(position)
    if reply is not None:
        return club_frame(position, reply)
    if not position.my_move:
        return None
    ruled_out = set()
    if knowledge.game in (None, position.game):
        ruled_out = knowledge.ruled_out(position.size)
    if position.last_mistake is not None:
        ruled_out.add(position.last_mistake)
    known = beliefs(position, ruled_out, level)
    fished = knowledge.game in (None, position.game) and (
        knowledge.exchanges_in_a_row(position.me) >= MAX_EXCHANGES_IN_A_ROW
    )
    turn = choose_turn(position, known, level, rng, may_fish=not fished)
    frame = turn_frame(position, turn)
    if not is_legal(position, frame):  # a bug: never send what the server must refuse
        frame = turn_frame(position, fallback(position))
        if not is_legal(position, frame):
            return None  # nothing is legal: the engine passes such a turn itself
    return frame
