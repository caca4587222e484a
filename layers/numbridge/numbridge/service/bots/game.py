"""``propose`` with ``bot``: a game dealt at once against a bot seat.

No proposal is stored and no proposal slot is taken; the bot is the player
``bot-LEVEL`` and the game is always unrated (an explicit ``rated: true`` is
refused, an omitted one is taken as false). Each game holds one of the
player's bot-game slots (``store.bot_slots``) until it finishes: at most
:data:`~numbridge.caps.BOT_GAMES_PER_PLAYER` in play (an adjourned game is
still in play: resign or abort it to free its slot). The answer is ``ack``; the
proposer then gets ``state``, and the bot its first turn if it owes one.
A ``propose`` without ``bot`` is the lobby's.
"""

from __future__ import annotations

import dataclasses

from numbridge import rules
from numbridge.caps import BOT_GAMES_PER_PLAYER, TooManyGames
from numbridge.club.proposals import seat_players
from numbridge.names import bot_player
from numbridge.protocol import ProtocolError, ack_frame
from numbridge.protocol.requests import Propose
from numbridge.rules.seats import SEATS
from numbridge.service.bots import seats as botseat
from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.service.usecases import lobby
from numbridge.service.usecases.views import state_frame
from numbridge.store.bot_slots import BotSlot, BotSlots


def propose(svc: Services, player: str, request: Propose) -> Outcome:
    if request.bot is None:
        return lobby.propose(svc, player, request)
    if request.rated and "rated" in request.sent:
        raise ProtocolError("illegal", "games against a bot are always unrated: "
                                       "omit `rated` or send false")
    room = svc.rooms.get(request.room)
    options = room.game_options(dataclasses.replace(request.choices, rated=False))
    slot, replacing = _free_slot(svc, player)  # before the deal: a refusal costs no board
    players = seat_players(player, bot_player(request.bot), request.colour, svc.rng)
    now = svc.clock()
    dealt = lobby.deal_game(svc, options, players, now)
    state, game_id = dealt.state, dealt.state.game_id
    writes = [*dealt.writes, BotSlots.take_write(player, slot, game_id, replacing)]
    deadline = rules.next_deadline(state)
    count("BotGames")
    logger.info("dealt against a bot", extra={"game": game_id, "players": players})
    pushes = [(players[seat], [state_frame(state, seat, now)]) for seat in SEATS
              if players[seat] == player]
    timers = list(dealt.timers)
    bots = botseat.owing(state)
    timers += botseat.watchdogs(bots, deadline, now)
    return Outcome([ack_frame(request.id)], pushes, writes, timers, bots)


def _free_slot(svc: Services, player: str) -> tuple[int, BotSlot | None]:
    """A slot for a new bot game, and the slot it takes over (one whose game is over
    or gone: freed by nothing, say a game dealt before this rule); else the cap."""
    slots = BotSlots(svc.store).of_player(player)
    free = sorted(set(range(BOT_GAMES_PER_PLAYER)) - {s.n for s in slots})
    if free:
        return free[0], None
    for slot in slots:
        if slot.n < BOT_GAMES_PER_PLAYER and svc.games.status(slot.game) in (None, "finished"):
            return slot.n, slot
    raise TooManyGames(f"at most {BOT_GAMES_PER_PLAYER} games against the bot in play "
                       "each: finish, resign or abort one first")
