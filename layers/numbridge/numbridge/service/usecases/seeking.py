"""Quick pairing (``seek`` / ``cancel_seek``): a game in a room now, against whoever
else seeks in it with a close rating (the rule: ``club.pairing``).

``seek`` reads the room's waiting seeks and pairs at once with the best fit, in one
transaction that ends both seeks on condition that they are still there and both
connections on condition that they are still open (``store.seeks``); whoever loses
that race decides again. Nobody fits: the seek is stored (replacing the player's
earlier one) and waits. The fan-out tries the room again at once — two seekers who
came at the same instant each stored a seek without seeing the other — and each
time the waiting seek's window widens (``retry_room``, from the messages this sends
ahead). A seek ends with its connection (``store.connections``).

``seek`` commits by itself, not through ``settle``, so each of its transactions —
the pairing, the stored seek, the pairing of a seek stored a moment before — holds
the request's receipt with the answer it gives (``ack``, or ``seek``; the last
puts ``ack`` in place of the ``seek`` remembered with the stored seek): a process
that dies after any of them leaves the answer, and the retry gets it, never a
second game nor a second seek.
"""

from __future__ import annotations

import dataclasses
import uuid
from itertools import groupby

from numbridge import rules
from numbridge.club.pairing import Seeker, pair_all, ranked, retry_times
from numbridge.club.proposals import ProposalChoices, seat_players
from numbridge.club.ratings import Rating
from numbridge.club.rooms import Room
from numbridge.names import bot_level
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.rules.seats import SEATS
from numbridge.service.commit import Once, settle
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Frame, Outcome
from numbridge.service.usecases.lobby import Dealt, deal_board, deal_game
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.views import state_frame
from numbridge.store.port import ConflictError, Item, Write
from numbridge.store.seeks import Seek, waiting

# Pairings a seek tries (each lost to another seeker) before it waits.
PAIR_ATTEMPTS = 4
# After a race lost: of how many of the best fits the next try draws one.
CROWD_SPREAD = 8
# Tries to store a seek while the player's other devices change theirs.
STORE_ATTEMPTS = 3


def _options(room: Room, rated: bool, variant: str | None) -> rules.GameOptions:
    """A seek's game: the room's defaults (its first block kind), colour drawn."""
    return room.game_options(ProposalChoices(
        blocks=room.blocks[0], rated=rated, variant=variant))  # type: ignore[arg-type]


def _rating(svc: Services, player: str, variant: str) -> float:
    stored = svc.ratings.get(player, variant)
    return Rating().rating if stored is None else stored.rating


def _seeker(seek: Seek) -> Seeker:
    return Seeker(seek.id, seek.player, seek.rating, seek.created_ms)


def _same_game(a: Seek, b: Seek) -> bool:
    return a.rated == b.rated and a.variant == b.variant


def seek(svc: Services, player: str, connection_id: str, request: req.Seek) -> Outcome:
    if bot_level(player) is not None:
        raise ProtocolError("illegal", "a bot seat does not seek")
    room = svc.rooms.get(request.room)
    options = _options(room, request.rated, request.variant)
    now = svc.clock()
    me = Seek(id=f"s-{uuid.uuid4().hex[:12]}", room=room.id, player=player,
              connection=connection_id, rating=_rating(svc, player, options.variant),
              rated=options.rated, created_ms=now, variant=request.variant)
    once = Once.of(player, request)
    waits = [answers.SeekAnswer(id=request.id, seek=answers.SeekShown(
        id=me.id, room=me.room, rated=me.rated, created_ms=now,
        variant=options.variant if request.variant else None)).frame()]
    mine = svc.seeks.of_player(player)
    # Committed here, not by ``settle``: a pairing lost to another seeker tries the next
    # fit with the board already dealt, and after a few the seek waits — many seekers at
    # once reach first for the same longest waiter. Each commit holds the request's
    # receipt (the answer it gives), so a retry after it is answered, never paired again.
    for attempt in range(STORE_ATTEMPTS):
        paired, mine = _pair_with_waiting(svc, me, mine, options, once)
        if paired is not None:
            return paired
        try:
            svc.store.transact([*svc.seeks.put_writes(me, mine), once.answered(svc, waits)])
            break
        except ConflictError as exc:  # another device of the player sought meanwhile
            if (repeat := once.repeat(svc)) is not None:
                return repeat  # or this very request, delivered twice, committed first
            if attempt + 1 == STORE_ATTEMPTS:
                raise ProtocolError("conflict", "your seeking kept changing: retry") from exc
            mine = svc.seeks.of_player(player)
    touched = _rooms_touched(mine, room.id)
    # Two seekers who came at the same instant each stored a seek without seeing the
    # other: the later of them, reading again after its own commit, sees the earlier.
    paired, _ = _pair_with_waiting(svc, me, None, options, once, stored=waits)
    if paired is not None:
        return dataclasses.replace(paired, lobby=[*touched, *paired.lobby])
    count("SeeksWaiting")
    # At once too: a seek that lost every race of a crowd meets the rest in the next batch.
    retries = [(at - now, {"retry": room.id}) for at in [now, *retry_times(now)]]
    return Outcome(waits, lobby=touched, lobby_later=retries, remembered=True)


