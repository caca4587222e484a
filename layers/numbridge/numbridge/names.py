"""What a player may be called: the one rule, for tokens of every kind.

A name is 2 to 32 characters once in NFC: the letters of one script — Latin, Greek or
Cyrillic — with the digits 0-9, ``_``, ``.`` and ``-``, and accents (combining marks)
on its letters. "Γιώργος" and "Пламен" are names; "Γιώργος" typed with a Latin ``i``
is not: one script each, so that a name cannot hide a letter of another.

Two spellings are one player when they fold alike by case (:func:`case_fold`, NFKC and
case-folded): "Γιώργος" and "γιώργος". A name is taken when its skeleton is another
player's (:func:`fold_name`: Unicode's confusables, UTS #39): "ana" typed with a
Cyrillic ``\u0430`` for either ``a`` is "ana"'s name. Records are kept under that fold,
so each look-alike has one owner in every store.

Names starting ``bot-`` belong to the club's bot seats (``bot-easy``,
``bot-normal``, ``bot-strong``): the backend plays them, so no token may name
one — whoever held it could move for the bot in every game it plays.

The scripts of letters and the confusables come from the Unicode data that the
``confusable-homoglyphs`` package ships (its JSON files, read once, on first use).
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from typing import Final

NAME_MIN: Final = 2
NAME_MAX: Final = 32
SCRIPTS: Final = ("Latin", "Greek", "Cyrillic")
BOT_PREFIX: Final = "bot-"
RESERVED_PREFIXES: Final = (BOT_PREFIX,)
BOT_LEVELS: Final = ("easy", "normal", "strong")

# ASCII digits only: other scripts' digits are look-alikes of letters (Arabic-Indic
# zero is a dot, Devanagari one is a nine).
_SIGNS: Final = frozenset("0123456789_.-")
# Not Lm: modifier letters look like punctuation (U+02BC is an apostrophe).
_LETTERS: Final = frozenset({"Lu", "Ll", "Lt", "Lo"})
# Accents from Combining Diacritical Marks, less the grapheme joiner (it shows nothing).
_MARKS: Final = frozenset(chr(c) for c in range(0x300, 0x370)) - {"\u034f"}
# More accents on one letter is a stack that hides what is under it, not a name.
_MARKS_PER_LETTER: Final = 2
# Rounds of skeleton and case-folding until a fold is stable: three settle every string
# of the three scripts' characters (tests/unit/test_names.py); the bound is for the rest.
_FOLD_ROUNDS: Final = 4
_DATA: Final = "confusable_homoglyphs"
_BIDI_MARKS: Final = str.maketrans("", "", "\u200e\u200f")  # around right-to-left text in its table


class BadName(ValueError):
    """A name no player may have (``bad_name``); the message says why. ``look_alike``:
    refused for its letters' scripts or forms alone, so it may be drawn like a taken
    name — one of :func:`fold_name`'s, which the caller may answer ``name_taken``."""

    def __init__(self, message: str, *, look_alike: bool = False) -> None:
        super().__init__(message)
        self.look_alike = look_alike


def check_player_name(name: str) -> str:
    """``name`` in NFC if a player may be called so; :class:`BadName` saying why if not
    (the club's ``bot-`` names included)."""
    nfc = unicodedata.normalize("NFC", name)
    shown = repr(nfc if len(nfc) <= 40 else nfc[:40] + "…")
    if not NAME_MIN <= len(nfc) <= NAME_MAX:
        raise BadName(f"player name {shown} must be {NAME_MIN}-{NAME_MAX} characters "
                      f"(it has {len(nfc)}): letters of one script ({', '.join(SCRIPTS)}), "
                      "digits, '_', '.', '-'")
    script: str | None = None
    marks = -1  # accents on the character before; -1: it was no letter
    for ch in nfc:
        if ch in _SIGNS:
            marks = -1
        elif unicodedata.category(ch) in _LETTERS:
            of = script_of(ch)
            if of is None:
                raise BadName(f"player name {shown}: {_said(ch)} is no letter of "
                              f"{', '.join(SCRIPTS)}")
            if script is not None and of != script:
                raise BadName(f"player name {shown} mixes {script} and {of} letters: "
                              "a name is of one script", look_alike=True)
            script, marks = of, 0
        elif ch in _MARKS and 0 <= marks < _MARKS_PER_LETTER:
            marks += 1
        else:
            raise BadName(f"player name {shown}: {_said(ch)} is not allowed (letters of one "
                          "script, digits, '_', '.', '-', an accent on a letter)")
    # Compatibility forms (ligatures, full-width letters, the long s) draw another
    # name's letters.
    if unicodedata.normalize("NFKC", nfc) != nfc:
        raise BadName(f"player name {shown}: compatibility characters (ligatures, "
                      "full-width letters) are not allowed; type the plain letters",
                      look_alike=True)
    if is_reserved(nfc):
        raise BadName(f"player names starting {'/'.join(RESERVED_PREFIXES)} "
                      "are the club's own")
    return nfc


