"""One section per kind of record: its line's model, how it is read from a club, and
the writes that put it into another.

A section reads through the store modules and writes what their write builders
build, so a change to how a record is stored (one item per move instead of one
per event, say) changes the file's records not at all. Every write is a put that
the importer makes only where no item is (``numbridge.clubfile.importing``).

What is *not* a section, and why (docs/aws.md, "Moving a club"): connections and
watches belong to sockets that do not survive the move; the rows of games in
progress (``LIVE``, ``PLAYING``) and the deadline index follow from each game's
state and are rebuilt from it; a player's proposal slots are written with their
proposals. A tournament's last standings push (``PUSHED``) only paces its pushes: the
moved club's first push is made at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal, Protocol

from pydantic import Field, field_validator, model_validator

from numbridge import rules
from numbridge.club.proposals import ProposalDoc
from numbridge.club.ratings import Rating, is_provisional
from numbridge.clubfile.lines import Line, Part
from numbridge.names import check_player_name
from numbridge.protocol.models import proposal_model, validate_frame
from numbridge.rules.seats import Seat, Variant
from numbridge.service.usecases.finish import in_progress_writes
from numbridge.store import keys
from numbridge.store.accounts import Account
from numbridge.store.club import Archive, PlayerGames, Proposals, Ratings
from numbridge.store.games import Games, StoredEvent
from numbridge.store.port import Absent, ListingStore, Put, Write
from numbridge.store.receipts import RECEIPT_TTL_S, Receipt, Receipts
from numbridge.store.rematches import Rematches
from numbridge.store.tournaments import (
    Entrant,
    Pairing,
    Played,
    RoundPlan,
    Tournament,
    Tournaments,
)


class Section(Protocol):
    """A kind of record in the club file."""

    kind: str  # the ``kind`` of its lines, and its name in the header and end line
    model: type[Line]  # one line, checked whole before anything is written

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        """Its records in ``store``; ``partitions``: every partition key of the table."""

    def writes(self, line: Line) -> list[Put]:
        """What importing one of its lines puts (each put only where no item is)."""


def as_new(writes: Sequence[Write]) -> list[Put]:
    """Each write as a put of an item that must not exist yet: an import creates, and
    never overwrites what a club already holds."""
    out = []
    for write in writes:
        if not isinstance(write, Put):
            raise TypeError(f"an import only puts, not {write!r}")
        out.append(Put(write.item, Absent()))
    return out


def _of(partitions: Sequence[str], prefix: str) -> Iterator[str]:
    return (pk.removeprefix(prefix) for pk in partitions if pk.startswith(prefix))


# ---------------------------------------------------------------- games


class EventLine(Part):
    v: int = Field(ge=1)
    to: Seat | None  # None: every viewer
    frame: dict[str, Any]

    @model_validator(mode="after")
    def _a_documented_event(self) -> EventLine:
        validate_frame(self.frame)
        if self.frame.get("v") != self.v:
            raise ValueError(f"event {self.v} holds a frame of v {self.frame.get('v')!r}")
        return self


class RematchLine(Part):
    by: str
    status: Literal["offered", "accepted"]
    game: str | None = None  # the new game, once accepted


class GameLine(Line):
    """A game: its state as the engine keeps it, every event, its archive record
    (once finished) and a rematch offer on it."""

    kind: Literal["game"] = "game"
    game: str
    state: dict[str, Any]
    events: list[EventLine]
    record: dict[str, Any] | None
    rematch: RematchLine | None

    @model_validator(mode="after")
    def _a_whole_game(self) -> GameLine:
        state = rules.GameState.from_dict(self.state)  # a state the engine can play on
        if state.game_id != self.game:
            raise ValueError(f"game {self.game} holds the state of {state.game_id}")
        if [e.v for e in self.events] != list(range(1, state.v + 1)):
            raise ValueError(f"game {self.game} at v {state.v} needs events 1..{state.v}")
        if (self.record is None) != (state.status != "finished"):
            raise ValueError(f"game {self.game} is {state.status}: an archive record "
                             "exactly when finished")
        return self


class GamesSection:
    kind = "game"
    model: type[Line] = GameLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        games, archive, rematches = Games(store), Archive(store), Rematches(store)
        for game_id in _of(partitions, keys.GAME_PREFIX):
            row = games.load(game_id)
            if row is None:  # only watchers left of a game that never was, or was removed
                continue
            # Read after the state: a club still playing may have gone on since. What
            # came later is left out, so the game is as its state says.
            finished = row.status == "finished"
            rematch = rematches.get(game_id) if finished else None
            yield GameLine(
                game=game_id, state=row.state,
                events=[EventLine(v=e.v, to=_seat(e.to), frame=e.frame)
                        for e in games.events_after(game_id, 0) if e.v <= row.v],
                record=archive.get(game_id) if finished else None,
                rematch=None if rematch is None else RematchLine(
                    by=rematch.by, status=_rematch_status(rematch.status), game=rematch.game),
            )

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, GameLine)
        state = rules.GameState.from_dict(line.state)
        writes: list[Write] = list(Games.event_puts(
            line.game, [StoredEvent(e.v, e.to, e.frame) for e in line.events]))
        if line.record is not None:
            writes.append(Archive.put_write(line.game, line.record))
        if line.rematch is not None:
            writes.append(Put({"pk": keys.game(line.game), "sk": keys.REMATCH,
                               "by": line.rematch.by, "status": line.rematch.status,
                               "game": line.rematch.game}))
        writes += in_progress_writes(state)
        # Last: a game's state is never there without its events.
        writes.append(Games.state_put(
            line.game, line.state, v=state.v, turn=state.turn, step=state.moves_left_in_pair,
            status=state.status, players=state.players,
            deadline_ms=rules.next_deadline(state), expected=None))
        return as_new(writes)


def _seat(to: str | None) -> Seat | None:
    if to is None or to in ("blue", "red"):
        return to  # type: ignore[return-value]  # checked just above
    raise ValueError(f"an event for seat {to!r}")


def _rematch_status(status: str) -> Literal["offered", "accepted"]:
    if status in ("offered", "accepted"):
        return status  # type: ignore[return-value]  # checked just above
    raise ValueError(f"a rematch {status!r}")


# ---------------------------------------------------------------- players


class RatingLine(Part):
    rv: int = Field(ge=1)
    games: int = Field(ge=0)
    rating: float
    rd: float = Field(gt=0)
    volatility: float = Field(gt=0)


class PlayerLine(Line):
    """A player's ratings and games list (each finished line carries the rating before
    and after the game: the rating's history)."""

    kind: Literal["player"] = "player"
    name: str = Field(min_length=1)
    ratings: dict[Variant, RatingLine]
    games: list[dict[str, Any]]

    @field_validator("games")
    @classmethod
    def _each_names_its_game(cls, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for line in games:
            if not isinstance(line.get("game"), str):
                raise ValueError(f"a games line without its game: {line!r}")
        return games


class PlayersSection:
    kind = "player"
    model: type[Line] = PlayerLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        ratings, played = Ratings(store), PlayerGames(store)
        for name in _of(partitions, keys.player("")):
            lines: list[dict[str, Any]] = []
            after: str | None = None
            while True:
                page, after = played.of_player(name, limit=500, after=after)
                lines += page
                if after is None:
                    break
            rated = ratings.of_player(name)
            if not lines and not rated:  # only slots, connections or games in progress
                continue
            yield PlayerLine(name=name, games=lines, ratings={
                _variant(variant): RatingLine(rv=r.rv, games=r.games, rating=r.rating,
                                              rd=r.rd, volatility=r.volatility)
                for variant, r in rated.items()})

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, PlayerLine)
        writes = [PlayerGames.put_write(line.name, g["game"], g) for g in line.games]
        for variant, r in line.ratings.items():
            values = {"rating": r.rating, "rd": r.rd, "volatility": r.volatility}
            # The version it had: put_write numbers the item one past ``expected_rv``.
            writes.append(Ratings.put_write(
                line.name, variant, values, r.games, expected_rv=r.rv - 1,
                provisional=is_provisional(Rating(r.rating, r.rd, r.volatility))))
        return as_new(writes)


