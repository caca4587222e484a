"""``propose`` with ``bot``: a game dealt at once against a bot seat.

No proposal is stored and no proposal slot is taken; the bot is the player
``bot-LEVEL`` and the game is always unrated (an explicit ``rated: true`` is
refused, an omitted one is taken as false). The answer is ``ack``; the
proposer then gets ``state``, and the bot its first turn if it owes one.
A ``propose`` without ``bot`` is the lobby's.
"""

from __future__ import annotations

from numbridge import rules
from numbridge.club.proposals import ProposalRejected, seat_players
from numbridge.names import bot_player
from numbridge.protocol import ProtocolError, ack_frame
from numbridge.protocol import actions as act
from numbridge.rules.seats import SEATS
from numbridge.service import botseat, lobby
from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.service.views import state_frame


def propose(svc: Services, player: str, request: act.Propose) -> Outcome:
    if request.bot is None:
        return lobby.propose(svc, player, request)
    if request.rated and "rated" in request.model_fields_set:
        raise ProtocolError("illegal", "games against a bot are always unrated: "
                                       "omit `rated` or send false")
    room = lobby._room(svc, request.room)
    asked = request.model_dump(include={"blocks", "clues", "highlighting", "colour",
                                        "variant"})
    options = lobby._options(room, {**asked, "rated": False})
    bot = bot_player(request.bot)
    try:
        players = seat_players(player, bot, request.colour, svc.rng)
    except ProposalRejected as exc:
        raise ProtocolError("illegal", str(exc)) from exc
    now = svc.clock()
    dealt = lobby.deal_game(svc, options, players, now)
    state, game_id, writes = dealt.state, dealt.state.game_id, dealt.writes
    deadline = rules.next_deadline(state)
    count("BotGames")
    logger.info("dealt against a bot", extra={"game": game_id, "players": players})
    pushes = [(players[seat], [state_frame(state, seat, now)]) for seat in SEATS
              if players[seat] == player]
    timers = list(dealt.timers)
    bots = botseat.owing(state)
    timers += botseat.watchdogs(bots, deadline, now)
    return Outcome([ack_frame(request.id)], pushes, writes, timers, bots)
