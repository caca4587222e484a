"""The review of whole games, move by move, checked against the game replayed by hand:
the board each player saw rebuilt from the record, each label recomputed by the slow
readings (coach_naive), the race by a plain Dijkstra, the block table counted."""

from __future__ import annotations

import dataclasses
import heapq
from typing import Any

import pytest
from coach_games import finished
from coach_naive import RUNGS, fixpoint, proves, start, survivors
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.coach import Story, review, story_of
from testkit.sudoku import units

GAMES = [("bridge", 1, "regular"), ("blitz", 2, "irregular"), ("domains", 2, "regular")]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{g[1]}-{g[2]}")
def game(request: pytest.FixtureRequest) -> dict[str, Any]:
    variant, seed, blocks = request.param
    return finished(variant, seed, blocks=blocks)


def _hex_distance(owners: list[str], size: int, mark: str) -> int | None:
    """Dijkstra over the hex board: own cells 0, free cells 1, the other side's walls."""
    def cost(i: int) -> int | None:
        return 0 if owners[i] == mark else 1 if owners[i] == "." else None

    def near(i: int) -> list[int]:
        r, c = divmod(i, size)
        steps = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)]
        return [(r + dr) * size + c + dc for dr, dc in steps
                if 0 <= r + dr < size and 0 <= c + dc < size]

    if mark == "b":
        first = [c for c in range(size)]
        last = {(size - 1) * size + c for c in range(size)}
    else:
        first = [r * size for r in range(size)]
        last = {r * size + size - 1 for r in range(size)}
    best: dict[int, int] = {}
    heap = [(k, i) for i in first if (k := cost(i)) is not None]
    heapq.heapify(heap)
    while heap:
        d, i = heapq.heappop(heap)
        if i in best:
            continue
        best[i] = d
        if i in last:
            return d
        for j in near(i):
            k = cost(j)
            if k is not None and j not in best:
                heapq.heappush(heap, (d + k, j))
    return None


def test_every_turn_is_weighed_from_the_board_its_player_saw(game: dict[str, Any]) -> None:
    """Catches a label computed from the board after the move (the placed digit would
    prove itself), a mistake forgotten or applied to the board, an ``avoidable`` that
    looks at the opponent's hand or at tiles no reading proves, a race or block table
    off by a move, and entries whose ``n`` is not the record's index."""
    check_against_a_replay_by_hand(game)


@settings(max_examples=6)
@given(st.sampled_from(["bridge", "blitz", "domains"]), st.integers(0, 10**6),
       st.sampled_from(["regular", "irregular"]))
def test_any_game_is_weighed_from_what_its_players_knew(variant: str, seed: int,
                                                        blocks: str) -> None:
    """Catches: what the recorded games pin down failing on other deals (a label not the
    replay by hand's, on either block kind or any variant), and a label that reads the
    record's solution (it moves when the solution is taken away)."""
    record = finished(variant, seed, blocks=blocks)
    check_against_a_replay_by_hand(record)
    stripped = {k: v for k, v in record.items() if k != "solution"}
    assert review(story_of(stripped)) == review(story_of(record))


