"""The Swiss pairing's fallbacks on a large field stay bounded: no exact matching of the
whole field (over a minute of CPU at 1,000 players, past the tournament function's
29 s, so a step that times out every time and a round never paired)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from checker import check_swiss_round
from numbridge.tournaments import swiss
from numbridge.tournaments.results import Played, Round
from numbridge.tournaments.swiss import Entrant, pair_swiss


def stuck_field(n: int) -> list[Entrant]:
    """n - 4 players on three wins (against players gone) and, below them, four who have
    all met each other: the last bracket cannot pair anyone, so its four must be
    re-paired with the big bracket above them."""
    top = [Entrant(f"p{i:04d}", 1500 + i % 300,
                   tuple(Played(f"gone{i}_{r}", "blue" if (i + r) % 2 else "red", "win")
                         for r in range(3)))
           for i in range(n - 4)]
    four = [f"z{k}" for k in range(4)]
    bottom = [Entrant(z, 1400, tuple(Played(o, "blue" if (k + r) % 2 else "red", "draw")
                                     for r, o in enumerate(o for o in four if o != z)))
              for k, z in enumerate(four)]
    return top + bottom


@pytest.fixture
def widest_matching() -> Iterator[list[int]]:
    """The sizes of the exact matchings made; one over swiss.WIDEST fails at once."""
    sizes: list[int] = []
    real = swiss._matching

    def spy(ranked: list[Entrant], *args: object, **kwargs: object
            ) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None]:
        sizes.append(len(ranked))
        assert len(ranked) <= swiss.WIDEST, f"an exact matching of {len(ranked)} players"
        return real(ranked, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "_matching", spy)
        yield sizes


def legal(entrants: list[Entrant], round_: Round) -> None:
    names = {e.name for e in entrants}
    seen = [p for pair in round_.pairs for p in pair] + ([round_.bye] if round_.bye else [])
    assert sorted(seen) == sorted(names)
    met = {e.name: {g.opponent for g in e.history} for e in entrants}
    assert not [(b, r) for b, r in round_.pairs if r in met[b]]


def test_a_thousand_players_with_a_stuck_last_bracket(widest_matching: list[int]) -> None:
    """Catches the widening re-pairing the whole field of 1,000 exactly (it did: 89 s of
    CPU) when the last bracket's four, who have all met, need partners from above: the
    round is legal (everyone once, no rematch) and no matching is wider than WIDEST."""
    field = stuck_field(1000)
    round_ = pair_swiss(field, 4)
    legal(field, round_)
    assert widest_matching  # the stuck four were re-paired exactly, within the bound


def test_the_bounded_re_pairing_obeys_the_rules(widest_matching: list[int]) -> None:
    """The same fallback on a field small enough for the checker (the bound made 8):
    catches the re-paired window breaking a rule judged pair for pair (a rematch, a
    colour rule kept elsewhere, more floats than needed)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "EXACT_UP_TO", 0)
        patch.setattr(swiss, "WIDEST", 8)
        field = stuck_field(24)
        round_ = pair_swiss(field, 4)
    legal(field, round_)
    assert check_swiss_round(field, round_, 4, exhaustive=False) == []
    assert max(widest_matching) <= 8


def test_no_partner_near_enough_is_no_pairing() -> None:
    """Catches the bounded fallback handing back a partial round (or looping) when the
    players left over have met everyone a window could hold: NoPairing, at once."""
    four = [f"z{k}" for k in range(4)]
    field = [Entrant(f"p{i}", 1500, (Played(f"x{i}", "blue", "win"),)) for i in range(8)]
    field += [Entrant(z, 1400, tuple(Played(o, "red", "draw")
                                     for o in [*(f"p{i}" for i in range(8)), *four]
                                     if o != z))
              for z in four]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "EXACT_UP_TO", 0)
        patch.setattr(swiss, "WIDEST", 8)
        with pytest.raises(swiss.NoPairing):
            pair_swiss(field, 12)
