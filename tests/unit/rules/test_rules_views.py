"""Golden tests: PROTOCOL.md's VIEW shape, candidates, errors, serialisation, the record."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from numbridge.rules import (
    AcceptAdjourn,
    Exchange,
    GameOptions,
    GameOver,
    GameState,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    OfferAdjourn,
    OfferDraw,
    Place,
    RecordEntry,
    Resign,
    RulesError,
    Take,
    apply,
    archive_record,
    candidates,
    player_view,
    spectator_view,
)
from numbridge.rules.plain import plain
from rules_helpers import (
    EXTRA_KEYS,
    PROTOCOL_KEYS,
    deal,
    empty_cell_for,
    play_correct,
    play_mistake,
    roundtrip,
)
from testkit.hidden import leaks, secrets_of


def rng() -> random.Random:
    return random.Random(17)


def test_player_view_has_exactly_the_protocol_fields_bridge() -> None:
    s = deal("bridge")
    view = player_view(s, "blue", 5)
    assert set(view) == PROTOCOL_KEYS | EXTRA_KEYS | {"swap_available", "swap_open"}
    assert view["you"] == "blue" and view["hand"] == list(s.blue.hand)
    assert view["players"] == {
        "blue": {"name": "ana", "hand_size": 3, "mistakes": 0, "clock_ms": 900_000 - 5},
        "red": {"name": "bob", "hand_size": 3, "mistakes": 0, "clock_ms": 900_000},
    }
    assert view["options"] == {
        "blocks": "regular",
        "clues": 30,
        "take_price": 1,
        "move_ms": 45_000,
        "game_ms": 900_000,
        "highlighting": True,
        "rated": True,
    }
    assert view["offers"] == {"draw": None, "adjourn": None}
    assert view["blocks"] == s.board.layout.to_string()
    assert view["clues"] == "".join("1" if i % 3 == 0 else "0" for i in range(81))
    assert view["digits"] == s.board.givens and view["owners"] == "." * 81
    assert view["bag"] == len(s.bag) and view["status"] == "playing"
    assert view["turn"] == "blue" and view["deadline_ms"] == 45_000
    assert view["result"] is None and view["v"] == 0 and view["now_ms"] == 5
    json.dumps(view)


def test_domains_view_has_block_table_and_moves_left() -> None:
    s = deal("domains")
    view = player_view(s, "red", 0)
    assert set(view) == PROTOCOL_KEYS | EXTRA_KEYS | {
        "moves_left_in_pair",
        "block_table",
        "block_owners",
    }
    assert view["block_table"] == {"blue": 0, "red": 0, "undecided": 9}
    assert view["moves_left_in_pair"] == 1 and view["block_owners"] == "........."


def test_spectator_view_has_no_hand_and_no_seat() -> None:
    s = deal("blitz", givens=range(0, 36, 3))
    view = spectator_view(s, 0)
    assert "you" not in view and "hand" not in view
    assert set(view) == (PROTOCOL_KEYS - {"you", "hand"}) | EXTRA_KEYS | {"swap_available",
                                                                      "swap_open"}


def test_views_hide_the_solution_the_bag_and_the_other_hand() -> None:
    s = play_mistake(play_correct(deal("bridge"), "blue"), "red")
    for seat in ("blue", "red", None):
        view = player_view(s, seat, 0) if seat else spectator_view(s, 0)
        text = json.dumps(view)
        assert "solution" not in text and "record" not in text
        assert isinstance(view["bag"], int)
        # no hidden digit, tile or solution in any field (testkit.hidden)
        assert leaks(view, [secrets_of(s, seat)]) == []
    blue = player_view(s, "blue", 0)
    assert blue["hand"] == list(s.blue.hand)
    assert set(blue["players"]["red"]) == {"name", "hand_size", "mistakes", "clock_ms"}


def test_candidates_follow_the_sudoku_rule_not_the_solution() -> None:
    s = deal("bridge")
    digit = s.blue.hand[0]
    cells = candidates(s, "blue", digit)
    right = empty_cell_for(s, digit)
    assert right in cells
    peers = s.board.layout
    for r, c in cells:
        i = r * 9 + c
        assert s.digits[i] == "."
        assert all(s.digits[p] != str(digit) for p in peers.peers(i))
    # cells not listed are filled or see the digit
    for i in range(81):
        if divmod(i, 9) not in cells:
            assert s.digits[i] != "." or any(s.digits[p] == str(digit) for p in peers.peers(i))
    assert len(cells) > 9  # more than the solution's cells: not every cell is right
    missing = next(d for d in range(1, 10) if d not in s.blue.hand)
    with pytest.raises(IllegalAction, match=f"you hold no {missing}"):
        candidates(s, "blue", missing)
    with pytest.raises(MalformedAction):
        candidates(s, "blue", "3")  # type: ignore[arg-type]


def test_candidates_only_if_the_game_allows_highlighting() -> None:
    s = deal("bridge", highlighting=False)
    with pytest.raises(IllegalAction, match="highlighting is off"):
        candidates(s, "blue", s.blue.hand[0])


@pytest.mark.parametrize(
    ("seat", "action", "error", "message"),
    [
        ("blue", Place((1,), 3), MalformedAction, r"a cell is a pair"),  # type: ignore[arg-type]
        ("blue", Place((1, 2), "3"), MalformedAction, r"the digit must be an integer"),  # type: ignore[arg-type]
        ("blue", Place((1, 2), True), MalformedAction, r"the digit must be an integer"),
        ("blue", Place(("a", 2), 3), MalformedAction, r"a cell is a pair"),  # type: ignore[arg-type]
        ("blue", Take((1, 2), 2.5), MalformedAction, r"integer or omitted"),  # type: ignore[arg-type]
        ("blue", "place", MalformedAction, r"not an action"),
        ("green", Exchange(), MalformedAction, r"^exchange: the seat must be"),
        ("blue", Place((-1, 2), 3), IllegalAction, r"^place \[-1, 2\] 3: cell \[-1, 2\] is off"),
        ("blue", Place((1, 2), 0), IllegalAction, r"0 is not a digit"),
    ],
)
def test_bad_input(seat: str, action: object, error: type[RulesError], message: str) -> None:
    s = deal()
    before = s.to_dict()
    with pytest.raises(error, match=message) as caught:
        apply(s, seat, action, 0, rng())  # type: ignore[arg-type]
    assert type(caught.value) is error
    assert s.to_dict() == before


def test_every_refusal_is_a_rules_error() -> None:
    assert all(issubclass(kind, RulesError)
               for kind in (MalformedAction, IllegalAction, NotYourTurn, GameOver))


def test_round_trip_in_every_status() -> None:
    s = deal("domains")
    roundtrip(s)
    s = play_mistake(play_correct(s, "blue"), "red")
    s = apply(s, "blue", OfferDraw(), 3, rng()).state
    back = roundtrip(s)
    assert back.to_dict()["schema"] == 1
    adj = apply(apply(s, "blue", OfferAdjourn(), 4, rng()).state, "red", AcceptAdjourn(), 5, rng())
    roundtrip(adj.state)
    done = apply(s, "red", Resign(), 9, rng()).state
    roundtrip(done)


def test_from_dict_rejects_unknown_schema() -> None:
    data = deal().to_dict()
    data["schema"] = 2
    with pytest.raises(ValueError, match="schema"):
        GameState.from_dict(data)


def test_options_round_trip_and_validation() -> None:
    s = deal("blitz", givens=())
    assert GameOptions.from_dict(s.options.to_dict()) == s.options
    with pytest.raises(ValueError):
        GameOptions.from_dict({**s.options.to_dict(), "variant": "chess"})
    with pytest.raises(ValueError):
        GameOptions.from_dict({**s.options.to_dict(), "take_price": 0})


def test_a_boards_grade_is_kept_with_the_game() -> None:
    """Catches the dealer's grade lost when a state is stored and loaded, or missing from
    the view and the record, and an unknown grade accepted."""
    s = deal("bridge")
    graded = replace(s, board=replace(s.board, grade="locked_candidates"))
    assert GameState.from_dict(graded.to_dict()).board.grade == "locked_candidates"
    assert player_view(graded, "blue", 0)["grade"] == "locked_candidates"
    assert "grade" not in player_view(s, "blue", 0)  # a board dealt before grades
    assert GameState.from_dict(s.to_dict()).board.grade is None
    done = apply(graded, "blue", Resign(), 1_000, rng()).state
    assert archive_record(done)["grade"] == "locked_candidates"
    with pytest.raises(ValueError, match="grade"):
        replace(s.board, grade="easy")


def test_archive_record_only_for_finished_games() -> None:
    s = play_mistake(play_correct(deal("bridge"), "blue", now=1_000), "red", now=3_000)
    with pytest.raises(IllegalAction, match="not finished"):
        archive_record(s)
    done = apply(s, "blue", Resign(), 4_000, rng()).state
    record = archive_record(done)
    assert record["solution"] == s.board.solution and record["givens"] == s.board.givens
    assert record["players"] == {"blue": "ana", "red": "bob"}
    assert record["result"] == {"winner": "red", "by": "resign"}
    moves = record["moves"]
    assert [m["action"] for m in moves] == ["place", "place", "resign"]
    assert moves[0]["mistake"] is False and moves[1]["mistake"] is True
    assert moves[0]["time_ms"] == 1_000 and moves[1]["time_ms"] == 2_000
    assert moves[1]["at_ms"] == 3_000 and isinstance(moves[1]["cell"], list)
    assert set(moves[0]) == {
        "seat",
        "action",
        "cell",
        "digit",
        "mistake",
        "discarded",
        "time_ms",
        "at_ms",
        "hand",  # the mover's tiles before the turn: what the review weighs it against
    }
    assert moves[0]["digit"] in moves[0]["hand"] and moves[2]["hand"] is None
    old = {k: v for k, v in done.record[0].to_dict().items() if k != "hand"}
    assert RecordEntry.from_dict(old).hand is None  # entries stored before hands were kept
    json.dumps(record)


def test_view_for_a_bad_seat_is_malformed() -> None:
    with pytest.raises(MalformedAction):
        player_view(deal(), "green", 0)  # type: ignore[arg-type]


def test_domains_is_played_on_nine_by_nine() -> None:
    with pytest.raises(ValueError, match="9x9"):
        GameOptions.from_dict({**deal("domains").options.to_dict(), "size": 6})


def test_events_are_json_and_public_events_hide_hands() -> None:
    s = deal("blitz", givens=range(0, 36, 3))
    t = apply(s, "blue", Exchange(), 10, rng())
    for e in t.events:
        json.dumps(plain(e.body))
        if e.to is None:
            assert "hand" not in plain(e.body)
    assert [e.to for e in t.events if e.kind == "hand"] in ([], ["blue"])
