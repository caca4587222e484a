"""numbridge.bot — a player for Numbridge as a pure brain: a view in, an action out.

No I/O, no clock, no global randomness (the caller passes a ``random.Random``).
The brain sees only what its player sees: the view ``rules.player_view`` gives
that seat, and the frames pushed to it. Public API::

    Level = Literal["easy", "normal", "strong"]
    Knowledge()                                   # what the bot remembers (frozen)
    observe(knowledge, frame) -> Knowledge        # fold in one server frame
    observe_all(knowledge, frames) -> Knowledge
    decide(view, knowledge, level, rng) -> dict | None

A runtime keeps one ``Knowledge`` per game (or rebuilds it from the game's
frames), folds in every frame it receives (events and ``state`` frames), and
after each one calls ``decide`` with the latest view: the answer is a client
frame without ``id`` (``place``, ``take``, ``exchange``, ``swap``,
``accept_draw``, ``decline_draw``, ``accept_adjourn``, ``resume``), or None
when the bot has nothing to do. See docs/bot.md for what each level knows
and how it plays.
"""

from __future__ import annotations

from .brain import decide
from .knowledge import Knowledge, observe, observe_all
from .position import LEVELS, Level

__all__ = ["LEVELS", "Knowledge", "Level", "decide", "observe", "observe_all"]
