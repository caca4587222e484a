"""Names of every script the club speaks, through both stores: each name the rule
(numbridge.names) accepts signs up, reads back as written from its record, from a
finished game's archived record and from the player's list of games; a look-alike of a
taken name — a letter swapped for one of another script drawn the same — is refused
with ``bad_name`` or ``name_taken``, and changes nothing stored."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge.local.accounts.signing import SignInRefused, SignIns
from numbridge.names import fold_name, is_reserved, same_player
from numbridge.store import keys
from numbridge.store.accounts import Account, Accounts
from numbridge.store.club import Archive, PlayerGames
from numbridge.store.port import Store
from testkit.accounts import cheap_passwords

SECRET = "player-names-secret-0123456789abcdef"
PASSWORD = "plum kettle orbit 93"
SIGNS = "0123456789_.-"
SCRIPTS = {
    "Latin": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèñüöçåøłß",
    "Greek": "αβγδεζηθικλμνξοπρστυφχψωςάέήίόύώϊΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΉΊΌΎΏ",
    "Cyrillic": "абвгдежзийклмнопрстуфхцчшщъьюяѝёАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯЁЄІЇЈЉЊЋЎЏ",
}
# Letters each drawn like a letter of another script (Unicode's confusables): Latin and
# Cyrillic a e o p c x y A E O P C X Y; Greek omicron, alpha, iota, nu, rho, upsilon.
_LATIN = "aeopcxyAEOPCXY"
_CYRILLIC = "\u0430\u0435\u043e\u0440\u0441\u0445\u0443\u0410\u0415\u041e\u0420\u0421\u0425\u0423"
SWAPS = {**dict(zip(_LATIN, _CYRILLIC, strict=True)), **dict(zip(_CYRILLIC, _LATIN, strict=True)),
         **dict(zip("\u03bf\u03b1\u03b9\u03bd\u03c1\u03c5", "oaivpu", strict=True))}

names = st.sampled_from(sorted(SCRIPTS.values())).flatmap(
    lambda letters: st.text(alphabet=letters + SIGNS, min_size=2, max_size=32)
).filter(lambda n: not is_reserved(n))


@functools.cache
def finished_record() -> dict[str, Any]:
    from numbridge import rules
    from testkit.states import played

    return rules.archive_record(played("bridge", left=0))


def stored(store: Store) -> list[Account]:
    return list(Accounts(store).all())


def test_every_name_round_trips_and_a_look_alike_is_refused(store: Store) -> None:
    """Caught: a name of the club's scripts changed on its way through a store (its
    record, an archived game, the player's list of games), or a look-alike of a taken
    name signed up as a second player or wrote anything."""
    accounts, archive, games = Accounts(store), Archive(store), PlayerGames(store)
    sign_ins = SignIns(accounts, SECRET, cheap_passwords())
    holders: dict[str, str] = {}  # fold -> the name that holds it
    game_ids = (f"g-names-{n:04d}" for n in itertools.count())

    @settings(max_examples=30, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(name=names, data=st.data())
    def one(name: str, data: st.DataObject) -> None:
        new = fold_name(name) not in holders
        holder = holders.setdefault(fold_name(name), name)
        if not same_player(holder, name):
            with pytest.raises(SignInRefused) as refused:
                sign_ins.sign_in(name, PASSWORD)
            assert refused.value.code == "name_taken"
            return
        granted = sign_ins.sign_in(name, PASSWORD)
        assert granted.player == holder and granted.created == new
        record = accounts.get(name)
        assert record is not None and record.name == holder
        assert store.get(*accounts.key(name)) is not None  # under its fold, not elsewhere

        game = next(game_ids)
        played = {**finished_record(), "game": game, "players": {"blue": name, "red": "bob"}}
        store.transact([Archive.put_write(game, played),
                        PlayerGames.put_write(name, game, {"game": game, "by": name})])
        assert archive.get(game) == played  # the archive shows the name as written
        listed, _ = games.of_player(name)
        assert {"game": game, "by": name} in listed

        swappable = [i for i, ch in enumerate(name) if ch in SWAPS]
        if not swappable:
            return
        i = data.draw(st.sampled_from(swappable))
        look_alike = name[:i] + SWAPS[name[i]] + name[i + 1:]
        before = stored(store)
        with pytest.raises(SignInRefused) as refused:
            sign_ins.sign_in(look_alike, PASSWORD)
        assert refused.value.code in ("bad_name", "name_taken"), refused.value
        assert stored(store) == before

    one()


# ---------------------------------------------------------------- golden, on both stores

CYRILLIC_A = "\u0430"
GREEK_WITH_A_LATIN_I = "\u0393i\u03ce\u03c1\u03b3\u03bf\u03c2"  # "Γιώργος", its iota Latin


@pytest.fixture
def sign_ins(store: Store) -> SignIns:
    return SignIns(Accounts(store), SECRET, cheap_passwords())


def refusal(sign_ins: SignIns, name: str, password: str = PASSWORD) -> str:
    with pytest.raises(SignInRefused) as refused:
        sign_ins.sign_in(name, password)
    return refused.value.code


@pytest.mark.parametrize("name", ["Γιώργος", "Пламен"])
def test_a_greek_or_bulgarian_name_signs_up(sign_ins: SignIns, name: str) -> None:
    """Caught: both were ``bad_name`` (ASCII names only)."""
    granted = sign_ins.sign_in(name, PASSWORD)
    assert (granted.player, granted.created) == (name, True)
    assert sign_ins.accounts.get(name) is not None


def test_a_look_alike_of_a_taken_name_is_name_taken(sign_ins: SignIns) -> None:
    """Caught: ``ana`` with a Cyrillic first letter would be a second, look-alike player;
    a taken name must say it is taken, not "wrong password", whatever password is sent."""
    sign_ins.sign_in("ana", PASSWORD)
    for password in (PASSWORD, "another long password 7"):
        assert refusal(sign_ins, CYRILLIC_A + "na", password) == "name_taken"
    sign_ins.sign_in("sam", PASSWORD)
    assert refusal(sign_ins, "sarn") == "name_taken"  # rn drawn as m
    with pytest.raises(SignInRefused) as changed:
        sign_ins.change_password(CYRILLIC_A + "na", PASSWORD, "a new long password 8")
    assert changed.value.code == "name_taken"
    assert [a.name for a in sign_ins.accounts.all()] == ["ana", "sam"]


def test_one_player_in_any_case(sign_ins: SignIns) -> None:
    """Caught: "γιώργος" made a second account beside "Γιώργος", or signed in to his
    without his password."""
    sign_ins.sign_in("Γιώργος", PASSWORD)
    again = sign_ins.sign_in("γιώργος", PASSWORD)
    assert (again.player, again.created) == ("Γιώργος", False)
    assert refusal(sign_ins, "ΓΙΏΡΓΟΣ", "not his password at all") == "bad_password"
    assert refusal(sign_ins, GREEK_WITH_A_LATIN_I) == "name_taken"  # his, drawn alike


def test_a_name_too_long_is_bad_name_and_not_cut(sign_ins: SignIns) -> None:
    """Caught: a 40-character name made an account under its first 32 characters."""
    assert refusal(sign_ins, "a" * 40) == "bad_name"
    assert sign_ins.accounts.get("a" * 32) is None and not list(sign_ins.accounts.all())


def test_a_name_of_two_scripts_is_bad_name(sign_ins: SignIns) -> None:
    """Caught: a name hiding a letter of another script signed up (nobody holds its fold)."""
    assert refusal(sign_ins, GREEK_WITH_A_LATIN_I) == "bad_name"
    assert refusal(sign_ins, "Ivan" + CYRILLIC_A) == "bad_name"


@pytest.mark.parametrize("name", ["bot-x", "BOT-easy", "b0t-strong"])
def test_the_bots_names_stay_reserved(sign_ins: SignIns, name: str) -> None:
    """Caught: a bot seat's name in capitals or with 0 for o signed up, and its holder
    could move for the bot."""
    assert refusal(sign_ins, name) == "name_taken"


def test_a_look_alike_of_a_player_from_before_records_is_name_taken(store: Store) -> None:
    """Caught: a player with games and no record was found for a look-alike of their name
    and taken for it: "sarn" beside the games of "sam" was answered as a wrong password,
    and with open sign-in the name alone was given sam's record and token."""
    store.put({"pk": keys.player("sam"), "sk": keys.rating("classic"), "rating": 1500})
    sign_ins = SignIns(Accounts(store), SECRET, cheap_passwords())
    assert refusal(sign_ins, "sarn") == "name_taken"
    with pytest.raises(SignInRefused) as refused:
        sign_ins.sign_in("sarn", None)
    assert refused.value.code == "name_taken"
    assert stored(store) == []


