"""The lobby's page scoping (``club.lobby_pages``): which subscribers a change of a list
reaches, and what enters and leaves each one's page, checked against the pages
computed whole for every subscriber; the online count's step."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.club.lobby_pages import (
    PAGE,
    SEEKS_BURST,
    SEEKS_EVERY_MS,
    Circle,
    SeeksDue,
    online_moved,
    online_step,
    scoped,
    seeks_due,
    shown,
    start_of,
)


def brute(before: Circle, after: Circle, starts: dict[str, int],
          size: int) -> dict[str, tuple[set[str], set[str]]]:
    out = {}
    for key, start in starts.items():
        old, new = set(before.page(start, size)), set(after.page(start, size))
        if old != new:
            out[key] = (new - old, old - new)
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 8), st.integers(0, 8),
       st.integers(0, 40), st.integers(1, 12))
def test_the_subscribers_told_are_exactly_those_whose_page_moved(
        seed: int, listed: int, added: int, removed: int, subscribers: int,
        size: int) -> None:
    """Catches: a subscriber whose page changed and who is not told (a wrong arc of
    holders, the wrap past the top of the circle, a list shorter than a page), or one
    told of a change outside its page."""
    rng = random.Random(seed)
    items = [f"p{rng.randrange(10**9)}" for _ in range(listed)]
    gone = set(rng.sample(items, min(removed, len(items))))
    new = [f"n{rng.randrange(10**9)}" for _ in range(added)]
    before = Circle.of(items)
    after = Circle.of([i for i in items if i not in gone] + new)
    starts = {f"s{n}": start_of(f"player{rng.randrange(10**9)}") for n in range(subscribers)}
    moved = scoped(before, after, gone | set(new), starts, size)
    expected = brute(before, after, starts, size)
    assert {k: (set(m.entered), set(m.left)) for k, m in moved.items()} == expected
    for moves in moved.values():  # entered in page order, each item once
        assert len(set(moves.entered)) == len(moves.entered)


def test_a_page_is_bounded_and_players_see_different_parts_of_a_long_list() -> None:
    """Catches: every subscriber shown the same first page (where the whole club would
    accept, so every acceptance would be pushed to everyone), or a page longer than
    PAGE."""
    circle = Circle.of(f"p{n}" for n in range(600))
    pages = [circle.page(start_of(f"player{n}")) for n in range(200)]
    assert all(len(p) == PAGE for p in pages)
    shown = {i for p in pages for i in p}
    assert len(shown) > 400  # spread over most of the list
    assert circle.page(start_of("ana")) == circle.page(start_of("ana"))
    short = Circle.of(["a", "b"])
    assert sorted(short.page(start_of("ana"))) == ["a", "b"]


def test_a_change_outside_a_page_moves_nothing_and_one_inside_slides_the_next_in() -> None:
    """Catches: a subscriber told of a proposal it is not shown, or told of one that left
    its page without the one that takes its place."""
    items = [f"p{n}" for n in range(100)]
    before = Circle.of(items)
    start = start_of("ana")
    page = before.page(start)
    outside = next(i for i in items if i not in page)
    after = Circle.of(i for i in items if i != outside)
    assert scoped(before, after, {outside}, {"ana": start}) == {}
    inside = page[3]
    after = Circle.of(i for i in items if i != inside)
    [(who, moves)] = scoped(before, after, {inside}, {"ana": start}).items()
    assert who == "ana"
    assert moves.left == (inside,)
    [slid] = moves.entered
    assert slid not in page and after.page(start) == [i for i in page if i != inside] + [slid]


def test_the_online_count_is_pushed_on_one_below_a_hundred_and_a_hundredth_above() -> None:
    """Catches: a push to every subscriber for each ±1 in a club of thousands, or a small
    club's count left stale."""
    assert online_step(5) == 1 and online_step(99) == 1
    assert online_step(10_000) == 100 and online_step(1_000) == 10
    assert online_moved(40, 41) and online_moved(40, 39)
    assert not online_moved(40, 40)
    assert not online_moved(10_000, 10_099) and not online_moved(10_000, 9_901)
    assert online_moved(10_000, 10_100) and online_moved(10_000, 9_900)
    assert online_moved(-1, 0)  # nothing pushed yet


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 8), st.integers(0, 8),
       st.integers(1, 30), st.integers(1, 12))
