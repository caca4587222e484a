"""Difficulty: a room that offers grades deals only those, and a proposal may ask for one
of them (docs/protocol.md, `propose`'s `grade`). Through the handlers, on both stores;
every board's grade checked with the coach on the dealt givens, not taken from the view."""

from __future__ import annotations

import dataclasses

import pytest
from harness import World
from numbridge.club.rooms_config import load_rooms, parse_rooms_yaml
from numbridge.coach import grade
from numbridge.service import context as ctx
from testkit.graded_rooms import GRADED_ROOM

GRADED = "rooms:\n" + GRADED_ROOM + """\
  - id: plain
    title: Plain
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 12}, take_price: 2}
    move_ms: 30000
    game_ms: null
    highlighting: true
    blocks: [regular]
"""


@pytest.fixture
def graded(world: World) -> World:
    world.svc = dataclasses.replace(world.svc, rooms=parse_rooms_yaml(GRADED, "(test)"))
    ctx.install(world.svc)
    return world


def _dealt(world: World, **choices: object) -> dict[str, object]:
    ana, bob = world.join("ana"), world.join("bob")
    made = ana.ask("propose", room="graded", **choices)
    assert made["type"] == "proposal", made
    assert bob.ask("accept", proposal=made["proposal"]["id"])["type"] == "ack"
    [view] = [f["view"] for f in bob.frames if f["type"] == "state"]
    return dict(view)


def test_a_proposal_asking_for_a_grade_gets_a_board_of_that_grade(graded: World) -> None:
    """Catches the asked grade lost between the proposal and the dealer (stored without
    it, or the deal not told): beyond is a fifth of this room's boards, so a deal that
    ignored the ask would rarely meet it."""
    view = _dealt(graded, grade="beyond")
    assert grade(str(view["blocks"]), str(view["digits"])) == "beyond"
    assert view["grade"] == "beyond"


def test_the_asked_grade_is_shown_with_the_proposal(graded: World) -> None:
    """Catches a proposal entry without the grade it asked for (the lobby shows it)."""
    ana, bob = graded.join("ana"), graded.join("bob")
    made = ana.ask("propose", room="graded", grade="locked_candidates")["proposal"]
    assert made["grade"] == "locked_candidates"
    [listed] = bob.ask("proposals", room="graded")["proposals"]
    assert listed["grade"] == "locked_candidates"
    rooms = {r["id"]: r for r in bob.ask("rooms")["rooms"]}
    assert rooms["graded"]["grades"] == ["hidden_single", "beyond"]
    assert rooms["plain"]["grades"] is None


def test_a_room_with_grades_deals_only_those(graded: World) -> None:
    """Catches the room's range applied only when a proposal asks: naked singles are a
    few of this clue count's boards, and none may come here."""
    view = _dealt(graded, clues=30)
    assert grade(str(view["blocks"]), str(view["digits"])) in (
        "hidden_single", "locked_candidates", "pairs", "beyond")


@pytest.mark.parametrize(("room", "asked", "code"), [
    ("graded", "naked_single", "illegal"),   # on the ladder, below the room's range
    ("graded", "guess", "illegal"),          # above it
    ("plain", "naked_single", "illegal"),    # a room that offers no choice
    ("graded", "hard", "malformed"),         # no grade at all
    ("graded", 3, "malformed"),
])
def test_a_grade_the_room_does_not_offer_is_refused(graded: World, room: str, asked: object,
                                                     code: str) -> None:
    """Catches a grade outside the room's range dealt anyway (or the deal run until its
    budget is spent and answered as an internal error)."""
    ana = graded.join("ana")
    answer = ana.ask("propose", room=room, grade=asked)
    assert (answer["type"], answer["code"]) == ("error", code), answer
    assert ana.ask("proposals")["proposals"] == []


def test_the_games_options_keep_the_asked_grade(graded: World) -> None:
    """Catches the grade kept by the proposal only: the game's stored options carry it,
    so a game dealt again from them (a rematch) meets it too."""
    from players import current

    ana, bob = graded.join("ana"), graded.join("bob")
    made = ana.ask("propose", room="graded", grade="beyond")["proposal"]
    assert bob.ask("accept", proposal=made["id"])["type"] == "ack"
    [state] = [f for f in bob.frames if f["type"] == "state"]
    assert current(graded, str(state["game"])).options.grades == ("beyond", "beyond")


def test_the_packaged_rooms_deal_any_grade() -> None:
    """Catches a default room narrowed by accident: the shipped rooms keep dealing as
    they did before rooms had grades."""
    assert [room.grades for room in load_rooms()] == [None] * len(load_rooms())


def test_a_game_in_play_is_listed_with_its_boards_grade(graded: World) -> None:
    """Catches the live list (its page, and the change pushed to the lobby's subscribers)
    without the grade, or with another board's."""
    wes = graded.join("wes")
    assert wes.ask("subscribe", topic="lobby")["type"] == "lobby"
    graded.deliver_lobby()
    wes.new()
    view = _dealt(graded, grade="pairs", clues=24)
    graded.deliver_lobby()
    pushed = [c for f in wes.new() if f["type"] == "changes" for c in f["changes"]
              if c["kind"] == "live_added"]
    assert [c["game"]["grade"] for c in pushed] == ["pairs"]
    [listed] = wes.ask("live", room="graded")["games"]
    assert listed["grade"] == grade(str(view["blocks"]), str(view["digits"])) == "pairs"
