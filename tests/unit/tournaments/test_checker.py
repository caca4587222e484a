"""The checker itself (checker.py): rounds broken on purpose must be reported, or the
property tests that rely on it would prove nothing."""

from __future__ import annotations

from dataclasses import replace

from checker import check_swiss_round
from numbridge.tournaments.results import Played, Round
from numbridge.tournaments.swiss import Entrant


def e(name: str, rating: int = 1500, *games: tuple[str, str, str], byes: int = 0) -> Entrant:
    return Entrant(name, rating, tuple(Played(o, s, r) for o, s, r in games),  # type: ignore[arg-type]
                   byes)


FOUR = [e("a", 1900), e("b", 1800), e("c", 1700), e("d", 1600)]


def test_a_good_first_round_passes() -> None:
    """Catches a checker that reports a fine round (1 v 3, 4 v 2 in a field of four)."""
    assert check_swiss_round(FOUR, Round((("a", "c"), ("d", "b"))), 1) == []


def test_missing_doubled_and_strangers() -> None:
    """Catches a round that leaves a player out, pairs one twice or names a stranger."""
    assert check_swiss_round(FOUR, Round((("a", "c"), ("a", "b"))), 1)
    assert check_swiss_round(FOUR, Round((("a", "c"),)), 1)
    assert check_swiss_round(FOUR, Round((("a", "c"), ("d", "x"))), 1)
    assert check_swiss_round(FOUR, Round((("a", "c"),), bye="b"), 1)  # even: no bye


def test_a_rematch() -> None:
    """Catches two players meeting again."""
    field = [e("a", 1900, ("c", "blue", "win")), e("b", 1800, ("d", "red", "win")),
             e("c", 1700, ("a", "red", "loss")), e("d", 1600, ("b", "blue", "loss"))]
    problems = check_swiss_round(field, Round((("c", "a"), ("b", "d"))), 2)
    assert any("met before" in p for p in problems)


def test_the_bye_to_the_wrong_player() -> None:
    """Catches the bye given above a lower-ranked player who could have had it, and a
    second bye while someone has had none."""
    five = [*FOUR, e("f", 1500)]
    assert check_swiss_round(five, Round((("a", "c"), ("d", "b")), bye="f"), 1) == []
    problems = check_swiss_round(five, Round((("a", "c"), ("f", "b")), bye="d"), 1)
    assert any("bye" in p for p in problems)
    five = [replace(x, byes=1) if x.name == "f" else x for x in five]
    problems = check_swiss_round(five, Round((("a", "c"), ("d", "b")), bye="f"), 2)
    assert any("had 1" in p for p in problems)


def test_three_of_a_colour_and_unmet_preferences() -> None:
    """Catches a third blue running, and two players who want different colours not both
    given theirs."""
    field = [e("a", 1900, ("x", "blue", "win"), ("y", "blue", "win")),
             e("b", 1800, ("z", "red", "win"), ("w", "blue", "win")),
             e("x", 1700, ("a", "red", "loss"), ("w", "red", "draw")),
             e("y", 1600, ("z", "red", "loss"), ("a", "red", "loss")),
             e("z", 1500, ("b", "blue", "loss"), ("y", "blue", "win")),
             e("w", 1400, ("a", "blue", "draw"), ("b", "red", "loss"))]
    good = Round((("b", "a"), ("x", "z"), ("y", "w")))
    assert not [p for p in check_swiss_round(field, good, 3) if "colour" in p or "three" in p]
    bad = Round((("a", "b"), ("x", "z"), ("y", "w")))
    assert any("three of a colour" in p for p in check_swiss_round(field, bad, 3))


def test_more_floats_than_the_score_groups_need() -> None:
    """Catches a round that floats three players across the score groups where one float
    is enough (a, b, f won; c, d, g lost; f and g have met, so f floats)."""
    field = [e("a", 1900, ("c", "blue", "win")), e("b", 1800, ("d", "red", "win")),
             e("c", 1700, ("a", "red", "loss")), e("d", 1600, ("b", "blue", "loss")),
             e("f", 1500, ("g", "blue", "win")), e("g", 1400, ("f", "red", "loss"))]
    fine = Round((("b", "a"), ("f", "d"), ("c", "g")))
    assert check_swiss_round(field, fine, 2) == []
    floated = Round((("a", "d"), ("g", "b"), ("c", "f")))
    assert any("float" in p for p in check_swiss_round(field, floated, 2))