def may_be_a_look_alike(name: str) -> bool:
    """Whether ``name`` is refused by the rule for mixing scripts or for compatibility
    forms only (``ana`` with a Cyrillic first letter, or a full-width first ``A``): then it is
    worth looking up, and is ``name_taken`` if its fold is a player's."""
    try:
        check_player_name(name)
    except BadName as exc:
        return exc.look_alike
    return False


def _said(ch: str) -> str:
    return f"{ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})"


def is_reserved(name: str) -> bool:
    """A name of the club's bots, in any case or look-alike (``b0t-easy``)."""
    return fold_name(name).startswith(tuple(fold_name(p) for p in RESERVED_PREFIXES))


def case_fold(name: str) -> str:
    """The form in which two spellings are one player: NFKC, case-folded, NFKC again
    (Unicode's NFKC_Casefold, near enough). ``Ana`` and ``ana`` fold alike, and so do
    ``Γιώργος`` and ``γιώργος``. Records were keyed by it before :func:`fold_name`."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def same_player(name: str, other: str) -> bool:
    """Whether two spellings name one player (case aside), not merely look alike."""
    return case_fold(name) == case_fold(other)


def fold_name(name: str) -> str:
    """The key under which a name is unique: :func:`case_fold`, then the UTS #39
    skeleton (NFD, each character by its prototype, NFD), case-folded again, until
    stable. Look-alikes fold alike: ``\u0430na`` (a Cyrillic ``a``) and ``ana``; ``m``
    and ``rn``; ``0`` and ``o``; ``1`` and ``l``. ASCII letters other than ``m`` fold as
    :func:`case_fold` folds them."""
    prototypes = _prototypes()
    folded = case_fold(name)
    for _ in range(_FOLD_ROUNDS):
        decomposed = unicodedata.normalize("NFD", folded)
        skeleton = unicodedata.normalize(
            "NFD", "".join(prototypes.get(ch, ch) for ch in decomposed))
        again = case_fold(skeleton)
        if again == folded:
            break
        folded = again
    return folded


def script_of(ch: str) -> str | None:
    """The script of a character if it is one of :data:`SCRIPTS` (Unicode's Scripts.txt),
    else None."""
    starts, ranges = _script_ranges()
    i = bisect.bisect_right(starts, ord(ch)) - 1
    if i >= 0 and ranges[i][0] <= ord(ch) <= ranges[i][1]:
        return ranges[i][2]
    return None


def _read(file: str) -> object:
    # Imported on first use, not with the module: importlib.resources alone is 15 ms.
    import json
    from importlib import resources

    return json.loads((resources.files(_DATA) / file).read_text(encoding="utf-8"))


@functools.cache
def _script_ranges() -> tuple[list[int], list[tuple[int, int, str]]]:
    """The code point ranges of the three scripts, sorted: (first, last, script)."""
    data = _read("categories.json")
    assert isinstance(data, dict)
    by_alias = {alias: script for script in SCRIPTS for alias in [script.upper()]}
    aliases = data["iso_15924_aliases"]
    ranges = sorted((int(first), int(last), by_alias[aliases[alias]])
                    for first, last, alias, _category in data["code_points_ranges"]
                    if aliases[alias] in by_alias)
    return [first for first, _, _ in ranges], ranges


def _in_a_name(ch: str) -> bool:
    """Whether ``ch`` can be in a name folded and decomposed: ASCII, an accent, a letter
    of the three scripts. The table is cut to these (650 of Unicode's 6,000 and more)."""
    return ch.isascii() or ch in _MARKS or script_of(ch) is not None


@functools.cache
def _prototypes() -> dict[str, str]:
    """UTS #39's confusables (confusables.txt) for the characters of names: each
    character that is some prototype's look-alike, and that prototype.

    The package keeps each line of confusables.txt both ways (``a`` lists the Cyrillic
    ``\u0430`` and that lists ``a``), in the file's order. A look-alike is never a prototype, so a
    character listing exactly one string is a look-alike of it unless that string is
    a single character listing it alone back: the pair is one line, and the look-alike
    is the one the file (so the package) met first.
    """
    data = _read("confusables.json")
    assert isinstance(data, dict)
    order = {key: n for n, key in enumerate(data)}
    table: dict[str, str] = {}
    for source, listed in data.items():
        if len(source) != 1 or len(listed) != 1 or not _in_a_name(source):
            continue
        target = str(listed[0]["c"])
        back = data.get(target, [])
        if len(target) > 1 or len(back) > 1 or order[source] < order.get(target, -1):
            table[source] = target.translate(_BIDI_MARKS)
    return table


def bot_player(level: str) -> str:
    """The player who sits in a bot seat of ``level``."""
    return BOT_PREFIX + level


def bot_level(player: str) -> str | None:
    """The level of a bot seat's player, or None for a person."""
    if player.startswith(BOT_PREFIX) and player[len(BOT_PREFIX):] in BOT_LEVELS:
        return player[len(BOT_PREFIX):]
    return None
