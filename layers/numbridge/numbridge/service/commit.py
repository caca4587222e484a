"""The one place a decision becomes durable: commit, remember the answer, then follow up.

A use case decides (an :class:`Outcome`: answers, writes, pushes, timers)
without writing. :func:`settle` commits the writes in one transaction — with
the request's receipt when the request must be applied at most once — and
decides again if a concurrent change won the race. The one use case that
commits by itself (``seek``: a pairing lost to another seeker tries the next
fit) puts the receipt (:meth:`Once.answered`) in each of its transactions and
says so (``Outcome.remembered``). Only after the commit are
timers sent; a timer that fails to send is logged and left to the sweep, and
never turns a committed change into an error. What may deal a player's next game (a
tournament's step) waits until the outcome's frames are posted (:func:`after_pushes`,
called by ``delivery.deliver``): the ended game's last frames reach the players
before the next game's ``state``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable

from numbridge.protocol import ProtocolError, error_frame
from numbridge.protocol.requests import Request, as_frame
from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Frame, Outcome
from numbridge.service.stock import stocked
from numbridge.service.wire_errors import wire_error
from numbridge.store import keys
from numbridge.store.port import ConflictError, Delete, Put, Write
from numbridge.store.receipts import Receipt, Receipts
from numbridge.values import frozen

MAX_ATTEMPTS = 5
# Answers that are not remembered: the same id may try again.
TRANSIENT_CODES = frozenset({"conflict", "internal", "rate_limited"})


def refused(request_id: str | None, err: ProtocolError) -> Outcome:
    return Outcome([error_frame(request_id, err.code, err.message, err.retry_after_ms)])


def digest(request: Request) -> str:
    """What a repeat must match: the request as parsed, its id aside."""
    fields = {k: v for k, v in as_frame(request).items() if k != "id"}
    text = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@frozen
class Once:
    """A request applied at most once per (player, id)."""

    player: str
    request_id: str
    digest: str

    def stored(self, svc: Services) -> Outcome | None:
        """The answer already given to this id, if there is one."""
        receipt = svc.receipts.get(self.player, self.request_id)
        if receipt is None:
            return None
        if receipt.digest != self.digest:
            return refused(self.request_id, ProtocolError(
                "illegal", f"request id {self.request_id!r} was already used for another "
                           "request; use a new id"))
        count("RepeatedRequests")
        return Outcome(list(receipt.replies))  # the same answer; events are not pushed again

    @classmethod
    def of(cls, player: str, request: Request) -> Once:
        return cls(player, request.id, digest(request))

    def receipt(self, svc: Services, outcome: Outcome) -> Write | None:
        codes = {r.get("code") for r in outcome.replies if r.get("type") == "error"}
        if codes & TRANSIENT_CODES:
            return None
        return self.answered(svc, outcome.replies)

    def answered(self, svc: Services, replies: list[Frame]) -> Put:
        """The receipt of an answer, put only if there is none: for a use case that
        commits by itself to put in the transaction of its change (its outcome then
        ``remembered``)."""
        return Receipts.put_write(self.player, self.request_id,
                                  Receipt(self.digest, replies, svc.clock()))

    def answered_instead(self, svc: Services, replies: list[Frame],
                         was: list[Frame]) -> Put:
        """The receipt's answer changed from ``was`` (this request's own, committed a
        moment ago, not yet given) to ``replies``: a request that commits twice."""
        return Receipts.replace_write(self.player, self.request_id,
                                      Receipt(self.digest, replies, svc.clock()), was)

    def repeat(self, svc: Services) -> Outcome | None:
        """After a lost condition in a use case that commits by itself: the answer given
        to this id meanwhile (another delivery of the request), not to be remembered
        again; None if there is none."""
        stored = self.stored(svc)
        return None if stored is None else dataclasses.replace(stored, remembered=True)


def settle(svc: Services, decide: Callable[[], Outcome], once: Once | None = None,
           request_id: str | None = None) -> Outcome:
    """Decide and commit; decide again after a lost race. The outcome to deliver.

    Any other failure propagates. If it came from the commit, the write may have
    landed (a timeout after the commit): a retry with the same id is then answered
    from the receipt, and applied if it did not land.
    """
    for _ in range(MAX_ATTEMPTS):
        try:
            outcome = decide()
        except Exception as exc:
            err = wire_error(exc)
            if err is None:
                raise
            outcome = refused(request_id, err)
        writes = list(outcome.writes)
        remembered = (once.receipt(svc, outcome)
                      if once is not None and not outcome.remembered else None)
        if remembered is not None:
            writes.append(remembered)
        if not writes:
            follow_up(svc, outcome)  # nothing to commit, but perhaps a timer to send again
            return outcome
        try:
            svc.store.transact(writes)
        except ConflictError:
            repeat = once.stored(svc) if once is not None else None
            if repeat is not None:
                return repeat  # the same request, committed meanwhile by another delivery
            logger.info("lost a race; deciding again")
            continue
        follow_up(svc, outcome)
        return outcome
    return refused(request_id, ProtocolError(
        "conflict", "the game changed under this action too often; retry"))


def follow_up(svc: Services, outcome: Outcome) -> None:
    """After the commit, before the outcome's frames are posted: arm the timers, wake
    the bots, tell the lobby. A failure here is repaired by the sweep (a timer) or by the
    watchdog timer (a bot turn); a lobby change not told is seen by the next
    subscriber's page."""
    now = svc.clock()
    hints = [*outcome.lobby, *lobby_hints(outcome.writes)]
    try:
        if hints:
            svc.lobby.publish({"hints": hints})
        if outcome.lobby_later:
            svc.lobby.later(outcome.lobby_later)
    except Exception:
        count("LobbySendFailures")
        logger.exception("lobby change not sent", extra={"hints": hints[:5]})
    for timer in outcome.timers:
        try:
            svc.timers.schedule(timer.game, timer.v, timer.deadline_ms, now)
        except Exception:
            count("TimerSendFailures")
            logger.exception("timer not sent; the sweep will apply it",
                             extra={"game": timer.game, "v": timer.v})
    for turn in outcome.bots:
        try:
            svc.bots.send(turn.game, turn.seat, turn.v)
        except Exception:
            count("BotTurnSendFailures")
            logger.exception("bot turn not sent; its watchdog timer will send it again",
                             extra={"game": turn.game, "v": turn.v})


