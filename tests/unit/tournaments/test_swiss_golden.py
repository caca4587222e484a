"""Swiss pairing on rounds worked by hand from FIDE's Dutch rules (C.04.3): the first
round's halves and colours, the bye, colour allocation (E.1-E.4), absolute colours,
no rematch, and a large field taking the greedy Dutch path."""

from __future__ import annotations

import pytest
from checker import check_swiss_round
from numbridge.tournaments.results import Played, Round
from numbridge.tournaments.swiss import (
    BadEntrants,
    Entrant,
    NoPairing,
    allocate_colours,
    pair_swiss,
    preference,
)
from tournament_sim import tournament


def seeded(n: int) -> list[Entrant]:
    return [Entrant(str(i), 2000 - i) for i in range(1, n + 1)]


def hist(*seats: str, outcome: str = "draw") -> tuple[Played, ...]:
    return tuple(Played(f"x{k}", s, outcome) for k, s in enumerate(seats))  # type: ignore[arg-type]


def test_round_one_top_half_against_bottom_half() -> None:
    """FIDE's first round of eight: 1-5, 6-2, 3-7, 8-4 (the top seed blue, then
    alternating by board). Catches halves or colours not as the Dutch system gives."""
    assert pair_swiss(seeded(8), 1) == Round((("1", "5"), ("6", "2"), ("3", "7"), ("8", "4")))


def test_round_one_odd_field_the_last_seed_sits_out() -> None:
    """Seven players: the bye to 7, then 1-4, 5-2, 3-6. Catches the bye to anyone but the
    lowest-ranked player."""
    assert pair_swiss(seeded(7), 1) == Round((("1", "4"), ("5", "2"), ("3", "6")), bye="7")


def test_the_bye_skips_who_has_had_one() -> None:
    """Five players on one point each; the lowest-ranked (5) had his by a bye. Catches
    a second bye to 5 while 4, next up from the bottom, has had none."""
    field = [Entrant(str(i), 2000 - i, (Played(f"x{i}", "blue", "win"),)) for i in range(1, 5)]
    field.append(Entrant("5", 1995, (), byes=1))
    assert pair_swiss(field, 2).bye == "4"


def test_preferences_as_fide_defines_them() -> None:
    """FIDE A.6: absolute past ±1 or after two of a colour, strong at ±1, mild at 0
    (the other colour than last), none before any game."""
    assert preference(()) == (None, 0)
    assert preference(hist("blue")) == ("red", 2)
    assert preference(hist("blue", "red")) == ("blue", 1)
    assert preference(hist("red", "blue", "blue")) == ("red", 3)
    assert preference(hist("blue", "blue", "red", "blue")) == ("red", 3)
    assert preference(hist("red", "red", "blue", "blue")) == ("red", 3)


@pytest.mark.parametrize(("hi", "lo", "board", "blue"), [
    ((), (), 1, "a"), ((), (), 2, "b"),  # E.5: none at all: board parity
    (("red",), ("blue",), 1, "a"),  # E.1: both granted
    (("blue",), ("blue",), 1, "b"),  # E.4: equal, never differed: the higher's wish (red)
    (("blue", "red"), ("red",), 1, "b"),  # E.2: b's strong blue beats a's mild blue
    (("blue", "red", "red", "blue"), ("red", "blue", "red", "blue"), 1, "a"),  # E.3
])
def test_colour_allocation(hi: tuple[str, ...], lo: tuple[str, ...], board: int,
                           blue: str) -> None:
    """Catches colours not allocated by FIDE's E rules, in their order."""
    a, b = Entrant("a", 1900, hist(*hi)), Entrant("b", 1800, hist(*lo))
    assert allocate_colours(a, b, board)[0] == blue


def test_two_who_both_must_have_red_do_not_meet() -> None:
    """a and b have had blue twice (both must have red); the Dutch order would pair
    a with b. Catches an absolute colour clash chosen over a legal pairing."""
    field = [Entrant("a", 1900, hist("blue", "blue")), Entrant("c", 1800, hist("blue", "red")),
             Entrant("b", 1700, hist("blue", "blue")), Entrant("d", 1600, hist("red", "blue"))]
    rnd = pair_swiss(field, 3)
    assert {frozenset(p) for p in rnd.pairs} == {frozenset("ad"), frozenset("cb")}
    assert all(red in "ab" for _, red in rnd.pairs)


def test_no_rematch_and_no_pairing_left() -> None:
    """Catches a rematch when another pairing exists, and a pairing invented when every
    pair has met (four players after three rounds: NoPairing)."""
    def met(name: str, *others: str) -> Entrant:
        return Entrant(name, 1500, tuple(Played(o, "blue" if k % 2 else "red", "draw")
                                         for k, o in enumerate(others)))
    field = [met("a", "b"), met("b", "a"), met("c", "d"), met("d", "c")]
    assert {frozenset(p) for p in pair_swiss(field, 2).pairs}.isdisjoint(
        {frozenset("ab"), frozenset("cd")})
    done = [met("a", "b", "c", "d"), met("b", "a", "d", "c"), met("c", "d", "a", "b"),
            met("d", "c", "b", "a")]
    with pytest.raises(NoPairing):
        pair_swiss(done, 4)


def test_bad_entrants() -> None:
    """Catches a name listed twice paired with itself."""
    with pytest.raises(BadEntrants):
        pair_swiss([Entrant("a", 1), Entrant("a", 2)], 1)


def test_a_large_field_obeys_the_rules() -> None:
    """150 players (beyond the exact matching's range: the greedy Dutch path) over five
    rounds: catches that path breaking a rule the checker knows."""
    played, _, refused = tournament(150, 5, 7)
    assert refused is None
    for r in played:
        assert check_swiss_round(r.before, r.round, r.round_no) == []
