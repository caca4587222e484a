"""Rematch (RULES.md §7 [decided]): after a finished game either player may offer
one; if the other accepts, a new board is dealt in the same room with the same
options and the colours swapped, and both players get its ``state``.

The offer is an item under the finished game (``store.rematches``); offering
while the opponent's offer stands accepts it. Every write is conditioned on
the offer as read, so crossing offers and repeated accepts deal one game: the
loser of the race decides again and finds the offer taken or accepted.
"""

from __future__ import annotations

from typing import Any

from numbridge import rules
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.rules.seats import SEATS
from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.seating import load
from numbridge.service.usecases.views import state_frame
from numbridge.store.rematches import Rematch, Rematches


def _finished(svc: Services, player: str, game_id: str, what: str,
              ) -> tuple[rules.GameState, rules.Seat]:
    row, seat = load(svc, game_id, player)
    state = rules.GameState.from_dict(row.state)
    if state.status != "finished":
        raise ProtocolError("illegal", f"{what}: game {game_id} is still in progress")
    return state, seat


def _pushed(kind: type[answers.RematchOffered | answers.RematchDeclined],
            state: rules.GameState, seat: rules.Seat) -> list[tuple[str, list[dict[str, Any]]]]:
    """A rematch frame (no ``v``: not an event of the game) to both players."""
    frame = kind(game=state.game_id, seat=seat).frame()
    return [(state.players[s], [frame]) for s in SEATS]


def offer_rematch(svc: Services, player: str, request: req.OfferRematch) -> Outcome:
    state, seat = _finished(svc, player, request.game, "offer_rematch")
    offer = svc.rematches.get(request.game)
    if offer is None:
        return Outcome([ack_frame(request.id)], _pushed(answers.RematchOffered, state, seat),
                       [Rematches.offer_write(request.game, player)])
    if offer.status == "offered" and offer.by != player:
        return _accept(svc, state, seat, offer, request.id)  # the offers crossed
    raise ProtocolError("illegal", f"offer_rematch: {_standing(offer, player)}")


def accept_rematch(svc: Services, player: str, request: req.AcceptRematch) -> Outcome:
    state, seat = _finished(svc, player, request.game, "accept_rematch")
    offer = _opponents_offer(svc, request.game, player, "accept_rematch")
    return _accept(svc, state, seat, offer, request.id)


def decline_rematch(svc: Services, player: str, request: req.DeclineRematch) -> Outcome:
    state, seat = _finished(svc, player, request.game, "decline_rematch")
    offer = _opponents_offer(svc, request.game, player, "decline_rematch")
    return Outcome([ack_frame(request.id)], _pushed(answers.RematchDeclined, state, seat),
                   [Rematches.decline_write(request.game, offer)])


def _opponents_offer(svc: Services, game_id: str, player: str, what: str) -> Rematch:
    offer = svc.rematches.get(game_id)
    if offer is None:
        raise ProtocolError("illegal", f"{what}: nobody has offered a rematch")
    if offer.status != "offered" or offer.by == player:
        raise ProtocolError("illegal", f"{what}: {_standing(offer, player)}")
    return offer


def _standing(offer: Rematch, player: str) -> str:
    if offer.status == "accepted":
        return f"the rematch was already dealt: game {offer.game}"
    if offer.by == player:
        return "you have already offered a rematch"
    return "your opponent has offered a rematch: accept it"


def _accept(svc: Services, old: rules.GameState, seat: rules.Seat, offer: Rematch,
            request_id: str) -> Outcome:
    options = old.options
    players: dict[rules.Seat, str] = {s: old.players[rules.other(s)] for s in SEATS}  # swapped
    now = svc.clock()
    # Imported here: the move function serves decline_rematch only and never deals (the
    # deal function has the lobby at init, for accept).
    from numbridge.service.usecases.lobby import deal_game  # the one path to python-sat

    dealt = deal_game(svc, options, players, now)
    state, game_id = dealt.state, dealt.state.game_id
    writes = [Rematches.accept_write(old.game_id, offer, game_id), *dealt.writes]
    count("Rematches")
    logger.info("rematch dealt", extra={"game": game_id, "after": old.game_id})
    accepted = answers.RematchAccepted(game=old.game_id, seat=seat, rematch=game_id).frame()
    here = online(svc, players)
    pushes = [(players[s], [accepted, state_frame(state, s, now, online=here)]) for s in SEATS]
    timers = dealt.timers
    return Outcome([ack_frame(request_id)], pushes, writes, timers)
