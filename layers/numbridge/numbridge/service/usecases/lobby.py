"""Lobby and archive use cases: rooms, proposals, the deal, games, records, ratings."""

from __future__ import annotations

import time
import uuid
from typing import Any

from numbridge import rules
from numbridge.club.proposals import ProposalChoices, ProposalDoc, seat_players
from numbridge.club.ratings import Rating, is_provisional
from numbridge.names import bot_level, fold_name
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.rules.seats import SEATS
from numbridge.service.context import Services
from numbridge.service.observability import MetricUnit, count, logger, measure
from numbridge.service.outcome import Outcome, Timer
from numbridge.service.stock import board_of, stock_setting
from numbridge.service.usecases import pages
from numbridge.service.usecases.finish import status_writes
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.views import state_frame
from numbridge.store.club import (
    PROPOSALS_PER_PLAYER,
    Proposals,
    StoredProposal,
    lapsed,
)
from numbridge.store.games import NO_TURN, Games
from numbridge.store.port import MAX_BATCH_GET_KEYS, Write
from numbridge.values import frozen


def rooms(svc: Services, player: str, request: req.Rooms) -> Outcome:
    return Outcome([answers.RoomsAnswer(id=request.id, rooms=tuple(svc.rooms)).frame()])


def _stored_choices(proposal: ProposalDoc) -> ProposalChoices:
    return ProposalChoices(
        blocks=proposal["blocks"], clues=proposal["clues"],
        highlighting=proposal["highlighting"], rated=proposal["rated"],
        colour=proposal["colour"], variant=proposal.get("variant"),
        grade=proposal.get("grade"),
    )


def propose(svc: Services, player: str, request: req.Propose) -> Outcome:
    room = svc.rooms.get(request.room)
    options = room.game_options(request.choices)
    to = None if request.to is None else _challenged(svc, player, request.to)
    now = svc.clock()
    slots = svc.proposals.slots(player)
    open_slots = {slot.n for slot in slots if slot.expires_ms > now}
    if len(open_slots) >= PROPOSALS_PER_PLAYER:
        raise ProtocolError("illegal", f"at most {PROPOSALS_PER_PLAYER} open proposals each: "
                                       "withdraw one (each lapses an hour after it was made)")
    free = min(set(range(PROPOSALS_PER_PLAYER)) - open_slots)
    proposal: ProposalDoc = {
        "id": f"p-{uuid.uuid4().hex[:12]}", "room": room.id, "by": player,
        "variant": options.variant, "blocks": options.blocks, "clues": options.clues,
        "highlighting": options.highlighting, "rated": options.rated,
        "colour": request.colour, "created_ms": now,
    }
    lapsed_slot = next((slot for slot in slots if slot.n == free), None)
    if to is not None:
        proposal["to"] = to
    if request.grade is not None:
        proposal["grade"] = request.grade
    writes = Proposals.add_writes(proposal, free, lapsed_slot)
    if to is not None:  # private: pushed to its one reader, never to the lobby
        return Outcome([answers.ProposalAnswer(id=request.id, proposal=proposal).frame()],
                       [(to, [answers.Challenge(proposal=proposal).frame()])], writes)
    return Outcome([answers.ProposalAnswer(id=request.id, proposal=proposal).frame()],
                   writes=writes, lobby=[{"proposal_added": proposal["id"]}])


def _challenged(svc: Services, player: str, to: str) -> str:
    """The player a challenge names, as their name is shown; refused when nobody of that
    name plays here, when it is a bot seat, or the challenger themself."""
    if bot_level(to) is not None:
        raise ProtocolError("illegal", f"{to} is a bot seat: play it with `propose` and "
                                       "`bot`, not a challenge")
    if fold_name(to) == fold_name(player):
        raise ProtocolError("illegal", "you cannot challenge yourself")
    account = svc.accounts.get(to)
    if account is not None:
        return account.name
    if svc.accounts.has_history(to):  # a player from before records
        return to
    raise ProtocolError("not_found", f"no player {to!r}")


