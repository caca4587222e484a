"""The club's rules for players as a web page (``/web/rules/<lang>``): one page per language
the client speaks, ``docs/rules/<lang>.md``, turned into plain, readable HTML for a phone as
well as a desk. ``docs/rules.md`` stays the maintainers' specification and is not served.

The pages are written in a small part of Markdown (docs/rules/README.md): ``#``/``##``/``###``
headings, an ``{#id}`` after a heading naming its section, ``-`` and ``1.`` lists, ``**bold**``,
and diagrams indented by four spaces, kept exactly as written (a board's rows are shifted half
a cell each: their spaces are the drawing). Every piece of text is escaped: a rule page can
put no markup, no script and no link of its own on the page. Pure: the caller reads the file.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

STYLESHEET = "/web/css/rules.css"
# The languages with a page, as the client names them (web/js/i18n.js LANGUAGES); any other
# language tag gets the English page, as the client itself falls back to English.
LANGUAGES = ("en", "el", "it", "bg", "es")
DEFAULT_LANGUAGE = "en"
# A language tag as a browser sends one ("fr", "pt-BR", "zh-Hant-TW"): not a path, not a file.
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
PRE_INDENT = "    "
HEADING = re.compile(r"(#{1,3})\s+(.+?)(?:\s+\{#([a-z][a-z0-9-]*)\})?")
BULLET = re.compile(r"(?:-|\d+\.)\s+")
NUMBERED = re.compile(r"\d+\.\s+")


def source(lang: str) -> str:
    """The page of a language with one, as a path under ``docs/``."""
    return f"rules/{lang}.md"


def language_for(tag: str) -> str | None:
    """The page to show for a requested language: its own, its primary subtag's ("el-GR"
    reads the Greek page), else English; None for what is no language tag at all."""
    if not LANGUAGE_TAG.fullmatch(tag):
        return None
    primary = tag.split("-")[0].lower()
    return primary if primary in LANGUAGES else DEFAULT_LANGUAGE


@dataclass(frozen=True)
class Block:
    """One piece of the page: ``h1``/``h2``/``h3`` (with its section ``id``, if named),
    ``p``, ``ul``/``ol`` (items) or ``pre`` (a diagram's lines, spaces kept)."""

    kind: str
    lines: tuple[str, ...]
    id: str = ""


def inline(text: str) -> str:
    """Escaped text, with Markdown's **bold** as ``<strong>``."""
    escaped = html.escape(text, quote=False)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)


def _chunks(text: str) -> Iterator[list[str]]:
    """The text's pieces between blank lines; a heading is a piece of its own."""
    chunk: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line.startswith("#"):
            if chunk:
                yield chunk
            yield [line]
            chunk = []
        elif line.strip():
            chunk.append(line)
        elif chunk:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def blocks(text: str) -> Iterator[Block]:
    """A rule page in its pieces."""
    for chunk in _chunks(text):
        head = chunk[0]
        heading = HEADING.fullmatch(head)
        if heading:
            level, words, name = heading.groups()
            yield Block(f"h{len(level)}", (words,), name or "")
        elif head.startswith(PRE_INDENT):
            # A diagram: only the indent that marks it goes, every other space stays.
            yield Block("pre", tuple(line.removeprefix(PRE_INDENT) for line in chunk))
        elif BULLET.match(head):
            items: list[str] = []
            for line in chunk:
                if BULLET.match(line):
                    items.append(BULLET.sub("", line, count=1))
                else:
                    items[-1] += " " + line.strip()  # the item's text, wrapped
            yield Block("ol" if NUMBERED.match(head) else "ul", tuple(items))
        else:
            yield Block("p", (" ".join(line.strip() for line in chunk),))


def render(pieces: Iterable[Block]) -> str:
    out: list[str] = []
    for block in pieces:
        if block.kind == "pre":
            out.append(f"<pre>{html.escape(chr(10).join(block.lines), quote=False)}</pre>")
        elif block.kind in ("ul", "ol"):
            items = "".join(f"<li>{inline(item)}</li>" for item in block.lines)
            out.append(f"<{block.kind}>{items}</{block.kind}>")
        else:
            name = f' id="{html.escape(block.id)}"' if block.id else ""
            out.append(f"<{block.kind}{name}>{inline(' '.join(block.lines))}</{block.kind}>")
    return "\n".join(out)


def contents(pieces: Iterable[Block]) -> str:
    """Links to the page's sections (its named ``h2``): on a phone, a variant is one tap away."""
    links = "".join(f'<li><a href="#{html.escape(b.id)}">{inline(b.lines[0])}</a></li>'
                    for b in pieces if b.kind == "h2" and b.id)
    return f"<nav>\n<ul>{links}</ul>\n</nav>" if links else ""


def page(lang: str, text: str) -> str:
    """The whole page of ``lang`` from its Markdown."""
    pieces = list(blocks(text))
    title = next((b.lines[0] for b in pieces if b.kind == "h1"), "")
    head, body = pieces[:1], pieces[1:]
    if not head or head[0].kind != "h1":
        head, body = [], pieces
    return (
        f'<!doctype html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title, quote=False)}</title>\n"
        f'<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n<body>\n<main>\n'
        f"{render(head)}\n{contents(body)}\n{render(body)}\n"
        "</main>\n</body>\n</html>\n"
    )
