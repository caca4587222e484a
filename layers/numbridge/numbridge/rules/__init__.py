"""numbridge.rules — the whole game of Numbridge as a pure library (RULES.md).

No I/O, no clock, no global randomness: callers pass ``now_ms`` and a
``random.Random`` (production: ``secrets.SystemRandom()``). Imports only the
standard library (and ``numbridge.values``, itself standard library only).

Entry points: :func:`new_game`, :func:`apply`, :func:`advance`, :func:`legal`,
:func:`next_deadline`, :func:`candidates`, :func:`player_view`,
:func:`spectator_view`, :func:`archive_record`; states serialise with
``GameState.to_dict()`` / ``GameState.from_dict()``.

Each call returns a :class:`Transition` with the new state and its events:
typed values, one frozen dataclass per kind, each saying in its docstring what
it means (:mod:`numbridge.rules.events`; ``EVENT_KINDS`` lists them). What a player
may know of a game is the VIEW (:mod:`numbridge.rules.view_types`);
``player_view`` and ``spectator_view`` give it as JSON (:mod:`.plain`).

Missed deadlines (see :mod:`.catchup`): one catch-up makes a bounded number
of events whatever the outage — a game without a game clock is adjourned
after four turns in a row lost to the clock (RULES §7 [decided]); a clocked
game ends on time, the timeouts past the first few folded into ``timeouts``.
"""

from __future__ import annotations

# The whole engine loads with the package: a function that plays loads it at init,
# not in its first request; $connect and $disconnect import nothing of it.
from .actions import (
    Abort,
    AcceptAdjourn,
    AcceptDraw,
    Action,
    DeclineDraw,
    Exchange,
    OfferAdjourn,
    OfferDraw,
    Place,
    Resign,
    Resume,
    Swap,
    Take,
)
from .engine import advance, apply, legal
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
from .events import Event, Transition
from .geometry import InvalidLayout, Layout
from .highlight import candidates
from .options import Board, GameOptions
from .record import archive_record
from .seats import Grade, Seat, Status, Variant, other
from .setup import new_game
from .state import SCHEMA, GameState, RecordEntry, Result
from .views import next_deadline, player_view, spectator_view

__all__ = [
    "SCHEMA",
    "Abort",
    "AcceptAdjourn",
    "AcceptDraw",
    "Action",
    "Board",
    "DeclineDraw",
    "Event",
    "Exchange",
    "GameOptions",
    "GameOver",
    "GameState",
    "Grade",
    "IllegalAction",
    "InvalidLayout",
    "Layout",
    "MalformedAction",
    "NotYourTurn",
    "OfferAdjourn",
    "OfferDraw",
    "Place",
    "RecordEntry",
    "Resign",
    "Result",
    "Resume",
    "RulesError",
    "Seat",
    "Status",
    "Swap",
    "Take",
    "Transition",
    "Variant",
    "advance",
    "apply",
    "archive_record",
    "candidates",
    "legal",
    "new_game",
    "next_deadline",
    "other",
    "player_view",
    "spectator_view",
]
