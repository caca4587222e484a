"""numbridge.rules — the whole game of Numbridge as a pure library (RULES.md).

No I/O, no clock, no global randomness: callers pass ``now_ms`` and a
``random.Random`` (production: ``secrets.SystemRandom()``). Imports only the
standard library.

Entry points: :func:`new_game`, :func:`apply`, :func:`advance`, :func:`legal`,
:func:`next_deadline`, :func:`candidates`, :func:`player_view`,
:func:`spectator_view`, :func:`archive_record`; states serialise with
``GameState.to_dict()`` / ``GameState.from_dict()``.

Events
======

Each call returns a :class:`Transition` with the new state and its events.
Every event carries ``v`` (the game version it brings the game to; +1 per
event). ``to=None``: for every viewer; ``to=seat``: that seat only (the
service sends others ``{"type": "hidden"}``). Cells are ``[r, c]`` lists.
A new game has ``v == 0`` and no events (the service pushes full views).

=================  =====================================================================
kind               data
=================  =====================================================================
placed             {seat, cell, digit} — a correct placement; the cell is now seat's
mistake            {seat, cell, digit} — a wrong placement (public, RULES §5); the tile
                   went back to the bag
taken              {seat, cell, paid} — a clue taken; ``paid`` tiles (0, 1 or 2) went to
                   the bag (which ones is not public)
exchanged          {seat, count} — the hand (``count`` tiles) went into the bag, a new
                   hand was drawn
swapped            {seat, cell} — pie rule: red took over blue's first cell
timeout            {seat} — the move limit passed: the move (in Domains, the rest of the
                   pair) is lost; the hand refills as after a mistake
passed             {seat} — automatic pass: empty hand, empty bag, no free clue
                   (Domains: the rest of the pair)
timeouts           {count, seats: {blue, red}, passes} — a long catch-up folded:
                   ``count`` more moves lost to the clock (per seat in ``seats``), and
                   ``passes`` automatic passes among them, than were sent one by one;
                   ``hand`` and the closing ``turn``/``finished`` follow
hand               {hand: [digits]} — to=that seat only; after every change of its hand
turn               {turn, deadline_ms, now_ms, bag, hand_sizes: {blue, red},
                   clock_ms: {blue, red}, mistakes: {blue, red}, and in Domains
                   moves_left_in_pair, block_table: {blue, red, undecided}, or in
                   Bridge/Blitz swap_available (the player to move may swap now)} —
                   public summary closing every turn and a resume
draw_offered       {seat} — seat offers a draw
draw_declined      {seat} — seat declined the opponent's offer
draw_lapsed        {seat} — seat's offer lapsed: its receiver made a move
adjourn_offered    {seat}
adjourn_lapsed     {seat} — as draw_lapsed
adjourned          {seat, clock_ms: {blue, red}, auto?} — seat accepted; clocks stopped.
                   ``auto: true``: adjourned by the rules (RULES §7 [decided]: no game
                   clock and four turns in a row lost to the clock; seat lost the
                   fourth); it resumes like any adjourned game
resume_requested   {seat} — seat asks to resume an adjourned game
resumed            {seat} — the second request: play goes on (a ``turn`` follows)
finished           {result} — result: {winner: seat|null, by: goal|resign|agreement|time|aborted,
                   path: [[r, c], ...] (Bridge/Blitz goal), blocks: [block ids of the
                   winner], block_table: {blue, red, undecided} (Domains goal)}
=================  =====================================================================

Order within one turn: the action's event (placed / mistake / taken /
exchanged / swapped / timeout), any ``*_lapsed``, ``hand`` (to the mover, if it
changed), then ``finished``, or any ``passed`` and one ``turn``. A loss on
time is a bare ``finished`` with ``by: "time"``; an abort a bare ``finished`` with
``by: "aborted"`` (and ``winner: null``); a first move lost to the clock is a
``timeout`` then that ``finished`` (RULES §7 [decided]).

Missed deadlines (see :mod:`.catchup`): one catch-up makes a bounded number
of events whatever the outage — a game without a game clock is adjourned
after four turns in a row lost to the clock (RULES §7 [decided]); a clocked
game ends on time, the timeouts past the first few folded into ``timeouts``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from .engine import advance, apply, legal, new_game
    from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
    from .events import Event, Transition
    from .geometry import InvalidLayout, Layout
    from .highlight import candidates
    from .options import Board, GameOptions
    from .record import archive_record
    from .seats import Seat, Status, Variant, other
    from .state import SCHEMA, GameState, RecordEntry, Result
    from .views import next_deadline, player_view, spectator_view

# Loaded on first use: a Lambda function that only reads the vocabulary (seats,
# errors) or the actions' declarations should not pay for the whole engine.
_HOMES: dict[str, str] = {
    "Abort": "actions",
    "AcceptAdjourn": "actions",
    "AcceptDraw": "actions",
    "Action": "actions",
    "Board": "options",
    "DeclineDraw": "actions",
    "Event": "events",
    "Exchange": "actions",
    "GameOptions": "options",
    "GameOver": "errors",
    "GameState": "state",
    "IllegalAction": "errors",
    "InvalidLayout": "geometry",
    "Layout": "geometry",
    "MalformedAction": "errors",
    "NotYourTurn": "errors",
    "OfferAdjourn": "actions",
    "OfferDraw": "actions",
    "Place": "actions",
    "RecordEntry": "state",
    "Resign": "actions",
    "Result": "state",
    "Resume": "actions",
    "RulesError": "errors",
    "SCHEMA": "state",
    "Seat": "seats",
    "Status": "seats",
    "Swap": "actions",
    "Take": "actions",
    "Transition": "events",
    "Variant": "seats",
    "advance": "engine",
    "apply": "engine",
    "archive_record": "record",
    "candidates": "highlight",
    "legal": "engine",
    "new_game": "engine",
    "next_deadline": "views",
    "other": "seats",
    "player_view": "views",
    "spectator_view": "views",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
