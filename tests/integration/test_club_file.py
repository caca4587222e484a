"""The club file's promises, on each store adapter: a file that cannot be read whole,
or that disagrees with what the store holds, writes nothing; an import cut short
is finished by running it again; the sections are the one place a new kind of
record is added; the file is its owner's only."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from harness import World, dynamodb_store
from numbridge.cli import main
from numbridge.clubfile.files import ClubFileError
from numbridge.clubfile.lines import Line
from numbridge.clubfile.moving import ImportConflict, export_club, import_club
from numbridge.clubfile.sections import SECTIONS, as_new
from numbridge.local.accounts.signing import SignInRefused, SignIns
from numbridge.store.accounts import Account, Accounts
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.port import ListingStore, Put
from numbridge.store.sqlite import SqliteStore
from players import first_moves, play_out, start_game
from testkit.accounts import PASSWORD, cheap_passwords
from testkit.moto_server import client, in_process

_tables = iter(range(1000))


def build_club(world: World, path: Path) -> Path:
    """Three games (one whole, one resigned, one in play) and a proposal, exported."""
    ana, bob = world.join("ana"), world.join("bob")
    whole = start_game(world, "blitz", ana, bob, colour="blue")
    play_out(world, whole, {"ana": ana, "bob": bob})
    resigned = start_game(world, "bridge", bob, ana, colour="red")
    first_moves(world, resigned, {"ana": ana, "bob": bob})
    assert bob.ask("resign", game=resigned)["type"] == "ack"
    playing = start_game(world, "domains", ana, bob, colour="blue")
    first_moves(world, playing, {"ana": ana, "bob": bob})
    assert ana.ask("propose", room="blitz", colour="red")["type"] == "proposal"
    # Accounts of every kind: ana and bob made at their first connect (no password),
    # then ana claims hers with one, as on a one-person machine (generation 1); Cara with
    # a password, disabled (generation 2); Dan a Cognito player (his pool's sub).
    signing = sign_ins(world.store)
    signing.sign_in("ana", PASSWORD, may_claim=True)
    signing.sign_in("Cara", PASSWORD)
    accounts = Accounts(world.store)
    accounts.revoke("Cara")
    accounts.set_disabled("Cara", True)
    assert accounts.add(Account(name="Dan", created_ms=world.clock(), sub="sub-of-dan"))
    export_club(listing(world.store), path, source="test", now_ms=world.clock())
    return path


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club played once per worker (on SQLite: the file is the same from either
    store, and test_the_accounts_the_file_was_exported_from exports from each)."""
    folder = tmp_path_factory.mktemp("club")
    with in_process():
        store = SqliteStore(folder / "club.db")
        world = World(store, client("sqs"))
        try:
            return build_club(world, folder / "club.jsonl")
        finally:
            world.close()
            store.close()


@pytest.fixture
def club(exported: Path, tmp_path: Path) -> Path:
    """This test's copy of the club file (tests rewrite it)."""
    path = tmp_path / "club.jsonl"
    shutil.copyfile(exported, path)
    path.chmod(0o600)
    return path


def sign_ins(store: Any) -> SignIns:
    return SignIns(Accounts(store), "club-file-secret-0123456789abcdef0123", cheap_passwords())


def accounts_in(store: Any) -> dict[str, Account]:
    return {a.name: a for a in Accounts(store).all()}


def listing(store: Any) -> ListingStore:
    assert isinstance(store, SqliteStore | DynamoStore)
    return store


@pytest.fixture(params=["dynamodb", "sqlite"])
def new_store(request: pytest.FixtureRequest, tmp_path: Path,
              aws: None) -> Iterator[Callable[[], Any]]:
    """Empty stores of one adapter, made on demand."""
    made: list[SqliteStore] = []

    def new() -> Any:
        if request.param == "sqlite":
            store = SqliteStore(tmp_path / f"store-{len(made)}.db", synchronous="NORMAL")
            made.append(store)
            return store
        from harness import create_tables

        dynamodb = client("dynamodb")
        name = f"target-{next(_tables)}"
        create_tables(dynamodb, {"GameTable": name})
        return DynamoStore(dynamodb, name)

    yield new
    for store in made:
        store.close()


@pytest.fixture
def target(new_store: Callable[[], Any]) -> Any:
    """An empty store, of each adapter."""
    return new_store()


def dump(store: Any) -> dict[tuple[str, str], dict[str, Any]]:
    return {(str(i["pk"]), str(i["sk"])): i for pk in store.partitions()
            for i in store.query(pk).items}


def rewrite(path: Path, change: Callable[[list[str]], list[str]]) -> Path:
    lines = path.read_text().splitlines()
    path.write_text("".join(f"{line}\n" for line in change(lines)))
    return path


