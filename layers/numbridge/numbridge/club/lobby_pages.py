"""Which part of the lobby each subscriber is shown, and so which changes it is pushed
(docs/lobby-push.md, "Page-scoped pushes"). Pure: ids, names and counts in, decisions out.

A subscriber's lobby shows a bounded first page of each list (:data:`PAGE` open
proposals, :data:`PAGE` live games), not the whole club. Every item sits on a circle at a
hash of its id, every player at a hash of their name, and a player's page of a list is
the :data:`PAGE` items that follow their point on the circle (the whole list when it is
shorter). So

- a change outside a subscriber's page is not sent to it: a club of 10,000 online, with
  600 open proposals and 2,750 games being played, pushes each subscriber only the
  changes among its 20 + 20 — about as many a minute as a club of 100 pushes (where the
  page is the whole list);
- subscribers are shown different pages, so players accepting proposals from their pages
  take them from all over the list: churn into a page grows with the page, not with the
  club (one shared first page would be where the whole club accepts, and every
  subscriber would be told of every acceptance);
- what slides into a page when an item leaves it (or what a newcomer pushes out of it)
  is decided here too, so the client keeps a consistent page from pushes alone;
- a player's page is the same on every connection and after every reconnect, and holds
  their own proposals wherever the circle puts them: every change to one of those reaches
  each of the player's subscribed connections (:func:`scoped`'s ``owners``).

The online count is pushed when it has moved by a step relative to what was last pushed
(:func:`online_moved`), not on every ±1. The rooms' seekers waiting are pushed when a
room's count differs from the one last pushed, at once while the club's budget of such
pushes lasts (:data:`SEEKS_BURST`, refilled at one per :data:`SEEKS_EVERY_MS`), at most
every :data:`SEEKS_EVERY_MS` once it is spent (:func:`seeks_due`): in a busy club quick
pairing moves a count every second.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# Items of each list on a subscriber's page: a phone's screen or two. Small enough that a
# page's churn in a club of 10,000 online is about what a club of 100 shows in full.
PAGE = 20
# The online count is pushed when it moved by one below ONLINE_EXACT, by a hundredth above.
ONLINE_EXACT = 100
# The rooms' seekers' counts (docs/lobby-push.md, "The seekers' counts"): a token bucket
# of SEEKS_BURST pushes, refilled at one per SEEKS_EVERY_MS. A quiet club's changes go in
# the next batch; a busy one (quick pairing in a club of 10,000 online moves a count
# every second, and each push posts every subscriber) spends the budget in seconds and
# is then pushed at most every SEEKS_EVERY_MS, a figure at most that old.
SEEKS_EVERY_MS = 10_000
SEEKS_BURST = 6


def point(key: str) -> int:
    """Where ``key`` sits on the circle: 64 bits of BLAKE2b (the same everywhere, unlike
    Python's salted ``hash``)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def start_of(player: str) -> int:
    """Where a player's pages begin (the same on each of their connections)."""
    return point(f"player:{player}")


@dataclass(frozen=True)
class Circle:
    """A list's items in the order of their points."""

    ids: tuple[str, ...]
    points: tuple[int, ...]

    @classmethod
    def of(cls, ids: Iterable[str]) -> Circle:
        placed = sorted((point(i), i) for i in set(ids))
        return cls(tuple(i for _, i in placed), tuple(p for p, _ in placed))

    def __len__(self) -> int:
        return len(self.ids)

    def page(self, start: int, size: int = PAGE) -> list[str]:
        """The ``size`` items from ``start`` on, round the circle (all when fewer)."""
        n = len(self.ids)
        if n <= size:
            return list(self.ids)
        first = bisect_left(self.points, start)
        return [self.ids[(first + k) % n] for k in range(size)]

    def holders(self, item: str, starts: Sequence[int], size: int = PAGE) -> range | None:
        """Of ``starts`` (sorted), the indexes of those whose page holds ``item``: one
        arc of the circle, so one or two runs of the sorted starts (``None``: not here).
        A page from ``s`` begins at the first item whose point is ≥ ``s``, so it holds
        item ``k`` when ``s`` lies in (point of item ``k - size``, point of item ``k``]."""
        n = len(self.ids)
        at = point(item)
        k = bisect_left(self.points, at)
        if k == n or self.ids[k] != item:
            return None
        if n <= size:
            return range(len(starts))
        low = self.points[(k - size) % n]
        high_end = bisect_right(starts, at)
        low_end = bisect_right(starts, low)
        if k - size >= 0:
            return range(low_end, high_end)
        # the arc wraps past the top: (low, top] and [0, at]; as one range over the
        # starts laid out twice (callers take indexes modulo len(starts))
        return range(low_end, len(starts) + high_end)


@dataclass(frozen=True)
class Moves:
    """What one subscriber's page of one list gains and loses in a batch."""

    entered: tuple[str, ...]
    left: tuple[str, ...]


def shown(circle: Circle, start: int, own: Iterable[str] = (), size: int = PAGE) -> list[str]:
    """A subscriber's page of the list: the ``size`` items from ``start`` on, then those of
    ``own`` (its player's own items) that are in the list and not among them, in circle
    order. A player's own proposals are on their page wherever the circle puts them."""
    page = circle.page(start, size)
    held = set(page)
    mine = {i for i in own if i not in held}
    return page + [i for i in circle.ids if i in mine] if mine else page


def scoped(before: Circle, after: Circle, changed: Iterable[str],
           starts: Mapping[str, int], size: int = PAGE, *,
           owners: Mapping[str, str] | None = None,
           players: Mapping[str, str] | None = None) -> dict[str, Moves]:
    """For each subscriber (key → start) whose page of the list moved from ``before`` to
    ``after``: the items that entered it (in page order: the new ones and those that slid
    in) and those that left it (gone from the club, or pushed past its end). ``changed``
    names the items added or removed in the batch; only pages holding one of them before
    or after can differ, so only those are compared (a page moves only when an item
    comes into it or goes out of it).

    With ``owners`` (item → its player) and ``players`` (subscriber key → its player), a
    subscriber's page holds its player's own items besides (:func:`shown`): an own item
    changed reaches every subscriber of that player however far round the circle it
    sits, and one pushed past the end of the circle's page stays on it."""
    keys = sorted(starts, key=lambda key: (starts[key], key))
    ordered = [starts[key] for key in keys]
    touched: set[int] = set()
    for item in set(changed):
        for circle in (before, after):
            found = circle.holders(item, ordered, size)
            if found is not None:
                touched.update(i % len(keys) for i in found)
    owned: dict[str, set[str]] = {}
    if owners is not None and players is not None:
        for item, owner in owners.items():
            owned.setdefault(owner, set()).add(item)
        changed_owners = {owners[i] for i in set(changed) if i in owners}
        touched.update(index for index, key in enumerate(keys)
                       if players.get(key) in changed_owners)
    moved: dict[str, Moves] = {}
    for index in sorted(touched):
        key = keys[index]
        player = None if players is None else players.get(key)
        own = set() if player is None else owned.get(player, set())
        old = shown(before, starts[key], own, size)
        new = shown(after, starts[key], own, size)
        was, now = set(old), set(new)
        entered = tuple(i for i in new if i not in was)
        left = tuple(i for i in old if i not in now)
        if entered or left:
            moved[key] = Moves(entered, left)
    return moved


def online_step(last: int) -> int:
    """How far the online count moves before it is pushed again: one player in a small
    club, a hundredth of it above :data:`ONLINE_EXACT` (10,000 online: a hundred)."""
    return 1 if last < ONLINE_EXACT else max(1, last // 100)


def online_moved(last: int, now: int) -> bool:
    """Whether the count now is worth a push, against the count last pushed."""
    return abs(now - last) >= online_step(last)


@dataclass(frozen=True)
class SeeksDue:
    """What :func:`seeks_due` decided: the rooms' counts to push now (none: nothing now),
    the budget after it (``full_ms``: the instant it is whole again), and when nothing
    could go now for the budget spent, the instant one push is back (``look_ms``)."""

    push: dict[str, int]
    full_ms: int
    look_ms: int | None = None


def seeks_due(last: Mapping[str, int], full_ms: int, counts: Mapping[str, int],
              now_ms: int, *, burst: int = SEEKS_BURST,
              every_ms: int = SEEKS_EVERY_MS) -> SeeksDue:
    """What to push of the rooms' seekers' ``counts`` now, against those ``last`` pushed:
    the rooms whose count differs (a room never pushed was told none: 0), when the budget
    holds a push; else nothing now, and the instant to look again.

    The budget is a token bucket of ``burst`` pushes refilled at one per ``every_ms``,
    kept as one instant: ``full_ms``, when it is whole again (any instant past: whole; a
    push moves it ``every_ms`` on from the later of it and now). It holds a push while
    ``full_ms`` is at most ``(burst - 1) * every_ms`` ahead. So in any span of ``t`` ms
    at most ``burst + t / every_ms`` pushes go; a change that comes after fewer than
    ``burst`` pushes in the last ``burst * every_ms`` goes at once; and with the budget
    spent, one push is back within ``every_ms`` of the last. A count that went back to
    what was pushed meanwhile is not pushed at all."""
    moved = {room: n for room, n in counts.items() if last.get(room, 0) != n}
    if not moved:
        return SeeksDue({}, full_ms)
    opens = full_ms - (burst - 1) * every_ms  # the instant the budget holds a push
    if now_ms < opens:
        return SeeksDue({}, full_ms, opens)
    return SeeksDue(moved, max(full_ms, now_ms) + every_ms)
