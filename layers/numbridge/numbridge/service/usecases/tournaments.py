"""Tournaments as the players see them (``tournaments``, ``tournament``,
``join_tournament``, ``leave_tournament``, the ``tournament:TID`` topic's page) and as
the host makes them (:func:`create_tournament`, :func:`cancel_tournament`: the
``numbridge tournament`` command and the club's schedule).

A tournament runs by itself (``usecases.tournament_steps``); these only read it, or
change a player's item (and their shard of the tournament's count of players) in one
transaction on condition that both are as read.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable

from numbridge.club.proposals import ProposalChoices
from numbridge.club.ratings import Rating
from numbridge.club.rooms import Rooms
from numbridge.names import bot_level
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.service.context import Services
from numbridge.service.outcome import Outcome
from numbridge.service.usecases import pages
from numbridge.service.usecases.pages import PAGE_SIZE, refused_cursor
from numbridge.store import keys
from numbridge.store.port import BadCursor, ConflictError, Delete, Store, Write
from numbridge.store.tournaments import (
    KINDS,
    STATUSES,
    Entrant,
    Status,
    Tournament,
    Tournaments,
    entrant_of,
)

ARENA_PAIRINGS_LISTED = 30
DEFAULT_ARENA_MINUTES = 30
DEFAULT_SWISS_ROUNDS = 5


class TournamentRefused(ValueError):
    """A tournament the host asked for that cannot be made (the message says why)."""


def new_tournament_id(now_ms: int) -> str:
    """Unguessable, in order of creation (as a game's id)."""
    return f"t-{now_ms:011x}{uuid.uuid4().hex[:10]}"


def create_tournament(store: Store, clock: Callable[[], int], *, kind: str, room: str,
                      name: str | None = None, starts_ms: int | None = None,
                      minutes: float | None = None, rounds: int | None = None,
                      rated: bool = True, rooms: Rooms | None = None,
                      tournament_id: str | None = None) -> str:
    """Make a tournament; its id. It starts by itself at ``starts_ms`` (now if None): the
    sweep's query of the upcoming ones finds it, in whichever runtime serves the store.
    ``tournament_id``: the schedule's own (the same event made twice is one: the second
    finds it there). :class:`TournamentRefused` for what cannot be played."""
    if kind not in KINDS:
        raise TournamentRefused(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if rooms is None:
        from numbridge.club.rooms_config import load_rooms

        rooms = load_rooms()
    if room not in rooms:
        raise TournamentRefused(f"no room {room!r}: the rooms are {', '.join(rooms.ids)}")
    now = clock()
    starts = now if starts_ms is None else starts_ms
    ends = None
    if kind == "arena":
        minutes = DEFAULT_ARENA_MINUTES if minutes is None else minutes
        if minutes <= 0:
            raise TournamentRefused("an arena lasts a while (--minutes, more than 0)")
        ends = starts + round(minutes * 60_000)
    elif minutes is not None:
        raise TournamentRefused("--minutes is an arena's length; a Swiss or round robin "
                                "has rounds")
    if kind == "swiss":
        rounds = DEFAULT_SWISS_ROUNDS if rounds is None else rounds
        if rounds <= 0:
            raise TournamentRefused("a Swiss has at least one round (--rounds)")
    elif rounds is not None:
        raise TournamentRefused("--rounds is a Swiss's: an arena has minutes, a round "
                                "robin as many rounds as its players need")
    made = Tournament(
        id=tournament_id or new_tournament_id(now), name=name or _default_name(kind, room),
        kind=kind,
        room=room, rated=rated, status="upcoming", starts_ms=starts, created_ms=now,
        ends_ms=ends, rounds=rounds)
    try:
        store.transact([made.put_write(None)])
    except ConflictError:
        if Tournaments(store).get(made.id) is None:
            raise
    return made.id


def start_tournament(store: Store, clock: Callable[[], int], tournament_id: str,
                     starts_ms: int | None = None) -> Tournament:
    """Move an upcoming tournament's start (now if None): the host starts it once the
    players they wait for are in. :class:`LookupError` if there is none,
    :class:`TournamentRefused` once it has started."""
    found = Tournaments(store)
    for _ in range(5):
        t = found.get(tournament_id)
        if t is None:
            raise LookupError(f"no tournament {tournament_id!r}")
        if t.status != "upcoming":
            raise TournamentRefused(f"{tournament_id} is {t.status}: only an upcoming "
                                    "tournament's start moves")
        starts = clock() if starts_ms is None else starts_ms
        ends = None if t.ends_ms is None else starts + (t.ends_ms - t.starts_ms)
        moved = dataclasses.replace(t, starts_ms=starts, ends_ms=ends)
        try:
            store.transact([moved.put_write(t)])
        except ConflictError:
            continue
        return moved
    raise ConflictError(f"tournament {tournament_id} kept changing")


def _default_name(kind: str, room: str) -> str:
    return f"{room.capitalize()} {kind.replace('_', ' ')}"


def cancel_tournament(store: Store, tournament_id: str) -> Tournament:
    """End a tournament now: no pairing after (games being played finish, uncounted).
    :class:`LookupError` if there is none; one finished already stays as it was."""
    found = Tournaments(store)
    for _ in range(5):
        t = found.get(tournament_id)
        if t is None:
            raise LookupError(f"no tournament {tournament_id!r}")
        if t.status == "finished":
            return t
        ended = dataclasses.replace(t, status="finished", cancelled="by_host",
                                    players=found.counted([t.id])[t.id])
        try:
            store.transact([ended.put_write(t)])
        except ConflictError:
            continue
        return ended
    raise ConflictError(f"tournament {tournament_id} kept changing")


# ------------------------------------------------------------------ the requests


def _shown(svc: Services, found: list[Tournament]) -> list[answers.TournamentShown]:
    """As listed: a tournament not yet finished with its players counted now (its count's
    shards), a finished one with the count it kept."""
    counted = svc.tournaments.counted([t.id for t in found if t.status != "finished"])
    return [answers.TournamentShown(**{**t.public(), "players": counted.get(t.id, t.players)})
            for t in found]


def existing(svc: Services, tournament_id: str) -> Tournament:
    t = svc.tournaments.get(tournament_id)
    if t is None:
        raise ProtocolError("not_found", f"no tournament {tournament_id!r}")
    return t


def tournaments(svc: Services, player: str, request: req.Tournaments) -> Outcome:
    statuses: list[Status] = [request.status] if request.status else list(STATUSES)
    found, following = pages.across(
        statuses, lambda status, limit, after: svc.tournaments.in_status(
            status, limit=limit, after=after,  # type: ignore[arg-type]
            newest_first=status == "finished"),
        request.after)
    return Outcome([answers.TournamentsAnswer(
        id=request.id, tournaments=_shown(svc, found), next=following).frame()])


def tournament_page(svc: Services, request_id: str, tournament_id: str,
                    after: str | None = None, player: str | None = None) -> dict[str, object]:
    """The ``tournament`` answer: the tournament, a page of its standings, its pairings
    (a Swiss or round robin's current round; an arena's latest games) and ``player``'s
    part in it (``you``)."""
    t = existing(svc, tournament_id)
    me = None if player is None else svc.tournaments.player(t.id, player)
    try:
        rows, following = standings_rows(svc, t, after)
    except BadCursor as exc:
        raise pages.refused_cursor() from exc
    if t.kind == "arena":
        listed = svc.tournaments.pairings(t.id, 0, limit=ARENA_PAIRINGS_LISTED,
                                          newest_first=True)
    else:
        listed = svc.tournaments.pairings(t.id, t.round) if t.round else []
    return answers.TournamentAnswer(
        id=request_id, tournament=_shown(svc, [t])[0], standings=rows,
        pairings=[p.public(with_round=t.kind != "arena") for p in listed],
        next=following,
        you=None if player is None else answers.TournamentYou(
            joined=me is not None, left=me is not None and not me.active)).frame()


def tournament(svc: Services, player: str, request: req.Tournament) -> Outcome:
    return Outcome([tournament_page(svc, request.id, request.tournament, request.after,
                                    player)])


def standings_rows(svc: Services, t: Tournament, after: str | None = None,
                   limit: int = PAGE_SIZE) -> tuple[list[answers.StandingShown], str | None]:
    """One page of the standings (a query of the index), ranked; the next page's cursor
    (the store's, with the rank the page after it starts at)."""
    offset, cursor = _uncursor(after)
    page = svc.tournaments.standings(t.id, limit=limit, after=cursor)
    rows = []
    for n, item in enumerate(page.items):
        me = entrant_of(item)
        rows.append(answers.StandingShown(
            rank=me.final_rank or offset + n + 1, player=me.name, score=me.score2 / 2,
            games=me.games, tiebreaks=list(me.tiebreaks) or None,
            withdrawn=None if me.active else True))
    following = None if page.next is None else _cursor(offset + len(rows), page.next)
    return rows, following


def _cursor(offset: int, cursor: str) -> str:
    return f"{offset}.{cursor}"


def _uncursor(after: str | None) -> tuple[int, str | None]:
    if after is None:
        return 0, None
    offset, _, cursor = after.partition(".")
    if not offset.isdigit() or not cursor:
        raise refused_cursor()
    return int(offset), cursor


def _rating(svc: Services, player: str, t: Tournament) -> float:
    room = svc.rooms.get(t.room)
    variant = room.game_options(ProposalChoices(blocks=room.blocks[0], rated=t.rated)).variant
    stored = svc.ratings.get(player, variant)
    return Rating().rating if stored is None else stored.rating


def join_tournament(svc: Services, player: str, request: req.JoinTournament) -> Outcome:
    t = existing(svc, request.tournament)
    if t.status == "finished":
        raise ProtocolError("illegal", "this tournament has finished")
    if t.status == "running" and t.kind != "arena":
        raise ProtocolError("illegal", f"this {t.kind.replace('_', ' ')} has started: "
                                       "only an arena may be joined while it runs")
    if bot_level(player) is not None and t.rated:
        raise ProtocolError("illegal", "bots play only in unrated tournaments")
    me = svc.tournaments.player(t.id, player)
    if me is not None and me.active:
        return Outcome([ack_frame(request.id)])
    now = svc.clock()
    joined = (Entrant(player, _rating(svc, player, t), now) if me is None
              else dataclasses.replace(me, active=True))
    writes: list[Write] = [joined.put_write(t.id, fresh=me is None),
                           svc.tournaments.count_write(t.id, player, 1)]
    if t.kind == "arena" and not joined.playing:
        writes.append(svc.tournaments.wait_write(t.id, player, now))
    # The step pushes the count and the standings to the subscribers (coalesced), and
    # pairs a running arena's newcomer.
    return Outcome([ack_frame(request.id)], writes=writes, steps=[(t.id, None)])


def leave_tournament(svc: Services, player: str, request: req.LeaveTournament) -> Outcome:
    t = existing(svc, request.tournament)
    me = svc.tournaments.player(t.id, player)
    if me is None or not me.active or t.status == "finished":
        return Outcome([ack_frame(request.id)])
    writes: list[Write] = [dataclasses.replace(me, active=False).put_write(t.id),
                           svc.tournaments.count_write(t.id, player, -1),
              Delete(keys.tournament(t.id), keys.tournament_waiting(player))]
    return Outcome([ack_frame(request.id)], writes=writes, steps=[(t.id, None)])
