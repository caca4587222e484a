"""Quick pairing's rule (``seek``): who fits whom, and when the window widens.

Pure: seekers and the time in, a choice out. Two seekers fit when their ratings
differ by at most the window of the one who has waited longer:
``BASE_WINDOW + STEP_WINDOW`` per full ``STEP_MS`` waited, up to ``MAX_WINDOW``,
and anyone once ``ANYONE_AFTER_MS`` has passed. The longer wait decides, so a
newcomer is paired at once with a player who has waited long enough to take a
wider field (lichess's pools widen a member's tolerance with each wave missed).
Whole steps, not a slope: the window changes only at known instants, at which a
waiting seek is tried again (``retry_times``).

Seekers who come at the same instant are paired as if they had come one by one in
the order they sought (``arrival_pairs``): each with its best fit among those before
it still waiting. That is the rule above, decided the same way by every one of them
from the room as each reads it — so a crowd of equal ratings pairs first with
second, third with fourth, instead of all reaching for the same longest waiter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from numbridge.values import frozen

BASE_WINDOW: Final = 100
STEP_WINDOW: Final = 50
STEP_MS: Final = 5_000
MAX_WINDOW: Final = 600
ANYONE_AFTER_MS: Final = 60_000


@frozen
class Seeker:
    """A seek as the rule sees it."""

    seek: str
    player: str
    rating: float
    since_ms: int


def window(waited_ms: int) -> float:
    """The rating difference a seeker who has waited ``waited_ms`` accepts (``inf``:
    anyone)."""
    if waited_ms >= ANYONE_AFTER_MS:
        return float("inf")
    steps = max(0, waited_ms) // STEP_MS
    return float(min(MAX_WINDOW, BASE_WINDOW + STEP_WINDOW * steps))


def fits(a: Seeker, b: Seeker, now_ms: int) -> bool:
    """Whether two seekers may be paired now: two players, ratings within the window of
    the one who has waited longer."""
    if a.player == b.player:
        return False
    longest = now_ms - min(a.since_ms, b.since_ms)
    return abs(a.rating - b.rating) <= window(longest)


def ranked(me: Seeker, waiting: Iterable[Seeker], now_ms: int) -> list[Seeker]:
    """The waiting seekers ``me`` may be paired with now, best first: the closest rating,
    then the longest wait, then the seek id (a stable order)."""
    fitting = [w for w in waiting if w.seek != me.seek and fits(me, w, now_ms)]
    return sorted(fitting, key=lambda w: (abs(w.rating - me.rating), w.since_ms, w.seek))


def best_match(me: Seeker, waiting: Iterable[Seeker], now_ms: int) -> Seeker | None:
    """The waiting seeker ``me`` is paired with now; None if nobody fits."""
    found = ranked(me, waiting, now_ms)
    return found[0] if found else None


def arrival(seeker: Seeker) -> tuple[int, str]:
    """The order in which seekers came: when each sought, then the seek id (a stable
    order for those of one instant)."""
    return seeker.since_ms, seeker.seek


def arrival_pairs(seekers: Iterable[Seeker], now_ms: int) -> list[tuple[Seeker, Seeker]]:
    """The pairs if the seekers had come one at a time in the order they sought
    (:func:`arrival`) and each had been paired at once with its best
    fit (:func:`ranked`) among those before it still waiting: (earlier, later) each.
    Every seeker that reads the same room decides the same pairs; one that read more
    of it (later arrivals) decides the same pairs among those it shares."""
    pairs: list[tuple[Seeker, Seeker]] = []
    left: list[Seeker] = []  # waiting, in arrival order
    for came in sorted(seekers, key=arrival):
        # ``ranked``'s order, without sorting them all: most arrivals of a crowd find
        # one or two still waiting.
        fitting = [w for w in left if fits(came, w, now_ms)]
        if not fitting:
            left.append(came)
            continue
        match = min(fitting, key=lambda w: (abs(w.rating - came.rating), w.since_ms, w.seek))
        left.remove(match)
        pairs.append((match, came))
    return pairs


def partner(me: Seeker, others: Iterable[Seeker], now_ms: int) -> Seeker | None:
    """Whom ``me`` is paired with among ``others`` (the room as read) by
    :func:`arrival_pairs`; None: ``me`` waits (nobody fits, or each who fits is
    another's, earlier or closer)."""
    for earlier, later in arrival_pairs([*(o for o in others if o.seek != me.seek), me],
                                        now_ms):
        if me.seek == earlier.seek:
            return later
        if me.seek == later.seek:
            return earlier
    return None


def pair_all(waiting: Sequence[Seeker], now_ms: int) -> list[tuple[Seeker, Seeker]]:
    """Pairs among seekers who all wait (a retry as a window widens): the longest
    waiting first, each with its best match among those still unpaired."""
    left = sorted(waiting, key=lambda w: (w.since_ms, w.seek))
    pairs: list[tuple[Seeker, Seeker]] = []
    while left:
        first = left.pop(0)
        match = best_match(first, left, now_ms)
        if match is not None:
            left.remove(match)
            pairs.append((first, match))
    return pairs


def retry_times(since_ms: int) -> list[int]:
    """When a seek made at ``since_ms`` should be tried again: each instant its window
    widens, up to the one after which anyone fits."""
    steps = (MAX_WINDOW - BASE_WINDOW) // STEP_WINDOW
    widened = [since_ms + k * STEP_MS for k in range(1, steps + 1)
               if k * STEP_MS < ANYONE_AFTER_MS]
    return [*widened, since_ms + ANYONE_AFTER_MS]
