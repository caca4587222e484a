"""The players' rule pages of docs/rules/ as web pages (numbridge.local.apigateway.rules_page):
the pieces found in a page, diagrams kept space for space, sections named for links, the
language a request lands on, and nothing of the text ever taken as markup."""

from __future__ import annotations

import re

import pytest
from numbridge.local.apigateway.rules_page import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Block,
    blocks,
    language_for,
    page,
    source,
)
from numbridge.local.lambdas.functions import repo_root

PAGE = """# Numbridge: the rules

A game for two on a **sudoku** board.

## The board {#board}

The board is an ordinary sudoku,
wrapped over two lines.

    row 1   X   R   R
    row 2     C   .   .

- a correct digit — out of the game;
- a mistake — back to
  the bag.

1. Place a tile.
2. Take a clue.
### Six neighbours {#neighbours}
Closing words.
"""
# Sections every page has, by the id its heading names (web/test/rules-pages.test.js too).
SECTIONS = ("bridge", "blitz", "domains", "swap", "clocks", "end")


def test_a_page_in_pieces() -> None:
    """Catches: a wrapped paragraph or list item split in two, a heading's id left in its
    words, a list turned numbered or not, a heading with no blank line before it lost."""
    assert list(blocks(PAGE)) == [
        Block("h1", ("Numbridge: the rules",)),
        Block("p", ("A game for two on a **sudoku** board.",)),
        Block("h2", ("The board",), "board"),
        Block("p", ("The board is an ordinary sudoku, wrapped over two lines.",)),
        Block("pre", ("row 1   X   R   R", "row 2     C   .   .")),
        Block("ul", ("a correct digit — out of the game;", "a mistake — back to the bag.")),
        Block("ol", ("Place a tile.", "Take a clue.")),
        Block("h3", ("Six neighbours",), "neighbours"),
        Block("p", ("Closing words.",)),
    ]


def test_a_diagram_keeps_its_half_cell_shift() -> None:
    """Catches the Spanish page's bug: a diagram's rows run together or their leading spaces
    dropped, so that the rows no longer shift half a cell each."""
    html = page("es", PAGE)
    assert "<pre>row 1   X   R   R\nrow 2     C   .   .</pre>" in html


def test_the_page_has_its_title_sections_and_links_to_them() -> None:
    html = page("it", PAGE)
    assert '<html lang="it">' in html and "<title>Numbridge: the rules</title>" in html
    assert '<h2 id="board">The board</h2>' in html and '<h3 id="neighbours">' in html
    assert '<nav>\n<ul><li><a href="#board">The board</a></li></ul>\n</nav>' in html
    assert "<p>A game for two on a <strong>sudoku</strong> board.</p>" in html


def test_no_text_becomes_markup() -> None:
    """Catches: a rule text putting a script, a link or an image on the page."""
    evil = ('# <script>alert(1)</script>\n\n<a href="x">a link</a> and <b>bold</b>.\n\n'
            "    row 1   <img src=x onerror=y>\n\n## Side {#side}\n")
    html = page("xx", evil)
    assert "<script>" not in html and "<a href=\"x\"" not in html
    assert "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x" in html


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("en", "en"), ("el", "el"), ("el-GR", "el"), ("BG", "bg"), ("fr", "en"),
     ("pt-BR", "en"), ("zh-Hant-TW", "en")],
)
def test_every_language_lands_on_a_page(tag: str, lang: str) -> None:
    """Catches: a browser in a language the club does not speak left with no rules."""
    assert language_for(tag) == lang


@pytest.mark.parametrize("tag", ["", "..", "../README.md", "seeds", "en/x", "e", "rules.md"])
def test_what_is_no_language_is_no_page(tag: str) -> None:
    assert language_for(tag) is None


def test_every_language_has_a_page_with_every_section() -> None:
    """Catches: a language without its page, or a page missing a variant, the swap, the
    clocks or the end of a game."""
    assert DEFAULT_LANGUAGE in LANGUAGES
    docs = repo_root() / "docs"
    for lang in LANGUAGES:
        text = (docs / source(lang)).read_text(encoding="utf-8")
        pieces = list(blocks(text))
        assert pieces[0].kind == "h1", lang
        ids = [b.id for b in pieces if b.id]
        assert len(ids) == len(set(ids)), lang
        assert set(SECTIONS) <= set(ids), (lang, set(SECTIONS) - set(ids))
        assert sum(b.kind == "pre" for b in pieces) >= 3, lang
        html = page(lang, text)
        assert not re.search(r"\[decided|//|`|\bseed", html), lang


def test_every_page_has_the_same_sections_in_the_same_order() -> None:
    """Catches: a translation that lost or reordered a section of the English page."""
    docs = repo_root() / "docs"
    order = {lang: [b.id for b in blocks((docs / source(lang)).read_text(encoding="utf-8"))
                    if b.id] for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert order[lang] == order["en"], lang
