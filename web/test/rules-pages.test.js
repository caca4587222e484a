/* The players' rule pages (docs/rules/<lang>.md, shown at /web/rules/<lang>): one for every
 * language the client speaks, each with a section for every variant, the swap, the clocks
 * and the end of a game (named by the `{#id}` after its heading, docs/rules/README.md), none
 * with a maintainer's notation, and diagrams whose rows keep their half-cell shift. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '../js/i18n.js';

const RULES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'rules');
const PAGES = Object.fromEntries(Object.keys(LANGUAGES)
  .map((lang) => [lang, readFileSync(join(RULES, `${lang}.md`), 'utf-8')]));
const SECTIONS = ['bridge', 'blitz', 'domains', 'swap', 'clocks', 'end'];
// What docs/rules.md says to maintainers and a player's page must not.
const NOTATION = [
  ['a [decided] tag', /\[decided/i],
  ['a formula such as (r//3, c//3)', /\/\/|\br\s*[-+]\s*1\b|\bN\s*[-−]\s*1\b/],
  ['a backtick', /`/],
  ['a seed file', /seed/i],
  ['a table pipe', /\|/],
  ['a tracker word', /\bissue/i],
  ['a file name', /\.(md|txt|py|js)\b/],
];

const ids = (text) => [...text.matchAll(/^#{2,3} .+ \{#([a-z-]+)\}$/gm)].map((m) => m[1]);
const headingOf = (text, id) => text.match(new RegExp(`^## (.+) \\{#${id}\\}$`, 'm'))?.[1];
/** The page's diagrams: runs of lines indented by four spaces, the indent taken off. */
const diagrams = (text) => text.split(/\n\s*\n/)
  .filter((chunk) => chunk.startsWith('    '))
  .map((chunk) => chunk.split('\n').map((line) => line.slice(4)));
/** Where a diagram row's drawing starts, after its label ("row 2", "γρ. 2", "fila 2"). */
const drawingStarts = (row) => row.match(/^\D*\d+\s+/)[0].length;

test('every language the client speaks has its page with every section', () => {
  for (const [lang, text] of Object.entries(PAGES)) {
    assert.match(text, /^# \S/, `${lang}: a title`);
    for (const id of SECTIONS) {
      assert.ok(headingOf(text, id), `${lang}: no section {#${id}}`);
    }
  }
});

test('every page has the English page\'s sections in its order', () => {
  const english = ids(PAGES.en);
  assert.equal(new Set(english).size, english.length, 'an id used twice');
  for (const [lang, text] of Object.entries(PAGES)) assert.deepEqual(ids(text), english, lang);
});

test('no page carries a maintainer\'s notation', () => {
  for (const [lang, text] of Object.entries(PAGES)) {
    for (const [what, pattern] of NOTATION) {
      const line = text.split('\n').find((l) => pattern.test(l));
      assert.equal(line, undefined, `${lang}: ${what} in «${line}»`);
    }
  }
});

test('the notation check would catch docs/rules.md', () => {
  // The maintainers' page is what the English link used to show: every check above must
  // find something in it, or the check proves nothing.
  const spec = readFileSync(join(RULES, '..', 'rules.md'), 'utf-8');
  for (const [what, pattern] of NOTATION.filter(([what]) => what !== 'a tracker word')) {
    assert.match(spec, pattern, what);
  }
});

test('a board diagram keeps its half-cell shift in every language', () => {
  for (const [lang, text] of Object.entries(PAGES)) {
    const drawn = diagrams(text);
    assert.ok(drawn.length >= 4, `${lang}: ${drawn.length} diagrams`);
    // The first is the board's top corner: four rows, each two spaces (half a cell) further right.
    const corner = drawn[0];
    assert.equal(corner.length, 4, lang);
    const starts = corner.map(drawingStarts);
    assert.deepEqual(starts.map((s) => s - starts[0]), [0, 2, 4, 6], `${lang}: ${corner.join(' / ')}`);
    // Rows counted from 1, as the board draws them.
    assert.match(corner[0], /^\D*1\s/, lang);
  }
});

test('the swap is not named like the exchange', () => {
  // The words a native speaker found confusable with Exchange (docs/rules/README.md).
  const confusable = { el: /Ανταλλαγ/, it: /Scambio/i, bg: /Размян/, es: /Cambio de color/i };
  for (const [lang, pattern] of Object.entries(confusable)) {
    assert.doesNotMatch(PAGES[lang], pattern, lang);
    assert.ok(headingOf(PAGES[lang], 'swap'), lang);
  }
});

test('each page speaks its glossary\'s words', () => {
  // docs/rules/README.md: the words a native-speaker review asked for, and those it did not.
  const wanted = { el: [/κλαμπ/, /λάθη/], es: [/errores/], bg: [/вие|ваш/i], it: [/errore/] };
  const unwanted = { el: [/λέσχ/, /αστοχ/], es: [/fallo/i], bg: [/(^|\s)(ти|твоя|твоят|твоите)(\s|$)/i] };
  for (const [lang, patterns] of Object.entries(wanted)) {
    for (const pattern of patterns) assert.match(PAGES[lang], pattern, lang);
  }
  for (const [lang, patterns] of Object.entries(unwanted)) {
    for (const pattern of patterns) assert.doesNotMatch(PAGES[lang], pattern, lang);
  }
});