def _variant(variant: str) -> Variant:
    if variant in ("bridge", "blitz", "domains"):
        return variant  # type: ignore[return-value]  # checked just above
    raise ValueError(f"a rating in variant {variant!r}")


# ---------------------------------------------------------------- proposals


class ProposalLine(Line):
    """An open proposal and the author's slot it holds (none: made before slots)."""

    kind: Literal["proposal"] = "proposal"
    proposal: proposal_model()  # type: ignore[valid-type]
    slot: int | None = Field(ge=0, lt=5)


class ProposalsSection:
    kind = "proposal"
    model: type[Line] = ProposalLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        proposals = Proposals(store)
        for pid in _of(partitions, keys.proposal("")):
            stored = proposals.get(pid)
            if stored is not None:  # lapsed ones too: TTL removes them on either store
                yield ProposalLine(proposal=proposal_model().model_validate(stored.proposal),
                                   slot=stored.slot)

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, ProposalLine)
        # The optional fields absent, as the proposal was made (an open proposal has no
        # `to`, one that asked no grade no `grade`), never written back as nulls.
        doc: ProposalDoc = line.proposal.model_dump(exclude_none=True)
        if line.slot is not None:
            return as_new(Proposals.add_writes(doc, line.slot, None))
        first = Proposals.add_writes(doc, 0, None)[0]
        assert isinstance(first, Put)
        return as_new([Put({**first.item, "slot": None})])