def _pair_with_waiting(svc: Services, me: Seek, mine: Item | None,
                       options: rules.GameOptions, once: Once,
                       stored: list[Frame] | None = None) -> tuple[Outcome | None, Item | None]:
    """Pair ``me`` with the best fit among the room's waiting seeks, committed with the
    request's receipt; the outcome (None: nobody fits, or every try lost a race) and the
    player's item as last read. ``stored``: ``me`` waits already (its own item is ended
    with the other's), and this was the answer remembered with it (the receipt now
    changed to the pairing's)."""
    board: rules.Board | None = None
    tried: set[str] = set()
    for attempt in range(PAIR_ATTEMPTS):
        now = svc.clock()
        fits = [s for s in svc.seeks.in_room(me.room, now)
                if s.player != me.player and s.id not in tried
                and bot_level(s.player) is None and _same_game(s, me)]
        best = ranked(_seeker(me), [_seeker(s) for s in fits], now)
        if not best:
            return None, mine
        # The best fit first; after a race lost, a crowd is reaching for the same few:
        # one of the next best, drawn, so that the crowd spreads over the waiting.
        match = best[0] if attempt == 0 else svc.rng.choice(best[:CROWD_SPREAD])
        other = next(s for s in fits if s.id == match.seek)
        tried.add(other.id)
        board = deal_board(svc, options) if board is None else board
        replies = [ack_frame(once.request_id)]
        try:
            taken = [other, me] if stored is not None else [other]
            pairing = _pairing(svc, taken, mine, other, me, options, board)
            svc.store.transact([*pairing.writes, _remembered(svc, once, replies, stored)])
        except ConflictError:  # taken by another, or its connection gone
            if stored is not None:
                current = svc.seeks.get(me.player)
                if current is None or current.id != me.id:
                    # Ours was taken meanwhile: paired by the other seeker (its state
                    # comes). The answer is that, remembered in place of the seek's.
                    return _answer_instead(svc, once, [ack_frame(once.request_id)],
                                           stored), None
                mine = None
                continue
            if (repeat := once.repeat(svc)) is not None:
                return repeat, mine  # this very request, delivered twice, committed first
            mine = svc.seeks.of_player(me.player)  # another device?
            continue
        # Told only once committed: in a crowd most tries lose, and a lost one builds no
        # state frame, reads no presence, and is not counted as a pairing.
        _counted(pairing)
        return dataclasses.replace(told_pair(svc, pairing, replies), writes=[],
                                   remembered=True), mine
    return None, mine


def _remembered(svc: Services, once: Once, replies: list[Frame],
                stored: list[Frame] | None) -> Write:
    """The receipt of a pairing, in its transaction: put, or (the seek stored in this
    request already, with its answer) put in place of that answer."""
    if stored is None:
        return once.answered(svc, replies)
    return once.answered_instead(svc, replies, stored)


def _answer_instead(svc: Services, once: Once, replies: list[Frame],
                    stored: list[Frame]) -> Outcome:
    """Answer ``replies`` in place of the answer remembered with the stored seek: the
    receipt changed first, so that a retry gets what this request answers."""
    try:
        svc.store.transact([once.answered_instead(svc, replies, stored)])
    except ConflictError:  # only this request changes its receipt: not expected
        repeat = once.repeat(svc)
        if repeat is not None:
            return repeat
        raise
    return Outcome(replies, remembered=True)


def _rooms_touched(mine: Item | None, room_id: str) -> list[Frame]:
    """The lobby's hints: the seekers waiting in these rooms changed."""
    rooms = {room_id} | ({str(mine["room"])} if mine is not None and waiting(mine) else set())
    return [{"seeks": room} for room in sorted(rooms)]


@dataclasses.dataclass(frozen=True)
class PairedGame:
    """Two players' new game, dealt but not yet committed: its writes (what the pairing
    checks, then the game's items) and what to tell once they commit."""

    writes: list[Write]
    dealt: Dealt
    players: dict[rules.Seat, str]
    lobby: list[Frame]
    now: int


