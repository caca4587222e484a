"""The names' rule (numbridge.names): letters of one script — Latin, Greek or Cyrillic —
with digits, ``_``, ``.``, ``-``, 2 to 32 characters in NFC; one player per spelling
in any case, and one owner for names that look alike (Unicode's confusables)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.names import (
    BadName,
    _prototypes,
    _script_ranges,
    case_fold,
    check_player_name,
    fold_name,
    is_reserved,
    same_player,
    script_of,
)

CYRILLIC_A = "\u0430"  # looks like the Latin a
GREEK_IOTA = "\u03b9"

# Letters each script's players type (accented ones precomposed, as keyboards send them).
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèñüöçåøłß"
GREEK = "αβγδεζηθικλμνξοπρστυφχψωςάέήίόύώϊΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΉΊΌΎΏ"
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъьюяѝёАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯЁЃЄЅІЇЈЉЊЋЌЎЏ"
SIGNS = "0123456789_.-"


def names_of(letters: str) -> st.SearchStrategy[str]:
    return st.text(alphabet=letters + SIGNS, min_size=2, max_size=32)


any_name = st.sampled_from([LATIN, GREEK, CYRILLIC]).flatmap(names_of).filter(
    lambda n: not is_reserved(n))


# ---------------------------------------------------------------- golden


@pytest.mark.parametrize("name", ["Γιώργος", "Пламен", "ana", "Ana_b.2", "Ünal", "Ελένη-7",
                                  "Мария", "12", "Jörg", "Zoë"])
def test_names_of_the_clubs_languages_are_names(name: str) -> None:
    """Caught: "Γιώργος" and "Пламен" were bad_name (ASCII only)."""
    assert check_player_name(name) == name


def test_a_name_typed_with_combining_accents_is_its_nfc_form() -> None:
    """Caught: a name typed with combining accents (NFD) kept that form, and was a
    second player beside the same name typed precomposed."""
    typed = unicodedata.normalize("NFD", "Γιώργος")
    assert typed != "Γιώργος" and check_player_name(typed) == "Γιώργος"


def test_a_name_too_long_is_refused_not_cut() -> None:
    """Caught: a 40-character name made an account under its first 32 characters."""
    with pytest.raises(BadName, match=r"2-32 characters \(it has 40\)"):
        check_player_name("a" * 40)
    assert check_player_name("a" * 32) == "a" * 32
    with pytest.raises(BadName, match="it has 1"):
        check_player_name("a")


@pytest.mark.parametrize("name", [
    "Γ" + "i" + "ώργος",  # a Latin i among Greek letters
    "ana" + "Пламен",
    "Ivan" + CYRILLIC_A,
    "\u0396eus",  # a Greek capital zeta, then Latin
])
def test_a_name_of_two_scripts_is_refused(name: str) -> None:
    """Caught: a letter of another script hidden in a name ("Γιώργος" with a Latin i) was
    a name of its own."""
    with pytest.raises(BadName, match="mixes"):
        check_player_name(name)


@pytest.mark.parametrize("name", [
    "ana bob", "ana!", "a/b", "ana\n", "..\x00", "ana\u200b", "a\u034fna",  # invisible
    "\ufb01x", "\uff21na", "\u017fam",  # compatibility forms (fi, full-width A, long s)
    "ana\u0663",  # an Arabic-Indic digit
    "\u0301ab", "q\u0301\u0301\u0301",  # an accent on no letter; a stack of them
    "\u13aana", "שלום", "日本",  # other scripts (a Cherokee A first)
    "\u02bcana",  # a modifier letter: an apostrophe
    "an\u1d4ea", "Пламен\ua67f",  # modifier letters of Latin and Cyrillic (turned i, payerok)
])
def test_what_is_no_name(name: str) -> None:
    """Caught: invisible characters, compatibility forms, other scripts' digits, stacked
    or loose accents and modifier letters passed as letters of a name."""
    with pytest.raises(BadName, match="player name"):
        check_player_name(name)


@pytest.mark.parametrize("name", ["bot-x", "bot-easy", "BOT-strong", "b0t-easy", "Bot-"])
def test_the_bots_names_are_reserved_in_any_case_or_look(name: str) -> None:
    """Caught: ``BOT-strong`` or ``b0t-easy`` was a player's name, drawn like a bot seat's."""
    assert is_reserved(name)
    with pytest.raises(BadName, match="club's own"):
        check_player_name(name)


def test_one_player_in_any_case() -> None:
    """Caught: a Greek or Cyrillic name in capitals was another player than in lower case."""
    assert same_player("Γιώργος", "γιώργος") and same_player("ΓΙΏΡΓΟΣ", "γιώργος")
    assert fold_name("Γιώργος") == fold_name("γιώργος") == fold_name("ΓΙΏΡΓΟΣ")
    assert same_player("Пламен", "ПЛАМЕН") and fold_name("Пламен") == fold_name("пламен")


def test_a_look_alike_has_the_same_fold_and_is_another_player() -> None:
    """Caught: ``ana`` with a Cyrillic first letter was a name of its own beside ``ana``."""
    look_alike = CYRILLIC_A + "na"
    assert fold_name(look_alike) == fold_name("ana") and not same_player(look_alike, "ana")
    assert fold_name("\u0441\u043e\u0440") == fold_name("cop")  # all Cyrillic: one script
    assert fold_name("sam") == fold_name("sarn") and fold_name("b0b") == fold_name("bob")
    assert fold_name("ana1") == fold_name("anal")
    assert fold_name("Γιώργος") != fold_name("Γιωργος")  # the accent shows: another name


def test_ascii_names_fold_as_before_unless_they_hold_m_0_or_1() -> None:
    """Caught: a change of the fold that moved the keys of ASCII names without m, 0 or 1,
    whose records from before (keyed by the case fold) would then not be found;
    store.accounts looks for the others under their earlier key."""
    for name in ["ana", "Bob", "zed_9.x", "P2-q", "--", "Lukas"]:
        assert fold_name(name) == case_fold(name)
    for name in ["sam", "P001", "x1"]:
        assert fold_name(name) != case_fold(name)


def test_the_table_is_unicodes_for_the_three_scripts() -> None:
    """Caught: a table that mapped a prototype onward, or was not cut to the names'
    characters (all of Unicode's 6,000 loaded)."""
    table = _prototypes()
    assert table[CYRILLIC_A] == "a" and table["m"] == "rn" and table["0"] == "O"
    assert table[GREEK_IOTA] == "i" and "a" not in table  # a prototype maps nowhere
    assert 500 < len(table) < 800  # cut to the names' characters, not Unicode's 6,000


def test_a_pair_of_look_alikes_folds_to_the_prototype_its_line_names() -> None:
    """Caught: pairs listed once in confusables.txt (each the other's only look-alike)
    taken the other way round: "ш" folded to a Coptic letter and "л" to a small capital,
    so the key of every name with either changed and its record was no longer found."""
    table = _prototypes()
    assert table["\u04d8"] == "\u018f" and "\u018f" not in table  # Cyrillic Ә → Latin Ə
    assert fold_name("\u0448\u0430\u043b") == "\u0448a\u043b"  # ш, Cyrillic a, л: a alone folds


def test_the_fold_settles_for_every_character_of_the_three_scripts() -> None:
    """Caught: too few rounds of skeleton and case fold, so a folded name folded again
    to another key (a record stored under one key, looked for under another)."""
    starts, ranges = _script_ranges()
    assert starts
    chars = [chr(c) for first, last, _ in ranges for c in range(first, last + 1)]
    chars += [chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0x300, 0x370)]
    for ch in chars:
        for text in (ch, ch + ch, "a" + ch, ch + "\u0301"):
            folded = fold_name(text)
            assert fold_name(folded) == folded, (text, folded)


