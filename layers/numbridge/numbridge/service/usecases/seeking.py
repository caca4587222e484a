"""Quick pairing (``seek`` / ``cancel_seek``): a game in a room now, against whoever
else seeks in it with a close rating (the rule: ``club.pairing``).

``seek`` reads the room's waiting seeks and pairs with its partner there, in one
transaction that ends both seeks on condition that they are still there and both
connections on condition that they are still open (``store.seeks``); whoever loses
that race decides again. The partner is the best fit as if the seekers had come one
at a time (``club.pairing.partner``): a crowd that comes together pairs among itself,
first with second, each of it deciding the same pairs, where all would reach for the
same longest waiter. A crowd sees itself only once stored, so a seek pairs before
storing its own only with one that has waited ``CROWD_MS`` (one try); else it is
stored (replacing the player's earlier one), reads the room again and pairs from
there — the later of two stored seekers pairs them, not both — or waits. The
fan-out tries the room again at once (two seekers who came at the same instant may
each have stored a seek without seeing the other) and each time the waiting seek's
window widens (``retry_room``, from the messages this sends ahead). A seek ends with
its connection (``store.connections``), or when a pairing finds that gone. A board
dealt for a try that lost is kept for the process's next pairing: a crowd deals
about a board a game.

``seek`` commits by itself, not through ``settle``, so each of its transactions —
the pairing, the stored seek, the pairing of a seek stored a moment before — holds
the request's receipt with the answer it gives (``ack``, or ``seek``; the last
puts ``ack`` in place of the ``seek`` remembered with the stored seek): a process
that dies after any of them leaves the answer, and the retry gets it, never a
second game nor a second seek.
"""

from __future__ import annotations

import dataclasses
import threading
import uuid
from itertools import groupby

from numbridge import rules
from numbridge.club.pairing import Seeker, pair_all, partner, retry_times
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
from numbridge.service.stock import stocked
from numbridge.service.usecases.lobby import Dealt, deal_board, deal_game
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.views import state_frame
from numbridge.store.port import ConflictError, Item, Write
from numbridge.store.seeks import ConnectionGone, Seek, waiting

# Pairings a stored seek tries (each lost to another seeker) before it waits for the
# fan-out. One not stored yet tries once, and only a seek that has waited ``CROWD_MS``:
# a crowd that comes together sees itself only once stored (each of it would reach for
# the same fresh seek), and a seek that fresh may be one of a crowd arriving now.
PAIR_ATTEMPTS = 4
CROWD_MS = 1_000
# Boards kept dealt, for each kind of deal, by pairings that lost their race.
KEPT_BOARDS = 4
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
    tried: set[str] = set()  # seeks a pairing was tried with (not again in this request)
    # Committed here, not by ``settle``: a pairing lost to another seeker decides again
    # with the board already dealt, and after a few the seek waits. Each commit holds the
    # request's receipt (the answer it gives), so a retry after it is answered, never
    # paired again.
    for attempt in range(STORE_ATTEMPTS):
        paired, mine = _pair_with_waiting(svc, me, mine, options, once, tried)
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
    # Seekers who came at the same instant each stored a seek: reading again after its
    # own commit, each sees those stored before, and pairs as they all decide.
    paired, _ = _pair_with_waiting(svc, me, None, options, once, tried, stored=waits)
    if paired is not None:
        return dataclasses.replace(paired, lobby=[*touched, *paired.lobby])
    count("SeeksWaiting")
    # At once too: a seek that lost every race of a crowd meets the rest in the next batch.
    retries = [(at - now, {"retry": room.id}) for at in [now, *retry_times(now)]]
    return Outcome(waits, lobby=touched, lobby_later=retries, remembered=True)


