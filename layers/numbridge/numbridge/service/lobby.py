"""Lobby and archive use cases: rooms, proposals, the deal, games, records, ratings."""

from __future__ import annotations

import time
import uuid
from typing import Any

from numbridge import rules
from numbridge.club.proposals import ProposalChoices, ProposalRejected, seat_players
from numbridge.club.ratings import Rating, is_provisional
from numbridge.club.rooms import Room, UnknownRoom
from numbridge.protocol import ProtocolError, ack_frame
from numbridge.protocol import actions as act
from numbridge.rules.geometry import Layout
from numbridge.rules.seats import SEATS
from numbridge.service.context import Services
from numbridge.service.finish import status_writes
from numbridge.service.observability import MetricUnit, count, logger, measure
from numbridge.service.outcome import Outcome, Timer
from numbridge.service.views import state_frame
from numbridge.store.club import Proposals


def rooms(svc: Services, player: str, request: act.Rooms) -> Outcome:
    return Outcome([{"type": "rooms", "id": request.id, "rooms": svc.rooms.to_public()}])


def _room(svc: Services, room_id: str) -> Room:
    try:
        return svc.rooms.get(room_id)
    except UnknownRoom as exc:
        raise ProtocolError("not_found", str(exc)) from exc


def _options(room: Room, proposal: dict[str, Any]) -> rules.GameOptions:
    choices = ProposalChoices(
        blocks=proposal["blocks"], clues=proposal["clues"],
        highlighting=proposal["highlighting"], rated=proposal["rated"],
        colour=proposal["colour"], variant=proposal.get("variant"),
    )
    try:
        return room.game_options(choices)
    except ProposalRejected as exc:
        raise ProtocolError("illegal", str(exc)) from exc


def propose(svc: Services, player: str, request: act.Propose) -> Outcome:
    room = _room(svc, request.room)
    asked = request.model_dump(include={"blocks", "clues", "highlighting", "rated", "colour",
                                        "variant"})
    options = _options(room, asked)
    proposal = {
        "id": f"p-{uuid.uuid4().hex[:12]}", "room": room.id, "by": player,
        "variant": options.variant, "blocks": options.blocks, "clues": options.clues,
        "highlighting": options.highlighting, "rated": options.rated,
        "colour": request.colour, "created_ms": svc.clock(),
    }
    return Outcome([{"type": "proposal", "id": request.id, "proposal": proposal}],
                   writes=[Proposals.add_write(proposal)])


def proposals(svc: Services, player: str, request: act.Proposals) -> Outcome:
    room_ids = [_room(svc, request.room).id] if request.room else list(svc.rooms.ids)
    found = [p for room_id in room_ids for p in svc.proposals.in_room(room_id)]
    return Outcome([{"type": "proposals", "id": request.id, "proposals": found}])


def withdraw(svc: Services, player: str, request: act.Withdraw) -> Outcome:
    proposal = svc.proposals.get(request.proposal)
    if proposal is None:
        raise ProtocolError("not_found", f"no open proposal {request.proposal!r}")
    if proposal["by"] != player:
        raise ProtocolError("unauthorized", "only its author can withdraw a proposal")
    return Outcome([ack_frame(request.id)], writes=[Proposals.remove_write(request.proposal)])


def accept(svc: Services, player: str, request: act.Accept) -> Outcome:
    """Deal the board, seat both players and tell them (the only path to python-sat)."""
    proposal = svc.proposals.get(request.proposal)
    if proposal is None:
        raise ProtocolError("not_found", f"no open proposal {request.proposal!r}")
    room = _room(svc, proposal["room"])
    options = _options(room, proposal)
    try:
        players = seat_players(proposal["by"], player, proposal["colour"], svc.rng)
    except ProposalRejected as exc:
        raise ProtocolError("illegal", str(exc)) from exc
    board = _deal(svc, options)
    game_id = f"g-{uuid.uuid4().hex[:16]}"
    now = svc.clock()
    state = rules.new_game(game_id, options, board, players, svc.rng, now)
    deadline = rules.next_deadline(state)
    writes = [
        Proposals.remove_write(request.proposal),
        svc.games.state_put(
            game_id, state.to_dict(), v=state.v, turn=state.turn,
            step=state.moves_left_in_pair, status=state.status, players=players,
            deadline_ms=deadline, expected=None,
        ),
        *status_writes(svc, None, state, now),
    ]
    count("Deals")
    logger.info("dealt", extra={"game": game_id, "players": players})
    pushes = [(players[seat], [state_frame(state, seat, now)]) for seat in SEATS]
    timers = [] if deadline is None else [Timer(game_id, state.v, deadline)]
    return Outcome([ack_frame(request.id)], pushes, writes, timers)


def _deal(svc: Services, options: rules.GameOptions) -> rules.Board:
    from numbridge.puzzles import DealError, deal_board

    started = time.perf_counter()
    try:
        dealt = deal_board(options.size, options.blocks, options.clues, svc.rng,
                           budget_s=svc.deal_budget_s)
    except DealError as exc:
        logger.exception("deal failed")
        raise ProtocolError("internal", f"could not deal a board: {exc}") from exc
    measure("DealLatency", (time.perf_counter() - started) * 1000, MetricUnit.Milliseconds)
    layout = Layout.from_string(dealt.blocks)
    return rules.Board(layout=layout, givens=dealt.givens, solution=dealt.solution)


def games(svc: Services, player: str, request: act.Games) -> Outcome:
    listed = sorted(svc.player_games.of_player(player), key=lambda g: -g["updated_ms"])
    return Outcome([{"type": "games", "id": request.id, "games": listed}])


def record(svc: Services, player: str, request: act.Record) -> Outcome:
    found = svc.archive.get(request.game)
    if found is None:
        # A game in progress is not readable this way: the same answer as no game.
        raise ProtocolError("not_found", f"no finished game {request.game!r} in the archive")
    return Outcome([{"type": "record", "id": request.id, "game": request.game,
                     "record": found}])


def leaderboard(svc: Services, player: str, request: act.Leaderboard) -> Outcome:
    rows = svc.ratings.leaderboard(request.variant)
    players = sorted(
        ({**row, "provisional": is_provisional(Rating(row["rating"], row["rd"],
                                                      row["volatility"]))}
         for row in rows),
        key=lambda r: (r["provisional"], -r["rating"], r["name"]),
    )
    return Outcome([{"type": "leaderboard", "id": request.id, "variant": request.variant,
                     "players": players}])