# ---------------------------------------------------------------- records from before


def earlier_record(store: Store, account: Account) -> None:
    """A record as the version before look-alike folding wrote it: under the case fold."""
    folded = account.name.casefold()
    store.put({**account.item(), "pk": keys.account(folded), "gsi1sk": folded})


def test_a_record_from_before_is_found_changed_and_moved(store: Store) -> None:
    """Caught: a record under its earlier key ("sam", before m folded to rn) was not found,
    was written anew under the new key when changed, or was not moved by rekey."""
    accounts = Accounts(store)
    sam = Account(name="Sam", created_ms=1, generation=3, password_hash="h")
    earlier_record(store, sam)
    assert accounts.key("sam") != (keys.account("sam"), keys.ACCOUNT)  # m folds to rn
    assert accounts.get("SAM") == sam
    assert accounts.revoke("sam").generation == 4  # written where it was found
    assert store.get(keys.account("sam"), keys.ACCOUNT) is not None

    assert accounts.rekey() == (["Sam"], [])
    assert store.get(keys.account("sam"), keys.ACCOUNT) is None
    assert accounts.get("sam") == Account(name="Sam", created_ms=1, generation=4,
                                          password_hash="h")
    assert not accounts.add(Account(name="sarn", created_ms=2))  # its look-alike, now
    assert accounts.rekey() == ([], [])


