"""Fair play from the reviews: guesses that pay far above chance stand out, fair ones do
not; and ``numbridge fairplay report`` reads them from a club's archive."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from numbridge.cli import main
from numbridge.coach.fairplay import BOT_PAUSE_MS, HARD, MIN_SAMPLE, fast, paces, suspicious, tally
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
    """Catches: a mistake with a digit the player could have ruled out weighed as a fair
    guess (1/candidates), which would lower every careless player's z-score."""
    record = game(0, "ana", "bob", {"blue": [(2, False)], "red": []})
    record["review"]["moves"][0]["ruled_out"] = True
    ana = tally([record])["ana"]
    assert (ana.guesses, ana.paid, ana.expected, ana.z) == (1, 0, 0.0, None)


def test_records_not_reviewed_yet_are_left_out() -> None:
    """Catches: a game not yet reviewed counted (as no guesses, or failing the report)."""
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
    rows = lines[2:next(n for n, line in enumerate(lines) if line.startswith("thresholds"))]
    assert {line.split()[0] for line in rows} == {"eve", "bob", *golden["players"].values()}


# -- speed: hard placements faster than people make them ------------------------------


def timed(n: int, blue: str, red: str, placements: dict[str, list[tuple[str, int]]],
          rated: bool = True) -> dict[str, Any]:
    """A reviewed record whose turns are correct placements: (reading, time_ms) each."""
    moves: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    for seat, turns in placements.items():
        for reading, spent in turns:
            entries.append({"n": len(moves), "seat": seat, "reading": reading})
            moves.append({"seat": seat, "action": "place", "time_ms": spent})
    return {"game": f"g-{n}", "players": {"blue": blue, "red": red},
            "options": {"variant": "bridge", "rated": rated}, "moves": moves,
            "review": {"moves": entries, "summary": {}}}


def human(rng: random.Random, count: int) -> list[tuple[str, int]]:
    """People's pace: a hard reading takes them seconds to tens of seconds, a single less."""
    out = []
    for _ in range(count):
        reading = rng.choice((*HARD, "naked_single", "hidden_single"))
        slow = reading in HARD
        out.append((reading, rng.randint(4000, 40000) if slow else rng.randint(800, 9000)))
    return out


def club_games(rng: random.Random, cheat: list[tuple[str, int]] | None = None,
               ) -> list[dict[str, Any]]:
    """Twelve rated games between four people at people's pace; with ``cheat``, eve plays
    six more against them, her turns ``cheat``."""
    people = ["ana", "bob", "cy", "dee"]
    records = [timed(n, people[n % 4], people[(n + 1) % 4],
                     {"blue": human(rng, 20), "red": human(rng, 20)}) for n in range(12)]
    if cheat is not None:
        records += [timed(100 + n, "eve", people[n % 4],
                          {"blue": cheat, "red": human(rng, 20)}) for n in range(6)]
    return records


def test_a_player_whose_hard_placements_come_in_a_second_is_flagged_and_people_are_not(
        ) -> None:
    """Catches a speed signal that counts singles (which anyone honest makes fast), reads
    the time of another move than the one the review labelled, or marks people at
    people's pace: eve's hard placements take 1 s each, everyone else's 4 to 40 s."""
    rng = random.Random(11)
    cheat = [("pairs", 1000), ("locked_candidates", 1000), ("beyond", 1000),
             ("naked_single", 1000)] * 3
    records = club_games(rng, cheat)
    pace = paces(records)
    for reading in HARD:
        # eve's second-long moves are over a twentieth of the club's: the percentile is hers
        assert pace[reading].club_ms == 1000 and pace[reading].threshold_ms == 1000
    players = tally(records, pace)
    eve = players["eve"]
    assert (eve.hard, eve.fast) == (6 * 9, 6 * 9)
    assert eve.fast_z is not None and eve.fast_z > 5
    assert [p.name for p in fast(players)] == ["eve"]
    for name in ("ana", "bob", "cy", "dee"):
        assert players[name].hard > 50 and players[name].fast == 0
    assert suspicious(players) == []  # the other column: no guess here at all