def after_pushes(svc: Services, outcome: Outcome) -> None:
    """After the outcome's frames are posted (``delivery.deliver``): wake the tournaments
    whose game finished or whose roster changed, hand finished games to the coach. A step
    may pair the players again at once (``numbridge serve`` runs it on another thread,
    AWS in another function): sent before the posts, the next game's ``state`` could
    reach a player ahead of the ended game's last frames. A step not sent is taken by the
    sweep; a review not sent leaves its game without one. Last, the refill of the stock
    each new game of a stocked ask was dealt from: its deals (on the review function,
    the local runtime's worker) never compete with the request for the CPU before its
    frames are out. A refill not sent leaves the stock to the next deal of that
    setting (a miss is dealt inline)."""
    for tournament_id, game_id in [*outcome.steps, *tournament_games(outcome.writes)]:
        try:
            # No game: a player joined or left (``Outcome.steps``)
            svc.tournament_steps.send(tournament_id, 0, game=game_id, roster=game_id is None)
        except Exception:
            count("TournamentStepSendFailures")
            logger.exception("tournament step not sent; the sweep will take it",
                             extra={"tournament": tournament_id, "game": game_id})
    for game_id in archived(outcome.writes):
        try:
            svc.reviews.send(game_id)
        except Exception:
            count("ReviewSendFailures")
            logger.exception("review not sent; the game stays unreviewed",
                             extra={"game": game_id})
    # The stock a new game's board came from (or would have): refilled by the review
    # function, whose deals must not hold up the players' first frames.
    for setting in dict.fromkeys([*outcome.refills, *stocked(outcome.writes)]):
        try:
            svc.reviews.refill(setting)
            count("StockRefillsSent")
        except Exception:
            count("StockRefillSendFailures")
            logger.exception("stock refill not sent; the next deal of it asks again",
                             extra={"setting": setting})


def archived(writes: list[Write]) -> list[str]:
    """The games whose archive record these writes put: each just finished (every path
    that ends a game archives it, ``finish.status_writes``), so each is reviewed once."""
    return [keys.game_id_of(w.key[0]) for w in writes
            if isinstance(w, Put) and w.key[1] == keys.RECORD
            and w.key[0].startswith(keys.GAME_PREFIX)]


def tournament_games(writes: list[Write]) -> list[tuple[str, str | None]]:
    """(tournament, game) of each game of a tournament these writes finish: its archive
    record says which tournament (``Archive.put_write``); its result is counted in the
    step this triggers."""
    return [(str(w.item["tournament"]), keys.game_id_of(w.key[0])) for w in writes
            if isinstance(w, Put) and w.key[1] == keys.RECORD
            and w.key[0].startswith(keys.GAME_PREFIX) and w.item.get("tournament")]


def lobby_hints(writes: list[Write]) -> list[dict[str, str]]:
    """The lobby's games being played that these writes change: a game's ``PLAYING`` item
    put in the room's list (started, resumed), put out of it (adjourned) or deleted
    (finished). Every path that starts or ends a game writes it (``finish.status_writes``):
    found here, none is missed."""
    hints: list[dict[str, str]] = []
    for write in writes:
        if write.key[1] != keys.PLAYING or not write.key[0].startswith(keys.GAME_PREFIX):
            continue
        game_id = keys.game_id_of(write.key[0])
        listed = isinstance(write, Put) and write.item.get("gsi1pk") is not None
        if isinstance(write, Delete) or not listed:
            hints.append({"live_removed": game_id})
        else:
            hints.append({"live_added": game_id})
    return hints