def test_two_look_alikes_from_before_both_keep_their_records(store: Store) -> None:
    """Caught: rekey moved "sam" over "sarn"'s record (both from before, one key now),
    and one of the two players lost theirs."""
    accounts = Accounts(store)
    earlier_record(store, Account(name="sam", created_ms=1))
    earlier_record(store, Account(name="sarn", created_ms=2))  # already under its key
    assert accounts.rekey() == ([], ["sam"])
    found = [accounts.get(n) for n in ("Sam", "sarn")]
    assert [a and a.name for a in found] == ["sam", "sarn"]


def test_a_record_changed_while_rekey_moves_it_is_left_as_changed(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Caught: rekey deleted the record from before without its condition, so a revoke
    between rekey's read and its move was lost — the record moved as read, with the
    generation before the revoke, and the revoked tokens worked again."""
    accounts = Accounts(store)
    earlier_record(store, Account(name="Sam", created_ms=1, generation=3, password_hash="h"))
    read = store.get

    def read_then_revoked(pk: str, sk: str, *args: Any, **kwargs: Any) -> Any:
        item = read(pk, sk, *args, **kwargs)
        if pk == keys.account("sam") and item is not None and item["generation"] == 3:
            store.put({**item, "generation": 4})  # a revoke, just after rekey read it
        return item

    monkeypatch.setattr(store, "get", read_then_revoked)
    assert accounts.rekey() == ([], ["Sam"])  # left for next time, not moved as read
    monkeypatch.undo()
    found = accounts.get("sam")
    assert found is not None and found.generation == 4
    assert accounts.rekey() == (["Sam"], [])
    moved = accounts.get("sam")
    assert moved is not None and moved.generation == 4