def test_people_at_peoples_pace_are_not_flagged_though_some_of_their_moves_are_fast(
        ) -> None:
    """Catches a signal that marks whoever made the club's quickest moves: by its own
    percentile a club always has fast moves (a twentieth), spread over honest players."""
    records = club_games(random.Random(12))
    pace = paces(records)
    players = tally(records, pace)
    assert sum(p.fast for p in players.values()) > 0
    assert fast(players) == []
    for p in players.values():
        assert p.fast_z is not None and abs(p.fast_z) < 3


def test_the_bots_pace_is_the_floor_of_every_threshold() -> None:
    """Catches a threshold that sinks with the club: where nearly every rated hard move
    is eve's 300 ms, her moves are not 'as fast as people' — the bot's pace (its moves
    in its games, its pause included) still calls them fast; with no bot game, its pause."""
    cheat = [("pairs", 300)] * 10
    records = [timed(n, "eve", "ana", {"blue": cheat, "red": [("pairs", 20000)]})
               for n in range(4)]
    alone = paces(records)
    assert alone["pairs"].club_ms == 300 and alone["pairs"].threshold_ms == BOT_PAUSE_MS
    bot = timed(9, "bot-strong", "ana", {"blue": [("pairs", 1100)] * 5}, rated=False)
    with_bot = paces([*records, bot])
    assert (with_bot["pairs"].bot_ms, with_bot["pairs"].threshold_ms) == (1100, 1100)
    players = tally([*records, bot], with_bot)
    assert (players["eve"].hard, players["eve"].fast) == (40, 40)
    assert "bot-strong" not in players or players["bot-strong"].hard == 0


def test_unrated_games_and_untimed_moves_weigh_nothing() -> None:
    """Catches casual games counted (people play them fast and loose, and their pace is
    not the club's), and a move without a time taken as 0 ms."""
    casual = timed(1, "eve", "ana", {"blue": [("pairs", 500)] * 30}, rated=False)
    untimed = timed(2, "eve", "ana", {"blue": [("pairs", 500)] * 30})
    for move in untimed["moves"]:
        del move["time_ms"]
    players = tally([casual, untimed], paces([casual, untimed]))
    assert players["eve"].hard == 0 and fast(players) == []
    assert paces([casual])["pairs"].moves == 0


def test_a_reading_with_few_club_moves_has_only_the_bots_pace() -> None:
    """Catches a percentile taken over a handful of moves (one quick honest move would
    then set it)."""
    few = [timed(n, "ana", "bob", {"blue": [("beyond", 3000)]}) for n in range(MIN_SAMPLE - 1)]
    assert paces(few)["beyond"].club_ms is None
    assert paces(few)["beyond"].threshold_ms == BOT_PAUSE_MS
    enough = [*few, timed(99, "ana", "bob", {"blue": [("beyond", 3000)]})]
    assert paces(enough)["beyond"].club_ms == 3000


def test_the_report_flags_the_fast_player_beside_the_guesses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Catches a report that drops the guess column for the speed one (both are kept), or
    that reads no move times from the stored records."""
    directory = data_dir(tmp_path / "club")
    store = SqliteStore(database_file(directory))
    cheat = [("pairs", 1000), ("beyond", 1000), ("locked_candidates", 1000)] * 3
    try:
        for record in club_games(random.Random(11), cheat):
            review = record.pop("review")
            store.transact([Archive.put_write(record["game"], record)])
            Archive(store).put_review(record["game"], review)
    finally:
        store.close()
    assert main(["fairplay", "report", "--data-dir", str(directory)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "1 fast" in lines[0] and "0 to look at" in lines[0]
    header = lines[1].split()
    assert header[:8] == ["player", "games", "placed", "proven", "hard", "fast", "usual",
                          "z-fast"]
    assert header[8:] == ["guesses", "paid", "chance", "z-guess"]
    assert lines[2].split()[0] == "eve" and lines[2].split()[-1] == "fast"
    assert any(line.strip().startswith("pairs: 1.0 s (club 5th percentile 1.0 s")
               for line in lines)
