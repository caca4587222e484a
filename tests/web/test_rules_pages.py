"""The rules for players in a real browser: each language's page (``/web/rules/<lang>``,
docs/rules/<lang>.md) renders with every section and its section links, its diagrams are
``<pre>`` whose rows are still shifted half a cell each, and a browser in a language the
club does not speak lands on the English page, from the header's link and from an address
of its own. One page is saved at phone width as ``rules-el-390x844.png`` (in
``tests/web/artifacts/``, or ``docs/screenshots/`` with ``NUMBRIDGE_README_SHOTS=1``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_kit import PHONES, SCREENSHOTS, Page, fresh_name
from e2e_server import LocalServer

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
LANGUAGES = ("en", "el", "it", "bg", "es")
TITLES = {"en": "Numbridge: the rules", "el": "Numbridge: οι κανόνες",  # noqa: RUF001
          "it": "Numbridge: le regole", "bg": "Цифромост: правилата", "es": "Numbridge: las reglas"}
SECTIONS = ("bridge", "blitz", "domains", "swap", "clocks", "end")


def written_diagrams(lang: str) -> list[str]:
    """The page's diagrams as its Markdown writes them (lines indented by four spaces)."""
    text = (RULES / f"{lang}.md").read_text(encoding="utf-8")
    return ["\n".join(line[4:] for line in chunk.split("\n"))
            for chunk in text.split("\n\n") if chunk.startswith("    ")]


def drawing_starts(row: str) -> int:
    """Where a diagram row's drawing starts, after its label ("row 2", "fila 2")."""
    label = re.match(r"\D*\d+\s+", row)
    assert label, row
    return label.end()


# Where, on the screen, the first two rows of a diagram start their drawing.
ROW_STARTS = """p => {
  const t = p.firstChild, range = document.createRange();
  const x = (i) => {
    range.setStart(t, i); range.setEnd(t, i + 1); return range.getBoundingClientRect().left;
  };
  const rows = t.textContent.split('\\n');
  const first = rows[0].match(/^\\D*\\d+\\s+/)[0].length;
  const second = rows[0].length + 1 + rows[1].match(/^\\D*\\d+\\s+/)[0].length;
  return [x(first), x(second), x(first + 4) - x(first)];
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_its_page_with_every_section(browser: Any, club: LocalServer,
                                                       lang: str) -> None:
    """Catches: a language with the basics only (no Bridge, Blitz, Domains or swap), the
    Spanish page's diagrams run into one line, a section link that goes nowhere."""
    reader = Page(browser, fresh_name(f"reader-{lang}-"))
    try:
        page = reader.page
        page.goto(f"{club.url}/web/rules/{lang}")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("h1").inner_text() == TITLES[lang]
        assert page.title() == TITLES[lang]
        for section in SECTIONS:
            heading = page.locator(f"h2#{section}")
            assert heading.count() == 1, section
            assert heading.inner_text().strip(), section
        # Every variant one tap away from the top.
        links = page.locator("nav a")
        assert {links.nth(k).get_attribute("href") for k in range(links.count())} >= {
            f"#{s}" for s in SECTIONS}
        page.locator("nav a[href='#domains']").click()
        page.wait_for_function("location.hash === '#domains'")
        assert page.locator("h2#domains").evaluate(
            "h => { const r = h.getBoundingClientRect(); "
            "return r.top >= 0 && r.top < innerHeight }")
        # Diagrams: <pre>, in a fixed-width font, exactly as written, rows shifted.
        shown = [pre.inner_text() for pre in page.locator("pre").all()]
        assert shown == written_diagrams(lang)
        corner = shown[0].split("\n")
        assert [drawing_starts(row) - drawing_starts(corner[0]) for row in corner] == [0, 2, 4, 6]
        style = page.locator("pre").first.evaluate(
            "p => [getComputedStyle(p).whiteSpace, getComputedStyle(p).fontFamily]")
        assert style[0] == "pre" and "mono" in style[1].lower(), style
        # Each half-cell shift is drawn: the second row starts half a cell (two characters
        # of a four-character cell) right of the first.
        first, second, cell = page.locator("pre").first.evaluate(ROW_STARTS)
        assert cell > 0 and abs((second - first) - cell / 2) < 1, (first, second, cell)
        assert reader.problems == []
    finally:
        reader.close()


def test_a_browser_in_another_language_lands_on_the_english_page(browser: Any,
                                                                  club: LocalServer) -> None:
    """Catches: a French browser sent to a 404, or to the maintainers' specification."""
    reader = Page(browser, fresh_name("lecteur-"), locale="fr-FR")
    try:
        page = reader.page
        page.goto(f"{club.url}/")
        page.wait_for_function("document.querySelector('#rules-link').getAttribute('href')"
                               " === '/web/rules/en'")
        page.goto(club.url + page.locator("#rules-link").get_attribute("href"))
        assert page.locator("h1").inner_text() == TITLES["en"]
        page.goto(f"{club.url}/web/rules/fr")
        assert page.url == f"{club.url}/web/rules/en"
        assert page.locator("h1").inner_text() == TITLES["en"]
        text = page.locator("main").inner_text()
        assert "[decided" not in text and "//" not in text and "seed" not in text
        page.goto(f"{club.url}/web/rules/el-GR")
        assert page.url == f"{club.url}/web/rules/el"
    finally:
        reader.close()


def test_a_rules_page_on_a_phone(browser: Any, club: LocalServer) -> None:
    """Catches: a page wider than the phone (a diagram pushing the text off the screen)
    rather than a diagram that scrolls on its own."""
    reader = Page(browser, fresh_name("phone-reader-"), phone=PHONES["390x844"], locale="el-GR")
    try:
        page = reader.page
        page.goto(f"{club.url}/web/rules/el")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for pre in page.locator("pre").all():
            box = pre.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.locator("h1").bounding_box()["y"] < 100
        # The shot: Bridge's section, its diagram of the sides with it.
        page.goto(f"{club.url}/web/rules/el#bridge")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "rules-el-390x844.png"))
    finally:
        reader.close()