def edit(kind: str, change: Callable[[dict[str, Any]], None]) -> Callable[[list[str]],
                                                                         list[str]]:
    """Change the first line of ``kind``, whose JSON ``change`` edits in place."""
    def changed(lines: list[str]) -> list[str]:
        for n, line in enumerate(lines):
            data = json.loads(line)
            if data["kind"] == kind:
                change(data)
                lines[n] = json.dumps(data)
                return lines
        raise AssertionError(f"no {kind} line")
    return changed


def _set(path: Sequence[str | int], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        at: Any = data
        for step in path[:-1]:
            at = at[step]
        at[path[-1]] = value
    return change


BROKEN: dict[str, tuple[Callable[[list[str]], list[str]], str]] = {
    "cut short": (lambda lines: lines[:-2], "ends without its end line"),
    "last line cut in half": (lambda lines: [*lines[:-1], lines[-1][:10]], "not JSON"),
    "a count that does not match": (edit("end", _set(["counts", "game"], 4)), "counts"),
    "another version": (edit("header", _set(["version"], 2)), "version 2"),
    "not a club file": (lambda lines: ['{"kind": "header"}', *lines[1:]], "not a club file"),
    "a section unknown here": (edit("header", _set(["sections", 0], "notes")),
                               "does not know: notes"),
    "a state the engine cannot read": (edit("game", _set(["state", "status"], "won")),
                                       "unknown status"),
    "a number as a string": (edit("player", _set(["ratings", "blitz", "games"], "1")),
                             "valid integer"),
    "a field no model names": (edit("proposal", _set(["proposal", "secret"], "x")),
                               "Extra inputs"),
    "an event that is no documented frame": (
        edit("game", _set(["events", 0, "frame", "type"], "leak")), "undocumented frame"),
    "a gap in the events": (edit("game", lambda d: d["events"].pop(1)), "needs events"),
    "a line after the end": (lambda lines: [*lines, lines[1]], "after the end line"),
    "a damaged password hash": (
        edit("account", _set(["password_hash"], "$argon2id$v=19$m=64,t=1")), "no Argon2 hash"),
    "a password in the clear": (edit("account", _set(["password_hash"], PASSWORD)),
                                "no Argon2 hash"),
    # One sign-in would run it: 4 GiB, four billion passes (once accepted).
    "a password hash that costs more than the club checks": (edit("account", _set(
        ["password_hash"], "$argon2id$v=19$m=4194304,t=4294967295,p=1"
        "$c29tZXNhbHRzb21lc2FsdA$c29tZWhhc2hzb21laGFzaHNvbWVoYXNoc29tZWhhc2g")),
        "memory_cost of 4194304"),
    "an Argon2i password hash": (edit("account", _set(
        ["password_hash"], "$argon2i$v=19$m=64,t=1,p=1"
        "$c29tZXNhbHRzb21lc2FsdA$c29tZWhhc2hzb21laGFzaHNvbWVoYXNoc29tZWhhc2g")),
        "Argon2id"),
    "an account of a name no player may have": (
        edit("account", _set(["name"], "bot-easy")), "club's own"),
    "an account with a name that is none": (edit("account", _set(["name"], "ana bob")),
                                            r"'ana bob': ' ' \(U\+0020 SPACE\) is not allowed"),
    "a negative generation": (edit("account", _set(["generation"], -1)),
                              "greater than or equal to 0"),
    "disabled as a string": (edit("account", _set(["disabled"], "false")), "valid boolean"),
    "an account without its generation": (
        edit("account", lambda d: d.pop("generation")), "generation: Field required"),
    "an empty sub": (edit("account", _set(["sub"], "")), "at least 1 character"),
    "two accounts of one name in two spellings": (
        lambda lines: twice_in_capitals(lines), "two records put the item"),
    "a game twice": (lambda lines: repeated(lines, "game"), "two records put the item"),
}


def repeated(lines: list[str], kind: str, change: Callable[[dict[str, Any]], None]
             = lambda d: None) -> list[str]:
    """The first line of ``kind`` once more (changed), the end line counting it."""
    data = json.loads(next(line for line in lines if json.loads(line)["kind"] == kind))
    change(data)
    end = json.loads(lines[-1])
    end["counts"][kind] += 1
    return [*lines[:-1], json.dumps(data), json.dumps(end)]


def twice_in_capitals(lines: list[str]) -> list[str]:
    return repeated(lines, "account", lambda d: d.update(name=d["name"].upper()))


@pytest.mark.parametrize("broken", BROKEN)
def test_a_file_not_readable_whole_is_refused_and_nothing_is_written(
        club: Path, target: Any, broken: str) -> None:
    change, message = BROKEN[broken]
    rewrite(club, change)
    with pytest.raises(ClubFileError, match=message):
        import_club(target, club)
    assert dump(target) == {}


def test_an_item_the_store_holds_otherwise_refuses_the_whole_import(
        club: Path, target: Any) -> None:
    import_club(target, club)
    [rating] = [i for k, i in dump(target).items() if k[1] == "RATING#blitz"
                and k[0] == "PLAYER#ana"]
    target.put({**rating, "games": 99})  # as if the club had played on after the export
    before = dump(target)
    with pytest.raises(ImportConflict, match=r"1 items differ.*PLAYER#ana, RATING#blitz"):
        import_club(target, club)
    assert dump(target) == before


def test_accounts_move_as_they_were_and_sign_in_as_before(club: Path, target: Any) -> None:
    """Every record whole: the password's hash, the generation (tokens revoked before
    the move stay revoked), the disabled flag, the pool's sub."""
    done = import_club(target, club)
    assert done.written["account"] == 4
    before = accounts_in(target)
    assert set(before) == {"ana", "bob", "Cara", "Dan"}
    assert (before["ana"].generation, before["Cara"].generation) == (1, 2)
    assert before["Cara"].disabled and before["Dan"].sub == "sub-of-dan"
    assert before["bob"].password_hash is None
    signing = sign_ins(target)
    assert signing.sign_in("ANA", PASSWORD).player == "ana"
    with pytest.raises(SignInRefused, match="bad_password"):
        signing.sign_in("ana", PASSWORD + "!")
    with pytest.raises(SignInRefused, match="disabled"):
        signing.sign_in("cara", PASSWORD)
    with pytest.raises(SignInRefused, match="bad_password"):  # a Cognito player's
        signing.sign_in("dan", PASSWORD)
    assert accounts_in(target) == before


def test_the_accounts_the_file_was_exported_from(world: World, tmp_path: Path) -> None:
    club = build_club(world, tmp_path / "club.jsonl")
    target = SqliteStore(tmp_path / "target.db")
    import_club(target, club)
    assert accounts_in(target) == accounts_in(world.store)
    target.close()


@pytest.mark.parametrize("meanwhile", ["revoked", "disabled", "signed up in capitals"])
def test_an_account_changed_since_the_export_refuses_the_import(
        club: Path, target: Any, meanwhile: str) -> None:
    """As for every record: the target's account wins nothing and loses nothing; the
    import is refused whole (a revocation undone by an import would let old tokens
    in again)."""
    if meanwhile == "signed up in capitals":
        sign_ins(target).sign_in("ANA", PASSWORD)  # before the import: another player
    else:
        import_club(target, club)
        if meanwhile == "revoked":
            Accounts(target).revoke("ana")
        else:
            Accounts(target).set_disabled("bob", True)
    before = dump(target)
    with pytest.raises(ImportConflict, match=r"NAME#(ana|bob), ACCOUNT"):
        import_club(target, club)
    assert dump(target) == before


def test_a_file_from_before_accounts_still_imports(club: Path, target: Any) -> None:
    def without_accounts(lines: list[str]) -> list[str]:
        header, end = json.loads(lines[0]), json.loads(lines[-1])
        header["sections"].remove("account")
        del end["counts"]["account"]
        kept = [line for line in lines[1:-1] if json.loads(line)["kind"] != "account"]
        return [json.dumps(header), *kept, json.dumps(end)]

    rewrite(club, without_accounts)
    done = import_club(target, club)
    assert "account" not in json.loads(club.read_text().splitlines()[0])["sections"]
    assert done.written["account"] == 0 and sum(done.written.values()) > 0
    assert accounts_in(target) == {}


class NoWrites:
    """A store that fails the test on any write."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        if name in {"put", "delete", "transact"}:
            raise AssertionError(f"a second import called {name}")
        return getattr(self.store, name)


def test_a_second_import_writes_nothing_at_all(club: Path, target: Any) -> None:
    first = import_club(target, club)
    assert sum(first.written.values()) > 0
    before = dump(target)
    again = import_club(NoWrites(target), club)
    assert sum(again.written.values()) == 0
    assert again.present == first.written
    assert dump(target) == before


class Interrupted(Exception):
    pass


class FailsAfter:
    """A store whose writes stop after ``n`` (a lost connection)."""

    def __init__(self, store: Any, n: int) -> None:
        self.store, self.left = store, n

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def put(self, item: Any, condition: Any = None) -> None:
        if self.left == 0:
            raise Interrupted
        self.left -= 1
        self.store.put(item, condition)


def test_an_import_cut_short_is_finished_by_running_it_again(
        club: Path, target: Any, tmp_path: Path) -> None:
    whole = SqliteStore(tmp_path / "whole.db", synchronous="NORMAL")
    done = import_club(whole, club)
    with pytest.raises(Interrupted):
        import_club(FailsAfter(target, 20), club)
    assert 0 < len(dump(target)) < len(dump(whole))
    again = import_club(target, club)
    assert sum(again.present.values()) > 0
    assert sum(again.written.values()) + sum(again.present.values()) == sum(
        done.written.values())
    assert dump(target) == dump(whole)
    whole.close()


class NotesSection:
    """A section of another kind of record: one item each."""

    kind = "note"

    class NoteLine(Line):
        kind: str = "note"
        name: str
        text: str

    model: type[Line] = NoteLine

    def export(self, store: ListingStore, partitions: Sequence[str],
               now_ms: int) -> Iterator[Line]:
        for pk in partitions:
            if pk.startswith("NOTE#"):
                item = store.get(pk, "NOTE")
                assert item is not None
                yield self.NoteLine(name=pk.removeprefix("NOTE#"), text=str(item["text"]))

    def writes(self, line: Line) -> list[Put]:
        assert isinstance(line, self.NoteLine)
        return as_new([Put({"pk": f"NOTE#{line.name}", "sk": "NOTE", "text": line.text})])


def test_a_new_kind_of_record_is_one_more_section(new_store: Callable[[], Any],
                                                   tmp_path: Path) -> None:
    source, target = new_store(), new_store()
    source.put({"pk": "NOTE#ana", "sk": "NOTE", "text": "plays blitz on Tuesdays"})
    sections = (*SECTIONS, NotesSection())
    path = tmp_path / "notes.jsonl"
    counts = export_club(listing(source), path, source="test", now_ms=1_700_000_000_000,
                         sections=sections)
    assert counts["note"] == 1
    assert json.loads(path.read_text().splitlines()[0])["sections"][-1] == "note"
    import_club(target, path, sections=sections)
    assert target.get("NOTE#ana", "NOTE")["text"] == "plays blitz on Tuesdays"
    # A numbridge without that section refuses the file whole.
    fresh = SqliteStore(tmp_path / "fresh.db")
    with pytest.raises(ClubFileError, match="does not know: note"):
        import_club(fresh, path)
    assert dump(fresh) == {}
    fresh.close()


def test_the_cli_moves_a_club_between_data_dirs_with_a_bar_only_on_a_terminal(
        aws: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    store = SqliteStore(tmp_path / "served.db")
    world = World(store, client("sqs"))
    ana, bob = world.join("ana"), world.join("bob")
    start_game(world, "blitz", ana, bob, colour="blue")
    source = tmp_path / "source"
    source.mkdir()
    world.store.backup(source / "numbridge.db")  # the club as `numbridge serve` keeps it
    out = tmp_path / "out.jsonl"
    assert main(["club", "export", "--data-dir", str(source), "--out", str(out)]) == 0
    assert out.stat().st_mode & 0o777 == 0o600
    printed = capsys.readouterr()
    assert "1 game" in printed.out and printed.err == ""  # no terminal, no bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["club", "import", str(out), "--data-dir", str(tmp_path / "new")]) == 0
    assert "importing" in terminal.getvalue()
    monkeypatch.undo()
    assert main(["club", "import", str(out), "--data-dir", str(tmp_path / "new")]) == 0
    assert "0 items written" in capsys.readouterr().out
    world.close()
    store.close()


def test_the_cli_refuses_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "header"}\n')
    assert main(["club", "import", str(bad), "--data-dir", str(tmp_path / "d")]) == 2
    refused = capsys.readouterr().err
    assert "not a club file" in refused and refused.endswith("nothing was written\n")
    assert main(["club", "export", "--data-dir", str(tmp_path / "none"),
                 "--out", str(tmp_path / "x")]) == 2
    assert "no club at" in capsys.readouterr().err
    assert main(["club", "import", str(bad), "--store", "dynamodb"]) == 2
    assert "needs --table" in capsys.readouterr().err


def test_dynamodb_store_needs_a_table_that_exists(aws: None, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    dynamodb_store(client("dynamodb"))  # the harness's table "games" exists
    out = tmp_path / "empty.jsonl"
    assert main(["club", "export", "--store", "dynamodb", "--table", "games",
                 "--out", str(out)]) == 0
    assert main(["club", "import", str(out), "--store", "dynamodb", "--table", "nope"]) == 2
    assert "table nope" in capsys.readouterr().err
