"""A finished game's review: read its archive record, let the coach weigh every turn,
keep the review beside the record (``record`` then carries it; PROTOCOL.md, Review).

Driven by the review queue, one message per finished game (``{"game": GID}``), sent
after the commit that archived it (``commit.after_pushes``). Idempotent: a record already
reviewed is left as it is, so a redelivered message costs one read.

The same queue carries the solver's other background work: ``{"stock": SETTING}``, sent
after each game dealt for a stocked ask (``store.board_stock``), deals a board for each
free slot of that setting's stock (:func:`refill_stock`). Idempotent too: a full stock
costs one read.
"""

from __future__ import annotations

import json
import time
from typing import Any

from numbridge import coach
from numbridge.puzzles import DealError, aims
from numbridge.puzzles.deal import check_settings, deal_board
from numbridge.rules.seats import GRADES
from numbridge.service.context import Services
from numbridge.service.observability import MetricUnit, count, logger, measure
from numbridge.service.stock import board_of
from numbridge.store.keys import stock_setting_fields

# What one invocation may spend dealing stocked boards: the function's timeout is 10 s
# (template.yaml); a board is ~10 ms typical, but a deal may run to its budget
# (``Services.deal_budget_s``). Settings left when it is spent are dropped, not retried:
# the next deal of each asks again.
REFILL_BUDGET_S = 5.0


def review_game(svc: Services, game_id: str) -> bool:
    """Review one finished game; False if there is nothing to do (no record, or one
    reviewed already). Raises what the store raises (the queue delivers it again)."""
    record = svc.archive.get(game_id)
    if record is None:
        logger.warning("review of a game with no archive record", extra={"game": game_id})
        count("ReviewsOfNoRecord")
        return False
    if "review" in record:
        count("ReviewsRepeated")
        return False
    try:
        review = coach.review(coach.story_of(record))
    except ValueError:
        # A record no game could leave (a contradiction in its board): no retry helps.
        logger.exception("a record the coach cannot read", extra={"game": game_id})
        count("ReviewsUnreadable")
        return False
    stored = svc.archive.put_review(game_id, review)
    count("Reviews" if stored else "ReviewsRepeated")
    return stored


class BadSetting(ValueError):
    """A stock message whose setting no deal may have (hostile, or from another version)."""


def stock_ask(setting: str) -> tuple[int, str, int, tuple[str, ...]]:
    """(size, blocks, clues, grades) of a stock setting, checked as a deal checks its
    settings, and stocked (an ask the dealer aims at); :class:`BadSetting` otherwise."""
    try:
        size, blocks, clues, grades = stock_setting_fields(setting)
        check_settings(size, blocks, clues)
    except (ValueError, DealError) as exc:
        raise BadSetting(str(exc)) from None
    if not all(g in GRADES for g in grades):
        raise BadSetting(f"grades must be among {', '.join(GRADES)}: {setting!r}")
    if not aims(grades):
        raise BadSetting(f"not a stocked ask: {setting!r}")
    return size, blocks, clues, grades


def refill_stock(svc: Services, setting: str, deadline: float) -> int:
    """Deal a board for each free slot of ``setting``'s stock (inline, ``svc.rng``, the
    deal budget, none past ``deadline`` on ``time.monotonic``) and stock it; how many were
    stocked. :class:`BadSetting` for a setting no deal may have; :class:`DealError` when
    the budget ran out. Raises what the store raises (the queue delivers it again)."""
    size, blocks, clues, grades = stock_ask(setting)
    stocked = 0
    for slot in svc.board_stock.missing(setting):
        budget = min(svc.deal_budget_s, deadline - time.monotonic())
        if budget <= 0:
            raise DealError(f"no time left to stock {setting}")
        started = time.thread_time()  # this worker's own (numbridge serve has others)
        dealt = deal_board(size, blocks, clues, svc.rng, budget_s=budget, grades=grades)
        measure("StockDealCpu", (time.thread_time() - started) * 1000,
                MetricUnit.Milliseconds)
        if svc.board_stock.put(setting, slot, board_of(dealt), now_s=svc.clock() // 1000):
            stocked += 1
        else:
            count("StockSlotsFilledMeanwhile")  # another refill of the same setting
    if stocked:
        count("StockBoards", stocked)
    return stocked


def on_review_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """SQS batch of finished games (``{"game"}``) and stocks to refill (``{"stock"}``).
    A review or refill that fails is reported back for SQS to deliver again (its
    dead-letter queue ends a poisoned one); unreadable messages and bad settings are
    dropped, and so is a refill the deal's budget could not meet (the next deal of its
    setting asks again). A setting twice in a batch is refilled once."""
    failures = []
    deadline = time.monotonic() + REFILL_BUDGET_S
    refilled: set[str] = set()
    for message in event.get("Records", []):
        body = _body(message)
        try:
            if body is None:
                continue
            if "stock" in body:
                setting = body["stock"]
                if setting not in refilled:
                    refilled.add(setting)
                    _refill(svc, setting, deadline)
            else:
                review_game(svc, body["game"])
        except Exception:
            stock = body is not None and "stock" in body
            logger.exception("stock refill failed" if stock else "review failed",
                             extra={"body": body})
            count("StockRefillFailures" if stock else "ReviewFailures")
            failures.append({"itemIdentifier": message["messageId"]})
    return {"batchItemFailures": failures}


def _refill(svc: Services, setting: str, deadline: float) -> None:
    try:
        refill_stock(svc, setting, deadline)
    except BadSetting:
        logger.error("stock message dropped: a setting no deal may have",
                     extra={"setting": setting[:200]})
        count("StockMessagesDropped")
    except DealError:
        logger.warning("stock not refilled within its budget", extra={"setting": setting})
        count("StockRefillsCut")


def _body(message: Any) -> dict[str, str] | None:
    """``{"game": GID}`` or ``{"stock": SETTING}``; ``None`` (logged, counted) for a body
    of any other shape."""
    try:
        body = json.loads(message["body"])
        for kind in ("game", "stock"):
            value = body.get(kind) if isinstance(body, dict) else None
            if isinstance(value, str) and value:
                return {kind: value}
    except (KeyError, TypeError, ValueError):
        pass
    logger.error("unreadable review message")
    count("ReviewMessagesUnreadable")
    return None