def check_against_a_replay_by_hand(game: dict[str, Any]) -> None:
    size, blocks = game["size"], game["layout"]
    out = review(story_of(game))
    digits, owners = list(game["givens"]), ["."] * (size * size)
    wrong: set[tuple[int, int]] = set()
    entries = iter(out["moves"])
    for n, move in enumerate(game["moves"]):
        if move["action"] not in ("place", "take", "exchange", "swap", "timeout", "pass"):
            continue
        entry = next(entries)
        assert (entry["n"], entry["seat"]) == (n, move["seat"])
        cands = start(size, blocks, "".join(digits), wrong)
        cell = None if move["cell"] is None else move["cell"][0] * size + move["cell"][1]
        if move["action"] == "place" and not move["mistake"]:
            reading = entry["reading"]
            if reading in RUNGS:
                assert proves(size, blocks, cands, reading, cell, move["digit"])
                below = RUNGS[: RUNGS.index(reading)]
                assert not any(proves(size, blocks, cands, r, cell, move["digit"])
                               for r in below)
            else:
                assert reading in ("beyond", "guess")
                assert not proves(size, blocks, cands, "pairs", cell, move["digit"])
        else:
            assert entry["reading"] is None
        weighed = move["action"] in ("take", "exchange") or move["mistake"]
        if weighed:
            known = fixpoint(size, blocks, cands, "pairs")
            sure = {(i, d) for i, ch in enumerate(digits) if ch == "." for d in move["hand"]
                    if known[i] == {d}}
            assert entry["avoidable"] == bool(sure)
            if move["action"] == "place":  # a mistake: the digits left to gamble on
                alive = survivors(size, blocks, cands, cell)
                assert entry["candidates"] == len(alive) >= 1
                assert entry["ruled_out"] == (move["digit"] not in alive)
            if sure:
                r, c = entry["instead"]["cell"]
                assert (r * size + c, entry["instead"]["digit"]) in sure
        else:
            assert "avoidable" not in entry
        # the move as the board shows it
        if move["action"] == "place":
            if move["mistake"]:
                wrong.add((cell, move["digit"]))
            else:
                digits[cell] = str(move["digit"])
                owners[cell] = move["seat"][0]
        elif move["action"] in ("take", "swap"):
            owners[cell] = move["seat"][0]
        if game["options"]["variant"] == "domains":
            table = {"blue": 0, "red": 0}
            for unit in units(size, blocks)[2 * size:]:
                for seat in table:
                    if sum(owners[i] == seat[0] for i in unit) > size // 2:
                        table[seat] += 1
            assert entry["blocks"] == {**table, "undecided": size - sum(table.values())}
        else:
            assert entry["race"] == {"blue": _hex_distance(owners, size, "b"),
                                     "red": _hex_distance(owners, size, "r")}
    assert next(entries, None) is None
    assert "".join(owners) == game["owners"]


def test_the_summary_counts_the_moves(game: dict[str, Any]) -> None:
    """Catches a summary that counts the other player's moves, or mistakes as proven."""
    out = review(story_of(game))
    for seat, summary in out["summary"].items():
        mine = [m for m in out["moves"] if m["seat"] == seat]
        placed = [m for m in mine if m["reading"] is not None]
        mistakes = [m for m, rec in ((m, game["moves"][m["n"]]) for m in mine)
                    if rec["action"] == "place" and rec["mistake"]]
        assert summary["placements"] == len(placed)
        assert summary["readings"]["guess"] == summary["guesses_paid"]
        assert summary["proven"] == len([m for m in placed if m["reading"] != "guess"])
        assert summary["mistakes"] == len(mistakes) == game["mistakes"][seat]
        assert summary["guesses"] == summary["guesses_paid"] + len(mistakes)
        assert summary["avoidable_mistakes"] == sum(m["avoidable"] for m in mistakes)
        if "race_moves" in summary:
            ns = [m["n"] for m in summary["race_moves"]]
            assert set(ns) <= {m["n"] for m in mine} and len(ns) <= 3
            gains = [m["gain"] for m in summary["race_moves"]]
            assert gains == sorted(gains, reverse=True) and all(g > 0 for g in gains)


def test_the_review_never_sees_the_solution(game: dict[str, Any]) -> None:
    """Catches a review that reads the solution: it gets a story, which has no field
    for it, and the review of a record stripped of it, or given a false one, is the
    same."""
    assert all("solution" not in f.name for f in dataclasses.fields(Story))
    stripped = {k: v for k, v in game.items() if k != "solution"}
    false = {**game, "solution": "1" * len(game["solution"])}
    assert review(story_of(stripped)) == review(story_of(false)) == review(story_of(game))


def test_a_record_kept_before_hands_has_no_avoidable(game: dict[str, Any]) -> None:
    """Catches an ``avoidable`` made up from an unknown hand (an empty one read as no
    tile to play)."""
    old = {**game, "moves": [{k: v for k, v in m.items() if k != "hand"}
                             for m in game["moves"]]}
    out = review(story_of(old))
    assert all("avoidable" not in m and "instead" not in m for m in out["moves"])
    assert [m["reading"] for m in out["moves"]] == [
        m["reading"] for m in review(story_of(game))["moves"]]


def test_the_winner_of_a_race_ends_it_at_zero() -> None:
    """Catches: a race counted off by one (the winner's last move not leaving it connected:
    zero free cells needed)."""
    record = finished("bridge", 1)
    last = review(story_of(record))["moves"][-1]
    assert last["race"][record["result"]["winner"]] == 0