# ---------------------------------------------------------------- receipts


class ReceiptLine(Line):
    """The answer given to one request, so that a client retrying it after the move
    gets the same answer instead of having it applied again."""

    kind: Literal["receipt"] = "receipt"
    player: str = Field(min_length=1)
    id: str = Field(min_length=1)
    digest: str
    replies: list[dict[str, Any]]
    created_ms: int = Field(ge=0)


class ReceiptsSection:
    kind = "receipt"
    model: type[Line] = ReceiptLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        receipts = Receipts(store)
        for player in _of(partitions, keys.receipts("")):
            for request_id, r in receipts.of_player(player).items():
                if r.created_ms + RECEIPT_TTL_S * 1000 > now_ms:  # expired: nobody retries
                    yield ReceiptLine(player=player, id=request_id, digest=r.digest,
                                      replies=r.replies, created_ms=r.created_ms)

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, ReceiptLine)
        return as_new([Receipts.put_write(
            line.player, line.id, Receipt(line.digest, line.replies, line.created_ms))])


# ---------------------------------------------------------------- accounts


class AccountLine(Line):
    """A player's record (``store.accounts``): the name as first registered, the token
    generation (tokens of an earlier one stay revoked after the move), whether it is
    disabled, and the local password's hash or the Cognito pool's ``sub``."""

    kind: Literal["account"] = "account"
    name: str
    created_ms: int = Field(ge=0)
    generation: int = Field(ge=0)
    disabled: bool
    password_hash: str | None
    sub: str | None = Field(min_length=1)

    @field_validator("name")
    @classmethod
    def _a_player_name(cls, name: str) -> str:
        return check_player_name(name)  # the rule every way of signing in applies

    @field_validator("password_hash")
    @classmethod
    def _an_argon2_hash(cls, password_hash: str | None) -> str | None:
        if password_hash is not None:
            # Imported here: argon2 is the local server's, not the Lambda layer's.
            from numbridge.local.accounts.passwords import HashOutOfBounds, check_hash

            # A hash of any cost would be run at its player's (or a guesser's) sign-in.
            try:
                check_hash(password_hash)
            except HashOutOfBounds as exc:
                raise ValueError(f"a password hash this club will not check ({exc}): "
                                 "nobody could sign in with it") from None
        return password_hash

    def account(self) -> Account:
        return Account(name=self.name, created_ms=self.created_ms,
                       generation=self.generation, disabled=self.disabled,
                       password_hash=self.password_hash, sub=self.sub)


