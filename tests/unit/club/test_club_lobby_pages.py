"""The lobby's page scoping (``club.lobby_pages``): which subscribers a change of a list
reaches, and what enters and leaves each one's page, checked against the pages
computed whole for every subscriber; the online count's step."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.club.lobby_pages import (
    PAGE,
    SEEKS_EVERY_MS,
    Circle,
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


def test_the_seekers_counts_are_pushed_when_moved_at_most_every_few_seconds() -> None:
    """Catches: a frame to every subscriber for each seek stored and each paired in a busy
    club (a count moving every second), a quiet room's change held back, or a count that
    came back to what was pushed pushed again."""
    every = SEEKS_EVERY_MS
    assert seeks_due({}, -10**12, {"blitz": 1, "bridge": 0}, 0) == ({"blitz": 1}, None)
    # a second change soon after: nothing now, a look when the last push is `every` old
    assert seeks_due({"blitz": 1}, 1_000, {"blitz": 0}, 3_000) == ({}, 1_000 + every)
    assert seeks_due({"blitz": 1}, 1_000, {"blitz": 0}, 1_000 + every) == ({"blitz": 0}, None)
    # back to what was pushed: nothing to push, nothing to look at again
    assert seeks_due({"blitz": 1}, 1_000, {"blitz": 1, "study": 0}, 3_000) == ({}, None)
