"""Fair play from the reviews: does a player's guessing pay more often than chance?

Every placement the coach could not prove from what its player knew is a guess among
the digits they could not rule out (``candidates``): a fair guess pays with chance
1/candidates (0 for a digit they could have ruled out). Over many guesses the number
that paid is close to the sum of those chances; a player who guesses right far more
often than that plays as if they saw the solution — a second screen, a solver. The
z-score says how far: (paid - expected) / sqrt(sum of p(1-p)).

A signal to look at, not a verdict: a strong player who reasons past one trial (longer
chains, nested trials) proves digits the coach calls guesses, and scores high too.

Speed, the second signal: over rated games, how often a placement that needed a hard
reading (locked candidates, pairs, beyond) came faster than people make them. Each
move's time is in the record (``time_ms``: from the turn's start, or the pair's first
move, to the move). Per reading, a move is *fast* at or under a threshold: the club's own
5th percentile of that reading's times in rated games, and never under the bot's pace —
its own moves of that reading in the archive (its pause before each move included), else
its pause alone. The share of the club's placements of that reading that are fast is
what a player's would be by chance; the z-score weighs a player's fast ones against it as
for guesses. Pure: the command reads the archive and hands the records in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from numbridge.names import bot_level
from numbridge.rules.seats import SEATS, Grade

# Past what a practised eye sees at once: the easy bot plays one pass of naked singles,
# the normal level adds hidden singles, locked candidates and pairs, only the strong one
# (its search) goes beyond. Singles are most placements and come fast from anyone honest,
# so a fast single tells nothing; these are the readings that take a person time.
HARD: tuple[Grade, ...] = ("locked_candidates", "pairs", "beyond")
# The club's share of moves called fast by its own pace (its 5th percentile).
PERCENTILE = 0.05
# Fewer of a reading's moves than this in the club's rated games: its percentile is too
# loose to trust, and only the bot's pace counts.
MIN_SAMPLE = 20
# The bot's pause before each move when the archive holds no bot move of a reading
# (BOT_DELAY_MS's default).
BOT_PAUSE_MS = 800


@dataclass
class Player:
    name: str
    games: int = 0
    placements: int = 0  # correct placements
    proven: int = 0  # of them, proved by a reading
    guesses: int = 0  # placements not proved: correct guesses and mistakes
    paid: int = 0  # the guesses that were right
    expected: float = 0.0  # how many a fair guesser's would have been
    variance: float = 0.0
    hard: int = 0  # timed placements in rated games that needed a hard reading
    fast: int = 0  # of them, at or under their reading's threshold
    fast_expected: float = 0.0  # how many would be at the club's own share
    fast_variance: float = 0.0

    @property
    def z(self) -> float | None:
        """How many standard deviations the paid guesses lie above chance (None: no
        guess with any doubt in it)."""
        if self.variance <= 0:
            return None
        return (self.paid - self.expected) / math.sqrt(self.variance)

    @property
    def fast_z(self) -> float | None:
        """How many standard deviations the fast hard placements lie above the club's
        share (None: no hard placement the club's pace could call fast)."""
        if self.fast_variance <= 0:
            return None
        return (self.fast - self.fast_expected) / math.sqrt(self.fast_variance)

    def timed(self, share: float, fast: bool) -> None:
        self.hard += 1
        self.fast += fast
        self.fast_expected += share
        self.fast_variance += share * (1 - share)

    def guessed(self, chance: float, paid: bool) -> None:
        self.guesses += 1
        self.paid += paid
        self.expected += chance
        self.variance += chance * (1 - chance)


@dataclass(frozen=True)
class Pace:
    """How fast a reading's placements come: the club's own percentile (None under
    :data:`MIN_SAMPLE` moves), the bot's pace, the threshold (the larger), and the share of
    the club's rated placements of it at or under the threshold."""

    reading: Grade
    moves: int  # the club's timed placements of it in rated games
    club_ms: int | None
    bot_ms: int
    bot_moves: int  # the bot's timed placements of it (0: its pause stands in)
    threshold_ms: int
    share: float


@dataclass
class _Times:
    people: list[int] = field(default_factory=list)
    bot: list[int] = field(default_factory=list)


def _timed(record: Mapping[str, Any]) -> Iterator[tuple[str, str, int]]:
    """(player, reading, time_ms) of each correct placement the review proved with a hard
    reading and the record timed."""
    review, names, moves = record.get("review"), record.get("players"), record.get("moves")
    if not isinstance(review, Mapping) or not isinstance(names, Mapping):
        return
    if not isinstance(moves, list):
        return
    for entry in review.get("moves", []):
        reading, n, seat = entry.get("reading"), entry.get("n"), entry.get("seat")
        if reading not in HARD or not isinstance(n, int) or not 0 <= n < len(moves):
            continue
        spent = moves[n].get("time_ms") if isinstance(moves[n], Mapping) else None
        if seat in names and isinstance(spent, int) and not isinstance(spent, bool):
            yield str(names[seat]), str(reading), spent


def _rated(record: Mapping[str, Any]) -> bool:
    options = record.get("options")
    return isinstance(options, Mapping) and options.get("rated") is True


def _at(times: list[int], q: float) -> int:
    """The nearest-rank ``q`` quantile of ``times`` (not empty)."""
    ordered = sorted(times)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def paces(records: Iterable[Mapping[str, Any]], *, percentile: float = PERCENTILE,
          bot_pause_ms: int = BOT_PAUSE_MS) -> dict[Grade, Pace]:
    """Each hard reading's :class:`Pace` from the reviewed records: people's placements in
    rated games, the bot's in its (unrated) games."""
    times = {reading: _Times() for reading in HARD}
    for record in records:
        rated = _rated(record)
        for player, reading, spent in _timed(record):
            kept = times[reading]  # type: ignore[index]
            if bot_level(player) is not None:
                kept.bot.append(spent)
            elif rated:
                kept.people.append(spent)
    out: dict[Grade, Pace] = {}
    for reading, kept in times.items():
        club = _at(kept.people, percentile) if len(kept.people) >= MIN_SAMPLE else None
        # The bot's usual pace, its pause included: a person at it plays like a machine.
        bot = _at(kept.bot, 0.5) if kept.bot else bot_pause_ms
        threshold = max(bot, club or 0)
        share = (sum(t <= threshold for t in kept.people) / len(kept.people)
                 if kept.people else 0.0)
        out[reading] = Pace(reading, len(kept.people), club, bot, len(kept.bot), threshold,
                            share)
    return out


def tally(records: Iterable[Mapping[str, Any]],
          pace: Mapping[Grade, Pace] | None = None) -> dict[str, Player]:
    """Each player's figures over the reviewed records among ``records`` (archive
    records; those without a review yet are left out). Speed is weighed only with
    ``pace`` (:func:`paces` of the same records), over rated games."""
    players: dict[str, Player] = {}
    for record in records:
        if pace is not None and _rated(record):
            for name, reading, spent in _timed(record):
                if bot_level(name) is None:
                    known = pace[reading]  # type: ignore[index]
                    players.setdefault(name, Player(name)).timed(
                        known.share, spent <= known.threshold_ms)
        review = record.get("review")
        names = record.get("players")
        if not isinstance(review, Mapping) or not isinstance(names, Mapping):
            continue
        seats = {seat: players.setdefault(str(names[seat]), Player(str(names[seat])))
                 for seat in SEATS if seat in names}
        for player in seats.values():
            player.games += 1
        for entry in review.get("moves", []):
            mover = seats.get(entry.get("seat"))
            if mover is not None:
                _weigh(mover, entry)
    return players


def _weigh(player: Player, entry: Mapping[str, Any]) -> None:
    reading = entry.get("reading")
    candidates = entry.get("candidates")
    if reading is not None:
        player.placements += 1
        if reading != "guess":
            player.proven += 1
        elif isinstance(candidates, int) and candidates > 0:
            player.guessed(1 / candidates, paid=True)
    elif isinstance(candidates, int) and candidates > 0:  # a mistake
        player.guessed(0.0 if entry.get("ruled_out") else 1 / candidates, paid=False)


def suspicious(players: Mapping[str, Player], *, min_guesses: int = 20,
               z: float = 3.0) -> list[Player]:
    """The players whose guesses paid at least ``z`` standard deviations above chance
    over at least ``min_guesses`` guesses, the most suspicious first."""
    found = [p for p in players.values()
             if p.guesses >= min_guesses and p.z is not None and p.z >= z]
    return sorted(found, key=lambda p: (-(p.z or 0.0), p.name))


def fast(players: Mapping[str, Player], *, min_hard: int = 10,
         z: float = 3.0) -> list[Player]:
    """The players whose hard placements came fast at least ``z`` standard deviations
    more often than the club's share, over at least ``min_hard`` of them; fastest first."""
    found = [p for p in players.values()
             if p.hard >= min_hard and p.fast_z is not None and p.fast_z >= z]
    return sorted(found, key=lambda p: (-(p.fast_z or 0.0), p.name))