def proposals(svc: Services, player: str, request: req.Proposals) -> Outcome:
    room_ids = [svc.rooms.get(request.room).id] if request.room else list(svc.rooms.ids)
    now = svc.clock()
    found, following = pages.across(
        room_ids, lambda room, limit, after: svc.proposals.in_room(room, limit=limit,
                                                                   after=after),
        request.after, keep=lambda proposal: not lapsed(proposal, now))
    return Outcome([answers.ProposalsAnswer(id=request.id, proposals=found,
                                            next=following).frame()])


def open_proposal(svc: Services, proposal_id: str) -> StoredProposal:
    stored = svc.proposals.get(proposal_id)
    if stored is None:
        raise ProtocolError("not_found", f"no open proposal {proposal_id!r}")
    if lapsed(stored.proposal, svc.clock()):
        raise ProtocolError("not_found", f"proposal {proposal_id!r} lapsed (after an hour)")
    return stored


def withdraw(svc: Services, player: str, request: req.Withdraw) -> Outcome:
    stored = open_proposal(svc, request.proposal)
    if stored.proposal["by"] != player:
        raise ProtocolError("unauthorized", "only its author can withdraw a proposal")
    return Outcome([ack_frame(request.id)], writes=svc.proposals.remove_writes(stored),
                   lobby=_removed(stored.proposal, "withdrawn"))


def _removed(proposal: ProposalDoc, why: str) -> list[dict[str, str]]:
    """The lobby's hint that a proposal went (a challenge was never in the lobby), and
    whose it was: its player's connections are told wherever it sat on the circle."""
    return [] if proposal.get("to") else [{"proposal_removed": proposal["id"], "why": why,
                                           "by": proposal["by"]}]


def accept(svc: Services, player: str, request: req.Accept) -> Outcome:
    """Deal the board, seat both players and tell them (the only path to python-sat)."""
    stored = open_proposal(svc, request.proposal)
    proposal = stored.proposal
    if proposal.get("to") and fold_name(proposal["to"]) != fold_name(player):
        raise ProtocolError("unauthorized", "this challenge is another player's to accept")
    room = svc.rooms.get(proposal["room"])
    options = room.game_options(_stored_choices(proposal))
    players = seat_players(proposal["by"], player, proposal["colour"], svc.rng)
    now = svc.clock()
    dealt = deal_game(svc, options, players, now)
    state = dealt.state
    count("Deals")
    logger.info("dealt", extra={"game": state.game_id, "players": players})
    here = online(svc, players)
    pushes = [(players[seat], [state_frame(state, seat, now, online=here)]) for seat in SEATS]
    return Outcome([ack_frame(request.id)], pushes,
                   [*svc.proposals.remove_writes(stored), *dealt.writes], dealt.timers,
                   lobby=_removed(proposal, "accepted"))


@frozen
class Dealt:
    """A new game, and the writes and timer that start it."""

    state: rules.GameState
    writes: list[Write]
    timers: list[Timer]


def deal_game(svc: Services, options: rules.GameOptions, players: dict[rules.Seat, str],
              now_ms: int, board: rules.Board | None = None) -> Dealt:
    """Deal a board (unless one was dealt for it already) and seat the players: every new
    game starts here (a proposal accepted, a rematch, a game against the bot, a seek)."""
    board = deal_board(svc, options) if board is None else board
    state = rules.new_game(new_game_id(now_ms), options, board, players, svc.rng, now_ms)
    deadline = rules.next_deadline(state)
    writes = [
        svc.games.state_put(
            state.game_id, state.to_dict(), v=state.v, turn=state.turn,
            step=state.moves_left_in_pair, status=state.status, players=players,
            deadline_ms=deadline, expected=None,
        ),
        *status_writes(svc, None, state, now_ms),
    ]
    timers = [] if deadline is None else [Timer(state.game_id, state.v, deadline)]
    return Dealt(state, writes, timers)