def test_a_players_own_items_are_on_their_page_and_their_changes_reach_them(
        seed: int, listed: int, added: int, removed: int, subscribers: int,
        size: int) -> None:
    """Catches: a player's own proposal off their circle page whose removal (accepted by
    another, lapsed, withdrawn on another device) is told only to the subscribers whose
    circle page holds it — the owner's page keeps it until their next subscribe — or an
    own proposal told as pushed off the page by a newcomer."""
    rng = random.Random(seed)
    names = [f"player{n}" for n in range(max(1, subscribers // 2))]  # some on two devices
    items = [f"p{rng.randrange(10**9)}" for _ in range(listed)]
    gone = set(rng.sample(items, min(removed, len(items))))
    new = [f"n{rng.randrange(10**9)}" for _ in range(added)]
    owners = {i: rng.choice(names) for i in [*items, *new]}
    before = Circle.of(items)
    after = Circle.of([i for i in items if i not in gone] + new)
    players = {f"s{n}": rng.choice(names) for n in range(subscribers)}
    starts = {key: start_of(player) for key, player in players.items()}
    moved = scoped(before, after, gone | set(new), starts, size, owners=owners,
                   players=players)
    expected = {}
    for key, player in players.items():
        own = [i for i, by in owners.items() if by == player]
        old = set(shown(before, starts[key], own, size))
        now = set(shown(after, starts[key], own, size))
        if old != now:
            expected[key] = (now - old, old - now)
    assert {k: (set(m.entered), set(m.left)) for k, m in moved.items()} == expected
    for key, player in players.items():  # every own change reaches every device
        mine = {i for i in gone | set(new) if owners[i] == player}
        told = set(moved[key].entered) | set(moved[key].left) if key in moved else set()
        assert mine <= told


def test_an_own_proposal_off_the_circle_page_leaves_the_owners_page_when_it_ends() -> None:
    """Catches: the owner of a proposal that sits outside their circle page not told it
    was accepted or lapsed (told only to those whose circle page holds it), and an own
    proposal pushed past the page's end by a newcomer told as gone."""
    items = [f"p{n}" for n in range(100)]
    start = start_of("ana")
    before = Circle.of(items)
    page = before.page(start)
    mine = next(i for i in items if i not in page)
    after = Circle.of(i for i in items if i != mine)
    owners = {mine: "ana"}
    assert shown(before, start, [mine]) == [*page, mine]
    assert scoped(before, after, {mine}, {"c1": start}) == {}  # without owners: not told
    told = scoped(before, after, {mine}, {"c1": start, "c2": start}, owners=owners,
                  players={"c1": "ana", "c2": "ana"})
    assert {k: (m.entered, m.left) for k, m in told.items()} == {
        "c1": ((), (mine,)), "c2": ((), (mine,))}
    # ana's own proposal last on her circle page: a newcomer before it pushes it off the
    # circle page, not off hers
    last = page[-1]
    newcomer = next(f"x{n}" for n in range(10_000)
                    if Circle.of([*items, f"x{n}"]).page(start)[:-1] == page[:-1]
                    and f"x{n}" in Circle.of([*items, f"x{n}"]).page(start))
    grown = Circle.of([*items, newcomer])
    [(_, moves)] = scoped(before, grown, {newcomer}, {"c1": start},
                            owners={last: "ana"}, players={"c1": "ana"}).items()
    assert moves.entered == (newcomer,) and moves.left == ()


def test_the_seekers_counts_are_pushed_when_moved_at_once_while_the_budget_lasts() -> None:
    """Catches: a quiet club's second change held back 10 s (the rule before the budget),
    a busy club pushed on every change once its budget is spent, or a count that came
    back to what was pushed pushed again."""
    every, burst = SEEKS_EVERY_MS, SEEKS_BURST
    first = seeks_due({}, 0, {"blitz": 1, "bridge": 0}, 0)
    assert (first.push, first.full_ms, first.look_ms) == ({"blitz": 1}, every, None)
    # a second change 2 s later: at once (the budget holds burst pushes)
    second = seeks_due({"blitz": 1}, first.full_ms, {"blitz": 0}, 2_000)
    assert (second.push, second.full_ms) == ({"blitz": 0}, 2 * every)
    # burst pushes a second apart spend it: the next waits for one push to come back
    last: dict[str, int] = {}
    full = 0
    for n in range(burst):
        due = seeks_due(last, full, {"blitz": n + 1}, n * 1_000)
        assert due.push == {"blitz": n + 1}
        last, full = {"blitz": n + 1}, due.full_ms
    held = seeks_due(last, full, {"blitz": 0}, burst * 1_000)
    assert held.push == {} and held.full_ms == full == burst * every
    assert held.look_ms == every  # one push back, every after the first
    later = seeks_due(last, full, {"blitz": 0}, every)
    assert later.push == {"blitz": 0} and later.full_ms == (burst + 1) * every
    # back to what was pushed: nothing to push, nothing to look at again
    assert seeks_due({"blitz": 1}, full, {"blitz": 1, "study": 0}, 3_000) == SeeksDue({}, full)


Change = tuple[int, str, int]  # an instant, a room, its count from then on


@dataclass
class Driven:
    pushes: list[int]  # the instants of the pushes
    told: list[tuple[int, bool, int]]  # of each change: its instant, pushed then, the
    # pushes before it
    last: dict[str, int]  # the counts last pushed
    counts: dict[str, int]  # the counts at the end


def drive(changes: list[Change], burst: int, every: int) -> Driven:
    """The fan-out's use of ``seeks_due``: each change looked at in its own batch (its
    room), a look at every room scheduled once when the budget is spent (the message
    still comes after a push has cleared ``due``), until no look is left."""
    out = Driven([], [], {}, {})
    full = due = 0
    looks: list[int] = []
    pending = sorted(changes, key=lambda c: c[0])
    while pending or looks:
        change = None
        if looks and (not pending or looks[0] <= pending[0][0]):
            now = looks.pop(0)
            looked = dict(out.counts)
        else:
            now, change, n = pending.pop(0)
            out.counts[change] = n
            looked = {change: n}
        before = len(out.pushes)
        decided = seeks_due(out.last, full, looked, now, burst=burst, every_ms=every)
        if decided.push:
            out.last.update(decided.push)
            full, due = decided.full_ms, 0
            out.pushes.append(now)
        elif decided.look_ms is not None and due < decided.look_ms:
            due = decided.look_ms
            looks = sorted([*looks, due])
        if change is not None:
            out.told.append((now, out.last.get(change, 0) == out.counts[change], before))
    return out


changes_strategy = st.lists(
    st.tuples(st.integers(0, 25_000), st.sampled_from(["blitz", "bridge", "study"]),
              st.integers(0, 3)), max_size=60)


def instants(gaps: list[Change]) -> list[Change]:
    """Gaps between changes to the changes' instants."""
    out: list[Change] = []
    now = 0
    for gap, room, n in gaps:
        now += gap
        out.append((now, room, n))
    return out


@settings(max_examples=300, deadline=None)
@given(changes_strategy, st.integers(1, 8), st.sampled_from([1_000, 10_000]))
def test_never_more_pushes_than_the_budget_and_its_refill_in_any_span(
        gaps: list[Change], burst: int, every: int) -> None:
    """Catches: a budget that refills faster than one push a period, or holds more than
    ``burst`` (a busy club pushed on every change, every subscriber posted each)."""
    pushes = drive(instants(gaps), burst, every).pushes
    for i, first in enumerate(pushes):
        for j in range(i, len(pushes)):
            assert (j - i + 1) * every <= burst * every + (pushes[j] - first)


@settings(max_examples=300, deadline=None)
@given(changes_strategy, st.integers(1, 8), st.sampled_from([1_000, 10_000]))
def test_a_change_in_a_quiet_club_is_pushed_in_its_own_batch(
        gaps: list[Change], burst: int, every: int) -> None:
    """Catches: a change held back though fewer than ``burst`` pushes went in the last
    ``burst`` periods (a club of 20 shown a seek count up to 10 s late)."""
    driven = drive(instants(gaps), burst, every)
    for now, pushed, before in driven.told:
        recent = sum(1 for p in driven.pushes[:before] if p > now - burst * every)
        if recent < burst:
            assert pushed, (now, driven.pushes)


@settings(max_examples=300, deadline=None)
@given(changes_strategy, st.integers(1, 8), st.sampled_from([1_000, 10_000]))
def test_a_busy_clubs_last_change_is_pushed_within_a_period(
        gaps: list[Change], burst: int, every: int) -> None:
    """Catches: a change held back for good when the budget is spent (no look scheduled,
    or one scheduled too late), or the figures left disagreeing with the counts."""
    changes = instants(gaps)
    driven = drive(changes, burst, every)
    assert {room: driven.last.get(room, 0) for room in driven.counts} == driven.counts
    if changes:
        assert all(p <= changes[-1][0] + every for p in driven.pushes)


def test_a_busy_club_is_pushed_every_period_once_the_budget_is_spent() -> None:
    """Catches: a budget that does not run out (a club whose count moves every second
    pushed each second to every subscriber), or one that never refills (the count frozen
    after the burst)."""
    every, burst = SEEKS_EVERY_MS, SEEKS_BURST
    changes = [(t * 1_000, "blitz", t % 2) for t in range(1, 601)]  # ten minutes
    pushes = drive(changes, burst, every).pushes
    assert pushes[:burst] == [t * 1_000 for t in range(1, burst + 1)]
    paced = pushes[burst:]
    assert all(b - a >= every for a, b in pairwise(paced))
    assert 600_000 // every - 1 <= len(paced) <= 600_000 // every