def _pair_with_waiting(svc: Services, me: Seek, mine: Item | None,
                       options: rules.GameOptions, once: Once, tried: set[str],
                       stored: list[Frame] | None = None) -> tuple[Outcome | None, Item | None]:
    """Pair ``me`` with its partner among the room's waiting seeks, committed with the
    request's receipt; the outcome (None: nobody fits, or every try lost a race) and the
    player's item as last read. ``stored``: ``me`` waits already (its own item is ended
    with the other's), and this was the answer remembered with it (the receipt now
    changed to the pairing's). ``tried``: the seeks tried already, added to."""
    board: rules.Board | None = None
    try:
        for _ in range(PAIR_ATTEMPTS if stored is not None else 1):
            now = svc.clock()
            room = svc.seeks.in_room(me.room, now)
            if stored is not None and all(s.id != me.id for s in room) \
                    and (taken_meanwhile := _taken_meanwhile(svc, me, once, stored)):
                return taken_meanwhile, None  # no try to lose: its pairing came first
            fits = [s for s in room if s.player != me.player and s.id not in tried
                    and bot_level(s.player) is None and _same_game(s, me)]
            # The partner as if the seekers had come one at a time (``arrival_pairs``):
            # a crowd that came together pairs among itself, each seeker deciding the
            # same pairs, instead of all reaching for the same longest waiter.
            match = partner(_seeker(me), [_seeker(s) for s in fits], now)
            if match is None or (stored is None and now - match.since_ms < CROWD_MS):
                return None, mine
            if stored is not None and match.since_ms > me.created_ms:
                # The later of two pairs them: it read the room after storing its seek,
                # so it sees ours if ours was stored by then (else the fan-out's retry,
                # sent at once, pairs us). Both trying, one would lose. (Seeks of one
                # millisecond both try: their order is their random ids, and the later
                # may have come and gone before the earlier began.)
                return None, mine
            other = next(s for s in fits if s.id == match.seek)
            tried.add(other.id)
            board = _take_board(svc, options) if board is None else board
            replies = [ack_frame(once.request_id)]
            try:
                taken = [other, me] if stored is not None else [other]
                pairing = _pairing(svc, taken, mine, other, me, options, board)
                svc.store.transact([*pairing.writes, _remembered(svc, once, replies, stored)])
            except ConflictError as exc:  # taken by another, or its connection gone
                if isinstance(exc, ConnectionGone) and exc.connection == other.connection:
                    # Ended now, not at its $disconnect (which may be lost): the rule
                    # would pair it again and again with whoever comes after it.
                    svc.seeks.drop_connection(other.player, other.connection, now)
                if stored is not None:
                    if (taken_meanwhile := _taken_meanwhile(svc, me, once, stored)):
                        return taken_meanwhile, None
                    mine = None
                    continue
                if (repeat := once.repeat(svc)) is not None:
                    return repeat, mine  # this very request, delivered twice, committed first
                mine = svc.seeks.of_player(me.player)  # another device?
                continue
            board = None  # the game's now
            # Told only once committed: in a crowd many tries lose, and a lost one builds
            # no state frame, reads no presence, and is not counted as a pairing.
            _counted(pairing)
            return dataclasses.replace(told_pair(svc, pairing, replies), writes=[],
                                       remembered=True, refills=stocked(pairing.writes)), mine
        return None, mine
    except BaseException:
        board = None  # a try whose outcome is unknown: its board may be a game's
        raise
    finally:
        if board is not None:  # dealt for a pairing that lost its race: the next one's
            _keep_board(options, board)


# Boards dealt for pairings that lost their race, by the kind of deal: the next pairing
# of this process (a warm Lambda container, numbridge serve) takes one instead of
# dealing, so a crowd deals about a board a game, not one a try. Never a board of a game.
_kept_boards: dict[tuple[object, ...], list[rules.Board]] = {}
_kept_lock = threading.Lock()


def _deal_kind(options: rules.GameOptions) -> tuple[object, ...]:
    """What ``deal_board`` deals from: boards of one kind are interchangeable."""
    return options.size, options.blocks, options.clues, options.grades


def _take_board(svc: Services, options: rules.GameOptions) -> rules.Board:
    with _kept_lock:
        kept = _kept_boards.get(_deal_kind(options))
        if kept:
            return kept.pop()
    return deal_board(svc, options)


def _keep_board(options: rules.GameOptions, board: rules.Board) -> None:
    with _kept_lock:
        kept = _kept_boards.setdefault(_deal_kind(options), [])
        if len(kept) < KEPT_BOARDS:
            kept.append(board)


def _remembered(svc: Services, once: Once, replies: list[Frame],
                stored: list[Frame] | None) -> Write:
    """The receipt of a pairing, in its transaction: put, or (the seek stored in this
    request already, with its answer) put in place of that answer."""
    if stored is None:
        return once.answered(svc, replies)
    return once.answered_instead(svc, replies, stored)


def _taken_meanwhile(svc: Services, me: Seek, once: Once,
                     stored: list[Frame]) -> Outcome | None:
    """If ``me`` (stored) no longer waits: paired by the other seeker (its state comes),
    or ended with its connection. The answer is then ``ack``, remembered in place of the
    seek's."""
    current = svc.seeks.get(me.player)
    if current is not None and current.id == me.id:
        return None
    return _answer_instead(svc, once, [ack_frame(once.request_id)], stored)


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
