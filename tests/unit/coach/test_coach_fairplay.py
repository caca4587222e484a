"""Fair play from the reviews: guesses that pay far above chance stand out, fair ones do
not; and ``numbridge fairplay report`` reads them from a club's archive."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from numbridge.cli import main
from numbridge.coach.fairplay import suspicious, tally
from numbridge.local.data.datadir import data_dir, database_file
from numbridge.store.club import Archive
from numbridge.store.sqlite import SqliteStore

DATA = Path(__file__).resolve().parents[2] / "data" / "coach"


def game(n: int, blue: str, red: str, guesses: dict[str, list[tuple[int, bool]]],
         ) -> dict[str, Any]:
    """A reviewed record whose turns are the given guesses: (candidates, paid) each;
    a guess that did not pay is a mistake."""
    moves = []
    for seat, turns in guesses.items():
        for candidates, paid in turns:
            entry = {"n": len(moves), "seat": seat, "candidates": candidates}
            if paid:
                entry["reading"] = "guess"
            else:
                entry.update(reading=None, ruled_out=False, avoidable=False)
            moves.append(entry)
        moves.append({"n": len(moves), "seat": seat, "reading": "naked_single"})
    return {"game": f"g-{n}", "players": {"blue": blue, "red": red},
            "review": {"moves": moves, "summary": {}}}


def fair(rng: random.Random, count: int) -> list[tuple[int, bool]]:
    return [(c, rng.random() < 1 / c) for c in (rng.choice((2, 3)) for _ in range(count))]


def test_a_player_whose_guesses_always_pay_stands_out_and_fair_ones_do_not() -> None:
    """Catches a z-score that ignores the candidates (every guess weighed 1/2), counts
    proven placements as guesses, or marks a fair guesser."""
    rng = random.Random(5)
    records = [game(n, "eve", f"fair{n % 3}", {"blue": [(3, True)] * 8, "red": fair(rng, 10)})
               for n in range(6)]
    players = tally(records)
    eve = players["eve"]
    assert (eve.games, eve.guesses, eve.paid, eve.placements, eve.proven) == (6, 48, 48, 54, 6)
    assert eve.expected == pytest.approx(16.0)
    assert eve.z is not None and eve.z > 9
    assert [p.name for p in suspicious(players)] == ["eve"]
    for name in ("fair0", "fair1", "fair2"):
        assert abs(players[name].z or 0.0) < 3
    # Under the floor of guesses: not marked, however lucky.
    assert suspicious(players, min_guesses=49) == []


def test_a_digit_the_player_could_rule_out_had_no_chance() -> None:
    record = game(0, "ana", "bob", {"blue": [(2, False)], "red": []})
    record["review"]["moves"][0]["ruled_out"] = True
    ana = tally([record])["ana"]
    assert (ana.guesses, ana.paid, ana.expected, ana.z) == (1, 0, 0.0, None)


def test_records_not_reviewed_yet_are_left_out() -> None:
    assert tally([{"game": "g-1", "players": {"blue": "a", "red": "b"}}]) == {}


def test_the_report_reads_a_clubs_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          ) -> None:
    """Catches a report that reads no review (the record and its review are two items)."""
    directory = data_dir(tmp_path / "club")
    store = SqliteStore(database_file(directory))
    try:
        golden = json.loads((DATA / "blitz-10.record.json").read_text())
        review = json.loads((DATA / "blitz-10.review.json").read_text())
        store.transact([Archive.put_write("g-golden", golden)])
        Archive(store).put_review("g-golden", review)
        cheat = game(1, "eve", "bob", {"blue": [(3, True)] * 30, "red": []})
        store.transact([Archive.put_write("g-1", {**golden, "players": cheat["players"]})])
        Archive(store).put_review("g-1", cheat["review"])
    finally:
        store.close()
    assert main(["fairplay", "report", "--data-dir", str(directory)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "1 to look at" in lines[0]
    assert lines[2].split()[0] == "eve" and lines[2].split()[-1] == "look"
    assert {line.split()[0] for line in lines[2:]} == {"eve", "bob", *golden["players"].values()}