def test_scripts_come_from_unicodes_scripts_file() -> None:
    """Caught: digits, accents or a neighbouring script's letters (Coptic beside Greek)
    counted as letters of one of the three scripts."""
    assert [script_of(c) for c in ("a", "ώ", "ж", "1", "\u0301", "\u2c80")] == [
        "Latin", "Greek", "Cyrillic", None, None, None]  # U+2C80: Coptic


# ---------------------------------------------------------------- properties


@given(any_name)
def test_every_name_of_one_script_is_accepted_as_written(name: str) -> None:
    """Caught: a name of one script refused or changed, or a fold that is not stable."""
    assert check_player_name(name) == name
    assert fold_name(fold_name(name)) == fold_name(name)
    assert fold_name(name.upper()) == fold_name(name) or not same_player(name.upper(), name)
    assert fold_name(name.swapcase()) == fold_name(name) or not same_player(
        name.swapcase(), name)


# Latin letters, each with the Cyrillic letter drawn alike.
LOOK_ALIKES = dict(zip("aeopcxy", "\u0430\u0435\u043e\u0440\u0441\u0445\u0443", strict=True))


@given(st.text(alphabet="".join(LOOK_ALIKES) + SIGNS, min_size=2, max_size=32), st.data())
def test_a_look_alike_is_refused_or_folds_to_the_same_key(name: str, data: st.DataObject) -> None:
    """Caught: a Latin name with some or all of its letters swapped for the Cyrillic
    letters drawn alike was a second player: swapping some must mix scripts (refused),
    swapping all must make a name with its key."""
    letters = [i for i, ch in enumerate(name) if ch in LOOK_ALIKES]
    swapped = data.draw(st.sets(st.sampled_from(letters)) if letters else st.just(set[int]()))
    variant = "".join(LOOK_ALIKES[ch] if i in swapped else ch for i, ch in enumerate(name))
    if len(swapped) in (0, len(letters)):
        assert fold_name(variant) == fold_name(name)
        if swapped:  # all Cyrillic now: a name, and another player's look-alike
            assert check_player_name(variant) == variant and not same_player(variant, name)
    else:
        with pytest.raises(BadName, match="mixes"):
            check_player_name(variant)
