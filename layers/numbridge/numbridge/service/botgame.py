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
from numbridge.service.finish import status_writes
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome, Timer
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
    board = lobby._deal(svc, options)
    now = svc.clock()
    game_id = lobby.new_game_id(now)
    state = rules.new_game(game_id, options, board, players, svc.rng, now)
    deadline = rules.next_deadline(state)
    writes = [
        svc.games.state_put(
            game_id, state.to_dict(), v=state.v, turn=state.turn,
            step=state.moves_left_in_pair, status=state.status, players=players,
            deadline_ms=deadline, expected=None,
        ),
        *status_writes(svc, None, state, now),
    ]
    count("BotGames")
    logger.info("dealt against a bot", extra={"game": game_id, "players": players})
    pushes = [(players[seat], [state_frame(state, seat, now)]) for seat in SEATS
              if players[seat] == player]
    timers = [] if deadline is None else [Timer(game_id, state.v, deadline)]
    bots = botseat.owing(state)
    timers += botseat.watchdogs(bots, deadline, now)
    return Outcome([ack_frame(request.id)], pushes, writes, timers, bots)