def pair_game(svc: Services, options: rules.GameOptions, players: dict[rules.Seat, str],
              now_ms: int, *, board: rules.Board | None = None,
              checks: list[Write] | None = None,
              lobby: list[Frame] | None = None) -> PairedGame:
    """A game for two players the server paired (a seek, a tournament): dealt, with the
    writes that check the pairing still holds (``checks``) first."""
    dealt = deal_game(svc, options, players, now_ms, board)
    return PairedGame([*(checks or []), *dealt.writes], dealt, players,
                      [*(lobby or []), {"live_added": dealt.state.game_id}], now_ms)


def told_pair(svc: Services, pairing: PairedGame, replies: list[Frame]) -> Outcome:
    """What a pairing tells: each player's state of the new game (with whether the other
    is online), its timer, the lobby's hints; its writes too (committed by the caller,
    or by ``settle`` from this outcome)."""
    state = pairing.dealt.state
    here = online(svc, pairing.players)
    pushes = [(pairing.players[seat], [state_frame(state, seat, pairing.now, online=here)])
              for seat in SEATS]
    return Outcome(replies, pushes, pairing.writes, pairing.dealt.timers, lobby=pairing.lobby)


def _pairing(svc: Services, taken: list[Seek], mine: Item | None, waited: Seek,
             came: Seek, options: rules.GameOptions,
             board: rules.Board | None = None) -> PairedGame:
    """The game of two seekers: ``waited`` (its seek stored) and ``came`` (stored too
    when both are in ``taken``; else the requester, ``mine`` their item as read).
    :class:`ConflictError` if a seek or a connection is gone."""
    now = svc.clock()
    requester = None if came in taken else came.player
    checks = svc.seeks.pair_writes(taken, requester, mine,
                                   [waited.connection, came.connection], now)
    players = seat_players(waited.player, came.player, "random", svc.rng)
    return pair_game(svc, options, players, now, board=board, checks=checks,
                     lobby=_rooms_touched(mine, waited.room))


def _counted(pairing: PairedGame) -> None:
    """A pairing committed: counted and logged (never a try that lost its race)."""
    count("SeekPairings")
    logger.info("paired", extra={"game": pairing.dealt.state.game_id,
                                 "players": pairing.players})


def cancel_seek(svc: Services, player: str, request: req.CancelSeek) -> Outcome:
    mine = svc.seeks.get(player)
    if mine is None or mine.id != request.seek:
        raise ProtocolError("not_found", f"no waiting seek {request.seek!r}: paired or gone")
    try:
        writes = svc.seeks.end(mine, svc.clock())
    except ConflictError as exc:
        raise ProtocolError("not_found", f"seek {request.seek!r} was paired meanwhile") from exc
    return Outcome([ack_frame(request.id)], writes=writes, lobby=[{"seeks": mine.room}])


def retry_room(svc: Services, room_id: str) -> int:
    """Pair the seekers now waiting in a room who fit (a retry: the windows widened, or
    two seeks came at once); how many games were dealt. Each pairing is committed and
    pushed on its own: one that lost a race is skipped (its seekers wait on)."""
    if room_id not in svc.rooms:
        return 0
    room = svc.rooms.get(room_id)
    now = svc.clock()
    waiting = [s for s in svc.seeks.in_room(room_id, now) if bot_level(s.player) is None]
    by_id = {s.id: s for s in waiting}
    dealt = 0
    kinds = sorted(waiting, key=lambda s: (s.rated, s.variant or ""))
    for _, group in groupby(kinds, key=lambda s: (s.rated, s.variant or "")):
        for first, second in pair_all([_seeker(s) for s in group], now):
            a, b = by_id[first.seek], by_id[second.seek]
            try:
                options = _options(room, a.rated, a.variant)
            except Exception:  # the room changed its variants since: they wait on
                logger.exception("seek no longer fits its room", extra={"room": room_id})
                continue
            told: list[PairedGame] = []
            outcome = settle(svc, lambda a=a, b=b, options=options, told=told:  # type: ignore[misc]
                             _pair_if_waiting(svc, a, b, options, told))
            if outcome.pushes:
                _counted(told[-1])
                deliver(svc, outcome)
                dealt += 1
    return dealt


def _pair_if_waiting(svc: Services, a: Seek, b: Seek, options: rules.GameOptions,
                     told: list[PairedGame]) -> Outcome:
    """Pair two waiting seeks if both still wait (decided again after a lost race);
    the pairing decided last is appended to ``told``."""
    now = svc.clock()
    still = {s.id for s in svc.seeks.in_room(a.room, now)}
    if a.id not in still or b.id not in still:
        return Outcome([])
    try:
        pairing = _pairing(svc, [a, b], None, a, b, options)
        told.append(pairing)
        return told_pair(svc, pairing, [])
    except ConflictError:
        return Outcome([])  # a connection is gone: its seek ends at its $disconnect
