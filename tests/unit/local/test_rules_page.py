"""The rule texts of docs/ as a web page (numbridge.local.apigateway.rules_page): the pieces found
in a seed page and in docs/rules.md, and nothing of the text ever taken as markup."""

from __future__ import annotations

from numbridge.local.apigateway.rules_page import (
    Block,
    markdown_blocks,
    page,
    seed_blocks,
    unflatten,
)
from numbridge.local.lambdas.functions import repo_root

SEED = """Numbridge — Rules
VOG — Vinco Online Games
Numbridge: the basics

A game for two on a sudoku board.
The board
The board is an ordinary sudoku.
row 1   X   R   R
row 2     C   .   .
• a correct digit — out of the game;
• a mistake — back to the bag.
1. Place a tile.
2. Take a clue.
Closing words of a paragraph: never a heading.
"""


def test_a_seed_page_in_pieces() -> None:
    blocks = seed_blocks(SEED)
    assert blocks == [
        Block("h1", ("Numbridge: the basics",)),  # the site's title and tagline left out
        Block("p", ("A game for two on a sudoku board.",)),
        Block("h2", ("The board",)),
        Block("p", ("The board is an ordinary sudoku.",)),
        Block("pre", ("row 1   X   R   R", "row 2     C   .   .")),
        Block("ul", ("a correct digit — out of the game;", "a mistake — back to the bag.")),
        Block("ol", ("Place a tile.", "Take a clue.")),
        Block("p", ("Closing words of a paragraph: never a heading.",)),
    ]


def test_a_diagram_run_into_one_line_gets_its_rows_back() -> None:
    assert unflatten("fila 1 X F F fila 2 C . . |") == ["fila 1 X F F", "fila 2 C . ."]
    assert unflatten("row 1   X   R") == ["row 1   X   R"]


def test_markdown_headings_lists_and_tables() -> None:
    text = ("# Title\n\nSome `code` and **bold**\nwrapped.\n\n## 2. Board\n\n"
            "- one item\n  wrapped on\n- two\n\n| a | b |\n| --- | --- |\n")
    assert list(markdown_blocks(text)) == [
        Block("h1", ("Title",)),
        Block("p", ("Some `code` and **bold** wrapped.",)),
        Block("h2", ("2. Board",)),
        Block("ul", ("one item wrapped on", "two")),
        Block("pre", ("| a | b |", "| --- | --- |")),
    ]
    html = page("en", [("markdown", text)])
    assert "<p>Some <code>code</code> and <strong>bold</strong> wrapped.</p>" in html
    assert "<title>Title</title>" in html


def test_no_text_becomes_markup() -> None:
    evil = 'Title\n\n<script>alert(1)</script> and <a href="x">a link</a>.\nrow 1   <b>   x\n'
    html = page("xx", [("seed", "site\n" + evil), ("markdown", "# <img src=x onerror=y>\n")])
    assert "<script>" not in html and "<a " not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=y&gt;" in html


def test_every_rule_text_of_the_club_makes_a_page() -> None:
    docs = repo_root() / "docs"
    for path in [docs / "rules.md", *sorted((docs / "seeds").glob("*.txt"))]:
        kind = "markdown" if path.suffix == ".md" else "seed"
        blocks = list(markdown_blocks(path.read_text(encoding="utf-8")) if kind == "markdown"
                      else seed_blocks(path.read_text(encoding="utf-8")))
        assert blocks[0].kind == "h1", path.name
        assert sum(b.kind == "h2" for b in blocks) >= 4, path.name
        assert sum(b.kind in ("p", "ul", "ol") for b in blocks) >= 8, path.name