class AccountsSection:
    kind = "account"
    model: type[Line] = AccountLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        for pk in partitions:
            if not pk.startswith(keys.account("")):
                continue
            item = store.get(pk, keys.ACCOUNT)
            if item is None:
                continue
            a = Account.of(item)
            yield AccountLine(name=a.name, created_ms=a.created_ms, generation=a.generation,
                              disabled=a.disabled, password_hash=a.password_hash, sub=a.sub)

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, AccountLine)
        return as_new([Put(line.account().item())])


# ---------------------------------------------------------------- tournaments


class TournamentGameLine(Part):
    opponent: str
    seat: Literal["blue", "red"]
    outcome: Literal["win", "draw", "loss"]
    game: str


class TournamentCountLine(Part):
    shard: int = Field(ge=0)
    players: int = Field(ge=0)


class TournamentPlayerLine(Part):
    name: str = Field(min_length=1)
    rating: float
    joined_ms: int = Field(ge=0)
    active: bool
    score2: int
    games: int = Field(ge=0)
    history: list[TournamentGameLine]
    byes: int = Field(ge=0)
    missed: int = Field(ge=0)
    playing: str
    final_rank: int | None
    tiebreaks: list[float]


class TournamentPairingLine(Part):
    round: int = Field(ge=0)
    slot: str = Field(min_length=1)
    game: str | None
    blue: str | None
    red: str | None
    bye: str | None
    done: bool
    winner: Literal["blue", "red"] | None


class TournamentRoundLine(Part):
    round: int = Field(ge=1)
    pairs: list[list[str]]  # [blue, red] each

    @field_validator("pairs")
    @classmethod
    def _pairs_of_two(cls, pairs: list[list[str]]) -> list[list[str]]:
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError("a round's pair names two players")
        return pairs
    bye: str | None
    absent: list[str]
    paired_ms: int = Field(ge=0)


class TournamentWaitLine(Part):
    player: str = Field(min_length=1)
    since_ms: int = Field(ge=0)


class TournamentLine(Line):
    """A tournament whole: the event, its players (scores, games, standing), its rounds,
    pairings and byes, the games of it being played, an arena's free players and its
    count of players, shard by shard. Not its last standings push (a pacing mark)."""

    kind: Literal["tournament"] = "tournament"
    id: str = Field(min_length=1)
    name: str
    type: Literal["arena", "swiss", "round_robin"]
    room: str
    rated: bool
    status: Literal["upcoming", "running", "finished"]
    starts_ms: int
    created_ms: int
    ends_ms: int | None
    rounds: int | None
    round: int = Field(ge=0)
    players: int = Field(ge=0)
    cancelled: Literal["by_host", "too_few_players"] | None
    order: list[str]
    entrants: list[TournamentPlayerLine]
    pairings: list[TournamentPairingLine]
    round_plans: list[TournamentRoundLine]
    live: list[str]  # the games being played (each one of the pairings)
    waiting: list[TournamentWaitLine]
    counts: list[TournamentCountLine]  # each shard of the count held

    @model_validator(mode="after")
    def _its_live_games_are_paired(self) -> TournamentLine:
        paired = {p.game for p in self.pairings if p.game}
        if not set(self.live) <= paired:
            raise ValueError(f"tournament {self.id}: a game being played that no pairing "
                             "names")
        return self


