"""Moving a club between stores (``numbridge club export`` / ``import``): 200 games
played on SQLite, moved to DynamoDB (moto) and back, and every answer the club
gives about them — ``games``, ``record``, ``leaderboard``, ``sync`` — the same
through the handlers on each store; and its accounts: the same password signs in,
a revoked token stays revoked, a disabled player stays out."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import SECRET, Conn, World
from numbridge.auth import MAX_TTL_S
from numbridge.cli import main
from numbridge.clubfile.moving import export_club
from numbridge.local.accounts.signing import SignInRefused, SignIns
from numbridge.sam_template import create_tables
from numbridge.service import context as ctx
from numbridge.service.context import wall_clock_ms
from numbridge.store.accounts import Account, Accounts
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.sqlite import SqliteStore
from players import first_moves, play_out, start_game
from testkit.accounts import PASSWORD, cheap_passwords
from testkit.moto_server import client

PLAYERS = [f"p{n:02d}" for n in range(16)]
ROOMS = ("bridge", "blitz", "domains")
GAMES = 200
WHOLE = 6  # played to the end (the rest are resigned, drawn, aborted, adjourned...)
IN_PROGRESS = 4
ADJOURNED = 2
# Players with a password (the local server's sign-in), besides PLAYERS (who connect
# with operator tokens and have records of generation 0): Zoe as she signed up, Yan
# after changing his password twice (generation 2), Xia disabled by the host.
ZOE, YAN, XIA = "Zoe", "yan", "xia"
NEW_PASSWORD = "another horse battery"


class NoTimers:
    """Timers are not what is moved (each game's deadline is in its state): sending
    none makes the club quicker to play."""

    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        pass


class Club:
    """A world of connected players and the games they played."""

    def __init__(self, world: World) -> None:
        world.use_store(world.store)
        world.svc = dataclasses.replace(world.svc, timers=NoTimers())
        ctx.install(world.svc)
        self.world = world
        self.conns = {name: world.join(name) for name in PLAYERS}
        self.games: list[str] = []

    def play(self, seed: int = 5) -> None:
        rng = random.Random(seed)
        for n in range(GAMES):
            blue, red = rng.sample(PLAYERS, 2)
            room = ROOMS[n % len(ROOMS)]
            game = start_game(self.world, room, self.conns[blue], self.conns[red],
                              colour="blue")
            self.games.append(game)
            seats = {blue: self.conns[blue], red: self.conns[red]}
            if n < WHOLE:
                play_out(self.world, game, seats, seed=n)
                continue
            if n % 17 == 0:  # aborted before a move: finished, never rated
                assert self.conns[red].ask("abort", game=game)["type"] == "ack"
                continue
            if n % 4 == 0 or n >= GAMES - IN_PROGRESS - ADJOURNED:
                first_moves(self.world, game, seats, seed=n)
            if n >= GAMES - IN_PROGRESS:
                continue  # still being played
            if n >= GAMES - IN_PROGRESS - ADJOURNED:
                assert self.conns[blue].ask("offer_adjourn", game=game)["type"] == "ack"
                assert self.conns[red].ask("accept_adjourn", game=game)["type"] == "ack"
            elif n % 11 == 0:
                assert self.conns[blue].ask("offer_draw", game=game)["type"] == "ack"
                assert self.conns[red].ask("accept_draw", game=game)["type"] == "ack"
            else:
                loser = blue if n % 2 else red
                assert self.conns[loser].ask("resign", game=game)["type"] == "ack"
        finished = self.games[WHOLE + 1]
        offer = self.conns[self.players(finished)[0]].ask("offer_rematch", game=finished)
        assert offer["type"] == "ack", offer
        for name in PLAYERS[:3]:
            proposed = self.conns[name].ask("propose", room="blitz", colour="random")
            assert proposed["type"] == "proposal", proposed

    def sign_up(self) -> None:
        """The players with passwords, and a token of each kind to try after the move."""
        signing = sign_ins(self.world.store)
        self.tokens = {ZOE: signing.sign_in(ZOE, PASSWORD).token}
        self.tokens["yan-revoked"] = signing.sign_in(YAN, PASSWORD).token
        signing.change_password(YAN, PASSWORD, NEW_PASSWORD)
        signing.change_password(YAN, NEW_PASSWORD, PASSWORD)
        self.tokens[YAN] = signing.sign_in(YAN, PASSWORD).token
        self.tokens[XIA] = signing.sign_in(XIA, PASSWORD).token
        Accounts(self.world.store).set_disabled(XIA, True)
        assert self.accounts()[YAN].generation == 2

    def accounts(self) -> dict[str, Account]:
        return accounts_of(self.world)

    def players(self, game: str) -> list[str]:
        return seated(self.world, game)


def sign_ins(store: Any) -> SignIns:
    return SignIns(Accounts(store), SECRET, cheap_passwords(), ttl_s=MAX_TTL_S)


def accounts_of(world: World) -> dict[str, Account]:
    return {a.name: a for a in Accounts(world.store).all()}


def accounts_work_as_before(world: World, club: Club) -> None:
    """On the store a club moved to, each account is the record it was, and acts so:
    the same password signs in (the name in any case), a token from before the move
    connects unless it was revoked before it, a disabled player is refused."""
    assert accounts_of(world) == club.accounts()
    signing = sign_ins(world.store)
    granted = signing.sign_in("ZOE", PASSWORD)
    assert granted.player == ZOE and not granted.created and not granted.claimed
    assert signing.sign_in(YAN, PASSWORD).player == YAN
    with pytest.raises(SignInRefused, match="bad_password"):
        signing.sign_in(YAN, NEW_PASSWORD)
    with pytest.raises(SignInRefused, match="disabled"):
        signing.sign_in(XIA, PASSWORD)
    for token in (club.tokens[ZOE], club.tokens[YAN], granted.token):
        status, conn = world.connect(None, token=token)
        assert status == 200 and conn is not None
        conn.close()
    assert world.connect(None, token=club.tokens["yan-revoked"])[0] == 401
    assert world.connect(None, token=club.tokens[XIA])[0] == 403
    assert accounts_of(world) == club.accounts()  # signing in changed no record


def seated(world: World, game: str) -> list[str]:
    """The game's blue and red players."""
    state = world.stored_state(game)["sides"]
    return [state["blue"]["name"], state["red"]["name"]]




def answers(world: World, games: list[str]) -> dict[str, Any]:
    """What the club answers about itself, asked of each player (the same request ids
    in every world: the answers carry them): every game's record and events. All 200
    on moto cost about 34 s of CPU here (64 s on the loaded machine), a third of the
    test; the ~50 asked before left most resigned and drawn games unchecked."""
    conns: dict[str, Conn] = {name: world.join(name) for name in PLAYERS}
    out: dict[str, Any] = {}
    for name, conn in conns.items():
        out[f"games/{name}"] = pages(conn, "games", f"games-{name}")
    for variant in ROOMS:
        out[f"leaderboard/{variant}"] = pages(conns[PLAYERS[0]], "leaderboard",
                                              f"board-{variant}", variant=variant)
    for game in games:
        blue, red = (conns[name] for name in seated(world, game))
        out[f"record/{game}"] = red.ask("record", game=game, id=f"record-{game}")
        out[f"sync/{game}"] = blue.ask("sync", game=game, v=0, id=f"sync-{game}")
        out[f"view/{game}"] = red.ask("sync", game=game, id=f"view-{game}")
    out["proposals"] = conns[PLAYERS[0]].ask("proposals", room="blitz", id="proposals")
    out["live"] = conns[PLAYERS[0]].ask("live", id="live")
    for conn in conns.values():
        conn.close()
    return out


def pages(conn: Conn, action: str, rid: str, **fields: Any) -> list[dict[str, Any]]:
    got, after, n = [], None, 0
    while True:
        answer = conn.ask(action, id=f"{rid}-{n}", **fields,
                          **({} if after is None else {"after": after}))
        assert answer["type"] != "error", answer
        got.append(answer)
        after, n = answer.get("next"), n + 1
        if after is None:
            return got


def records(path: Path) -> list[str]:
    """The file's record lines (the header says when and where it was exported)."""
    return path.read_text().splitlines()[1:]


@pytest.fixture
def source(tmp_path: Path, aws: None) -> Iterator[Club]:
    (tmp_path / "here").mkdir()
    store = SqliteStore(tmp_path / "here" / "numbridge.db", synchronous="NORMAL")
    world = World(store, client("sqs"))
    # The wall's time: `numbridge club export` keeps the receipts of the last hour by it.
    world.clock.now = wall_clock_ms()
    club = Club(world)
    club.play()
    club.sign_up()
    yield club
    world.close()
    store.close()


def test_a_club_moves_to_dynamodb_and_back_answering_the_same(
        source: Club, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    world = source.world
    here = answers(world, source.games)
    exported = tmp_path / "club.jsonl"
    counts = export_club(world.store, exported, source="test", now_ms=world.clock())  # type: ignore[arg-type]
    assert counts["game"] == GAMES and counts["player"] == len(PLAYERS)
    assert counts["proposal"] == 3 and counts["receipt"] > GAMES
    assert counts["account"] == len(PLAYERS) + 3
    assert exported.stat().st_mode & 0o777 == 0o600  # it holds solutions and hands

    dynamodb = client("dynamodb")
    create_tables(dynamodb, {"GameTable": "club"})  # what deploying the stack does
    move = ["club", "import", str(exported), "--store", "dynamodb", "--table", "club"]
    assert main(move) == 0
    assert "already there" in capsys.readouterr().out
    aws = DynamoStore(dynamodb, "club")
    there_world = World(aws, client("sqs"))
    there_world.clock.now = world.clock()
    there = answers(there_world, source.games)
    assert there == here
    accounts_work_as_before(there_world, source)

    # Again: nothing is written (test_club_file proves no write is even attempted).
    assert main(move) == 0
    assert "0 items written" in capsys.readouterr().out

    # And back, into a new data directory: the same records, the same answers.
    returned = tmp_path / "back.jsonl"
    assert main(["club", "export", "--store", "dynamodb", "--table", "club",
                 "--out", str(returned)]) == 0
    assert records(returned) == records(exported)  # the whole club, as it was
    assert main(["club", "import", str(returned), "--data-dir", str(tmp_path / "back")]) == 0
    back_store = SqliteStore(tmp_path / "back" / "numbridge.db")
    back_world = World(back_store, client("sqs"))
    back_world.clock.now = world.clock()
    assert answers(back_world, source.games) == here
    accounts_work_as_before(back_world, source)
    back_world.close()
    back_store.close()


def test_a_retry_after_the_move_gets_the_answer_it_had(source: Club, tmp_path: Path) -> None:
    """An acknowledged request whose ack was lost is retried on the new store: its
    receipt moved with the club, so it is answered, not applied again."""
    world = source.world
    game = source.games[-1]  # still being played
    state = world.stored_state(game)
    mover = source.conns[state["sides"][state["to_move"]]["name"]]
    exported = tmp_path / "club.jsonl"
    ack = mover.ask("resign", game=game, id="resign-once")
    assert ack["type"] == "ack"
    export_club(world.store, exported, source="test", now_ms=world.clock())  # type: ignore[arg-type]
    dynamodb = client("dynamodb")
    create_tables(dynamodb, {"GameTable": "club"})
    assert main(["club", "import", str(exported), "--store", "dynamodb", "--table", "club"]) == 0
    there = World(DynamoStore(dynamodb, "club"), client("sqs"))
    there.clock.now = world.clock()
    retried = there.join(mover.player).ask("resign", game=game, id="resign-once")
    assert retried == ack
    assert json.loads(json.dumps(there.stored_state(game)))["v"] == world.stored_state(game)["v"]
