"""The club's rules as a web page (``/web/rules/<lang>``): the rule texts of ``docs/``
turned into plain, readable HTML for a phone as well as a desk.

Two kinds of text: a seed page of ``docs/seeds/`` (one paragraph a line; a short line
with no closing stop is a heading, ``•``/``-`` lines a list, a line laid out with runs
of spaces a diagram) and the English ``docs/rules.md`` (Markdown: ``#`` headings,
``-``/``1.`` lists, tables and the rest kept as they are written). Every piece of text
is escaped: a rule page can put no markup, no script and no link on the page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

STYLESHEET = "/web/css/rules.css"
# A heading is a short line that does not end as a sentence does.
HEADING_MAX = 60
SENTENCE_END = (".", ":", ";", "!", "?", "…", "·")
BULLET = re.compile(r"^(?:[•\-*]|\d+\.)\s+")
NUMBERED = re.compile(r"^\d+\.\s+")
DIAGRAM = re.compile(r"\S {3,}\S|\s\|$")


@dataclass(frozen=True)
class Block:
    """One piece of the page: ``h1``/``h2``/``h3``, ``p``, ``ul``/``ol`` (items) or ``pre``."""

    kind: str
    lines: tuple[str, ...]


def inline(text: str) -> str:
    """Escaped text, with Markdown's `code` and **strong** as elements."""
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)


def seed_blocks(text: str) -> list[Block]:
    """A seed page: its first line is the site's title (left out), each other line a block;
    a heading straight before another is the site's too (a tagline); the first heading
    left is the page's."""
    blocks = _merge_diagrams(_seed_lines(text))
    while len(blocks) > 1 and blocks[0].kind == "h" and blocks[1].kind == "h":
        blocks.pop(0)
    return [Block("h1" if k == 0 else "h2", b.lines) if b.kind == "h" else b
            for k, b in enumerate(blocks)]


def _merge_diagrams(blocks: Iterable[Block]) -> list[Block]:
    """A diagram's lines, one ``pre``."""
    merged: list[Block] = []
    for block in blocks:
        if block.kind == "pre" and merged and merged[-1].kind == "pre":
            merged[-1] = Block("pre", merged[-1].lines + block.lines)
        else:
            merged.append(block)
    return merged


def _seed_lines(text: str) -> Iterator[Block]:
    lines = [line.rstrip() for line in text.splitlines()[1:]]
    items: list[str] = []
    ordered = False
    for line in [*lines, ""]:
        stripped = line.strip()
        # A list ends where its lines stop being items, or turn from bullets to numbers.
        if items and (not BULLET.match(stripped) or bool(NUMBERED.match(stripped)) != ordered):
            yield Block("ol" if ordered else "ul", tuple(items))
            items = []
        if not stripped:
            continue
        if DIAGRAM.search(line):
            yield Block("pre", tuple(unflatten(line)))
        elif BULLET.match(stripped):
            ordered = bool(NUMBERED.match(stripped)) if not items else ordered
            items.append(BULLET.sub("", stripped))
        elif len(stripped) <= HEADING_MAX and not stripped.endswith(SENTENCE_END):
            yield Block("h", (stripped,))
        else:
            yield Block("p", (stripped,))


def unflatten(line: str) -> list[str]:
    """A diagram whose rows were run into one line ("fila 1 X F F F fila 2 C . . . |"):
    its rows again, split where its first word comes back with the next number."""
    if not line.endswith(" |"):
        return [line]
    body = line[:-2].rstrip()
    first = re.match(r"(\w+) \d+ ", body)
    if not first:
        return [body]
    rows = re.split(rf"(?=\b{re.escape(first.group(1))} \d+ )", body)
    return [row.strip() for row in rows if row.strip()]


def _paragraphs(text: str) -> Iterator[list[str]]:
    chunk: list[str] = []
    for line in text.splitlines():
        if line.strip():
            chunk.append(line.rstrip())
        elif chunk:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def markdown_blocks(text: str) -> Iterator[Block]:
    """docs/rules.md: headings, lists (an item's wrapped lines joined), tables as written."""
    for chunk in _paragraphs(text):
        head = chunk[0].lstrip()
        if head.startswith("#"):
            level = min(3, len(head) - len(head.lstrip("#")))
            yield Block(f"h{level}", (head.lstrip("#").strip(),))
            chunk = chunk[1:]
            if not chunk:
                continue
            head = chunk[0].lstrip()
        if head.startswith("|") or head.startswith("```"):
            yield Block("pre", tuple(line for line in chunk if not line.startswith("```")))
        elif BULLET.match(head):
            items: list[str] = []
            for line in chunk:
                if BULLET.match(line.strip()) and len(line) - len(line.lstrip()) <= 2:
                    items.append(BULLET.sub("", line.strip()))
                else:
                    # A wrapped line, or a nested item: part of the item above.
                    items[-1] += " " + line.strip()
            yield Block("ol" if NUMBERED.match(head) else "ul", tuple(items))
        else:
            yield Block("p", (" ".join(line.strip() for line in chunk),))


def render(blocks: Iterable[Block]) -> str:
    out: list[str] = []
    for block in blocks:
        if block.kind == "pre":
            out.append(f"<pre>{html.escape(chr(10).join(block.lines), quote=False)}</pre>")
        elif block.kind in ("ul", "ol"):
            items = "".join(f"<li>{inline(item)}</li>" for item in block.lines)
            out.append(f"<{block.kind}>{items}</{block.kind}>")
        else:
            out.append(f"<{block.kind}>{inline(' '.join(block.lines))}</{block.kind}>")
    return "\n".join(out)


def page(lang: str, texts: Iterable[tuple[str, str]]) -> str:
    """The whole page for `lang` from its texts, each ``(kind, text)``: ``seed`` or ``markdown``."""
    parts = []
    title = ""
    for kind, text in texts:
        blocks = list(markdown_blocks(text) if kind == "markdown" else seed_blocks(text))
        if not title:
            title = next((b.lines[0] for b in blocks if b.kind.startswith("h")), "")
        parts.append(f"<section>\n{render(blocks)}\n</section>")
    return (
        f'<!doctype html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title, quote=False)}</title>\n"
        f'<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n<body>\n<main>\n'
        + "\n".join(parts)
        + "\n</main>\n</body>\n</html>\n"
    )