class TournamentsSection:
    kind = "tournament"
    model: type[Line] = TournamentLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        found = Tournaments(store)
        for tid in _of(partitions, keys.tournament("")):
            t = found.get(tid)
            if t is None:
                continue
            pairings = found.pairings(tid)
            plans = [found.round_plan(tid, n) for n in range(1, t.round + 1)]
            yield TournamentLine(
                id=t.id, name=t.name, type=t.kind, room=t.room, rated=t.rated,
                status=t.status, starts_ms=t.starts_ms, created_ms=t.created_ms,
                ends_ms=t.ends_ms, rounds=t.rounds, round=t.round, players=t.players,
                cancelled=t.cancelled, order=list(t.order),
                entrants=[TournamentPlayerLine(
                    name=e.name, rating=e.rating, joined_ms=e.joined_ms, active=e.active,
                    score2=e.score2, games=e.games,
                    history=[TournamentGameLine(opponent=p.opponent, seat=_seat_of(p.seat),
                                                outcome=p.outcome, game=p.game)
                             for p in e.history],
                    byes=e.byes, missed=e.missed, playing=e.playing,
                    final_rank=e.final_rank, tiebreaks=list(e.tiebreaks))
                    for e in found.all_players(tid)],
                pairings=[TournamentPairingLine(
                    round=p.round, slot=p.slot, game=p.game, blue=p.blue, red=p.red,
                    bye=p.bye, done=p.done, winner=_seat_of(p.winner) if p.winner else None)
                    for p in pairings],
                round_plans=[TournamentRoundLine(
                    round=r.round, pairs=[list(p) for p in r.pairs], bye=r.bye,
                    absent=list(r.absent), paired_ms=r.paired_ms) for r in plans if r is not None],
                live=[str(i["game"]) for i in found.live(tid)],
                waiting=[TournamentWaitLine(player=str(w["player"]),
                                            since_ms=int(str(w["since_ms"])))
                         for w in found.waiting(tid)],
                counts=[TournamentCountLine(shard=n, players=players)
                        for n, players in sorted(found.count_shards(tid).items())])

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, TournamentLine)
        tid = line.id
        writes: list[Write] = [
            Entrant(name=e.name, rating=e.rating, joined_ms=e.joined_ms, active=e.active,
                    score2=e.score2, games=e.games,
                    history=tuple(Played(h.opponent, h.seat, h.outcome, h.game)
                                  for h in e.history), byes=e.byes,
                    missed=e.missed, playing=e.playing, final_rank=e.final_rank,
                    tiebreaks=tuple(e.tiebreaks)).put_write(tid, fresh=True)
            for e in line.entrants]
        pairs = {}
        for p in line.pairings:
            pairing = Pairing(tid, p.round, p.slot, game=p.game, blue=p.blue, red=p.red,
                              bye=p.bye, done=p.done, winner=p.winner)
            writes.append(pairing.put_write(fresh=True))
            if p.game:
                pairs[p.game] = pairing.sort_key
        writes += [RoundPlan(r.round, tuple((b, r_) for b, r_ in r.pairs), r.bye,
                             tuple(r.absent)).put_write(
            tid, r.paired_ms) for r in line.round_plans]
        writes += [Tournaments.live_write(tid, game, pairs[game]) for game in line.live]
        writes += [Tournaments.wait_write(tid, w.player, w.since_ms) for w in line.waiting]
        writes += [Tournaments.count_put(tid, c.shard, c.players) for c in line.counts]
        # Last: the tournament's own item (a step finds it only with the rest there).
        writes.append(Tournament(
            id=tid, name=line.name, kind=line.type, room=line.room, rated=line.rated,
            status=line.status, starts_ms=line.starts_ms, created_ms=line.created_ms,
            ends_ms=line.ends_ms, rounds=line.rounds, round=line.round,
            players=line.players, cancelled=line.cancelled,
            order=tuple(line.order)).put_write(None))
        return as_new(writes)


def _seat_of(seat: str) -> Literal["blue", "red"]:
    if seat in ("blue", "red"):
        return seat  # type: ignore[return-value]  # checked just above
    raise ValueError(f"a tournament seat {seat!r}")


# The sections, in the order a file holds them. A new kind of record is one more
# Section here; a file from a newer version with a section this one does not know is
# refused whole (and a file from before a section, without it, is read as it was).
SECTIONS: tuple[Section, ...] = (GamesSection(), PlayersSection(), ProposalsSection(),
                                 ReceiptsSection(), AccountsSection(), TournamentsSection())