def deal_board(svc: Services, options: rules.GameOptions) -> rules.Board:
    """The board of a new game: every game's board is dealt here. An ask the dealer aims
    at (a rare grade: ``store.board_stock``) is taken from the stock when one is there,
    else dealt inline as any other; the stock's refill is asked after the request's
    frames are posted (``commit.after_pushes`` finds the new game in its writes)."""
    from numbridge.puzzles import DealError, deal_board
    from numbridge.rules.options import grades_between

    grades = None if options.grades is None else grades_between(options.grades)
    started = time.perf_counter()
    setting = stock_setting(options)
    board = None if setting is None else _from_stock(svc, setting)
    if board is None:
        try:
            dealt = deal_board(options.size, options.blocks, options.clues, svc.rng,
                               budget_s=svc.deal_budget_s, grades=grades)
        except DealError as exc:
            logger.exception("deal failed")
            raise ProtocolError("internal", f"could not deal a board: {exc}") from exc
        board = board_of(dealt)
    # What the request waited for, from the stock or dealt.
    measure("DealLatency", (time.perf_counter() - started) * 1000, MetricUnit.Milliseconds)
    return board


def _from_stock(svc: Services, setting: str) -> rules.Board | None:
    """A stocked board of ``setting``, counted as a hit or a miss; ``None`` on a miss
    (none left, or the stock could not be read: the deal goes on inline)."""
    try:
        board = svc.board_stock.take(setting)
    except Exception:
        logger.exception("stock not read; dealt inline", extra={"setting": setting})
        board = None
    count("StockHits" if board is not None else "StockMisses")
    return board


def new_game_id(now_ms: int) -> str:
    """Unguessable, and in order of creation (the ``games`` list is newest first)."""
    return f"g-{now_ms:011x}{uuid.uuid4().hex[:10]}"


def games(svc: Services, player: str, request: req.Games) -> Outcome:
    listed, following = pages.one_page(
        lambda limit, after: svc.player_games.of_player(player, limit=limit, after=after),
        request.after)
    _add_turns(svc, listed)
    return Outcome([answers.GamesAnswer(id=request.id, games=listed, next=following).frame()])


def _add_turns(svc: Services, listed: list[dict[str, object]]) -> None:
    """Each game being played gains whose move it is and until when (the stored line is
    written at status changes only; the game's own item knows the move), so a client
    opens the game where it is the player's move."""
    playing = [entry for entry in listed if entry.get("status") == "playing"]
    for start in range(0, len(playing), MAX_BATCH_GET_KEYS):
        chunk = playing[start:start + MAX_BATCH_GET_KEYS]
        heads = svc.store.get_many([Games.state_key(str(e["game"])) for e in chunk])
        for entry, head in zip(chunk, heads, strict=True):
            if head is None or head.get("status") != "playing":
                continue
            turn = head.get("turn")
            entry["turn"] = None if turn in (None, NO_TURN) else turn
            entry["deadline_ms"] = _deadline_of(head)


def _deadline_of(head: dict[str, Any]) -> int | None:
    """The next deadline a game's state item runs to (none: no clock runs): its own
    attribute, or the deadline index's key of a state stored with one."""
    if head.get("deadline") is not None:
        return int(str(head["deadline"]))
    if str(head.get("gsi1pk", "")).startswith("DEADLINE#") and "gsi1sk" in head:
        return int(str(head["gsi1sk"]))
    return None


def record(svc: Services, player: str, request: req.Record) -> Outcome:
    found = svc.archive.get(request.game)
    if found is None:
        # A game in progress is not readable this way: the same answer as no game.
        raise ProtocolError("not_found", f"no finished game {request.game!r} in the archive")
    return Outcome([answers.RecordAnswer(id=request.id, game=request.game,
                                         record=found).frame()])


def leaderboard(svc: Services, player: str, request: req.Leaderboard) -> Outcome:
    rows, following = pages.one_page(
        lambda limit, after: svc.ratings.leaderboard(request.variant, limit=limit,
                                                     after=after),
        request.after)
    players = [answers.LeaderboardEntry(
        name=row.name, rating=row.rating, rd=row.rd, volatility=row.volatility,
        games=row.games,
        provisional=is_provisional(Rating(row.rating, row.rd, row.volatility)))
        for row in rows]
    return Outcome([answers.LeaderboardAnswer(id=request.id, variant=request.variant,
                                              players=players, next=following).frame()])
