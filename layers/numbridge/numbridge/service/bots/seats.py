"""Which bot seats of a game owe something, and the watchdog that guards them.

A bot seat owes a turn when it is to move, when the opponent's draw or
adjournment offer waits for its answer, or when an adjourned game waits for
it to ask to resume. Each such commit sends a :class:`BotTurn` (after the
commit, like a timer) and arms a watchdog timer a little later: if the bot has
not acted by then (a lost message, a function that kept failing), the timeout
function finds the game still at that version and sends the turn again — well
before the move limit, so a bot seat does not lose its move to a failure.
"""

from __future__ import annotations

from numbridge import rules
from numbridge.names import bot_level
from numbridge.rules.seats import SEATS
from numbridge.service.outcome import BotTurn, Timer

WATCHDOG_MS = 10_000


def owing(state: rules.GameState) -> list[BotTurn]:
    """The bot seats that must act now."""
    return [BotTurn(state.game_id, seat, state.v) for seat in SEATS
            if bot_level(state.players[seat]) is not None and _owes(state, seat)]


def _owes(state: rules.GameState, seat: rules.Seat) -> bool:
    theirs = rules.other(seat)
    if state.status == "finished":
        return False
    if state.draw_offer == theirs:
        return True
    if state.status == "adjourned":
        return not state.side(seat).resume
    return state.adjourn_offer == theirs or state.turn == seat


def watchdogs(turns: list[BotTurn], deadline_ms: int | None, now_ms: int) -> list[Timer]:
    """One early wake-up for the turns owed: at the watchdog, or halfway to the deadline."""
    if not turns:
        return []
    wake = now_ms + WATCHDOG_MS
    if deadline_ms is not None:
        wake = min(wake, now_ms + max(0, deadline_ms - now_ms) // 2)
    return [Timer(turns[0].game, turns[0].v, wake)]
