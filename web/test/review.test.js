/* The coach's review in the replay (replay.js): a recorded game and the review the
 * backend gave it (tests/data/coach/, the coach's golden files), worded in each language. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LANGUAGES } from '../js/i18n.js';
import { moveText, positionAt, reviewEntry, reviewSummary, reviewText } from '../js/replay.js';
import { deepFreeze } from './helpers.js';
import { CATALOGS, useLanguage } from './catalogs.js';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'data', 'coach');
const read = (name) => JSON.parse(readFileSync(join(DATA, name), 'utf8'));

function reviewed(name) {
  const record = read(`${name}.record.json`);
  return deepFreeze({ ...record, grade: 'locked_candidates', review: read(`${name}.review.json`) });
}

const BRIDGE = reviewed('bridge-26-irregular');
const DOMAINS = reviewed('domains-22');
const READINGS = ['naked_single', 'hidden_single', 'locked_candidates', 'pairs', 'beyond', 'guess'];

test("each step's move carries its own review entry, club actions none", () => {
  // Catches entries matched by position in the review's list instead of by `n`.
  for (const record of [BRIDGE, DOMAINS]) {
    record.moves.forEach((move, n) => {
      const entry = reviewEntry(record, n);
      const shown = positionAt(record, n + 1).move;
      if (entry) {
        assert.equal(entry.n, n);
        assert.equal(entry.seat, move.seat);
        assert.deepEqual(shown.review, entry);
      } else assert.equal(shown.review, undefined);
    });
  }
});

test('a move in words says what the coach saw in it', () => {
  // Catches a label dropped from the step's text, or a verdict worded for the wrong kind.
  useLanguage('en');
  const players = BRIDGE.players;
  const n = BRIDGE.moves.findIndex((m) => m.action === 'place' && !m.mistake);
  const placed = positionAt(BRIDGE, n + 1).move;
  const text = moveText(placed, players);
  assert.ok(text.startsWith('ana placed') || text.startsWith('bob placed'), text);
  assert.ok(text.includes(` — ${reviewText(placed.review, placed, players)}`), text);
  assert.match(text, /naked single|hidden single|locked candidates|pairs|beyond|guess/);
  assert.match(text, /race: ana \d+, bob \d+ to go/);
  const m = BRIDGE.moves.findIndex((move) => move.mistake);
  const mistake = positionAt(BRIDGE, m + 1).move;
  const { digit, cell } = mistake.review.instead;
  assert.ok(moveText(mistake, players).includes(`avoidable: ${digit} at (${cell[0] + 1},${cell[1] + 1}) was sure`));
  const last = positionAt(BRIDGE, BRIDGE.moves.length).move;
  assert.match(moveText(last, players), /cut off/); // the winner's last move cuts the other side off
  assert.equal(reviewText({ n: 0, seat: 'blue', reading: 'guess', candidates: 3 }), 'a guess among 3 digits');
  assert.equal(reviewText({ n: 0, seat: 'blue', reading: 'hidden_single', unit: 'column' }),
    'hidden single in its column');
  assert.equal(reviewText({ n: 0, seat: 'red', reading: null, avoidable: false }, { action: 'place' }),
    'a fair gamble: no tile in hand was sure');
  assert.equal(reviewText({ n: 0, seat: 'red', reading: null, avoidable: false }, { action: 'exchange' }),
    'no tile in hand was sure');
  assert.equal(reviewText({ n: 0, seat: 'red', reading: null, avoidable: false, ruled_out: true, candidates: 2 },
    { action: 'place', digit: 4 }), '4 could be ruled out there');
});

test("the summary names the board's grade, each player's figures and the race's turning moves", () => {
  useLanguage('en');
  const lines = reviewSummary(BRIDGE);
  assert.equal(lines[0], 'The board: its hardest step is locked candidates.');
  const blue = BRIDGE.review.summary.blue;
  assert.ok(lines.includes(`ana: ${blue.proven} of ${blue.placements} placements proven · guesses ${blue.guesses}, `
    + `paid ${blue.guesses_paid} · avoidable mistakes ${blue.avoidable_mistakes}`), lines.join('\n'));
  const race = blue.race_moves.map((m) => `#${m.n + 1}`).join(', ');
  assert.ok(lines.includes(`ana: the moves that changed the race most: ${race}`));
  // Domains has no race.
  assert.ok(!reviewSummary(DOMAINS).some((line) => line.includes('race')));
});

test('a record not reviewed yet reads as before', () => {
  // Catches the replay's words changed for records without a review (old games, or a
  // record fetched before its review was stored).
  useLanguage('en');
  const plain = deepFreeze(read('blitz-10.record.json'));
  const move = positionAt(plain, 1).move;
  assert.equal(move, plain.moves[0]);
  assert.equal(moveText(move, plain.players).includes('—'), false);
  assert.deepEqual(reviewSummary(plain), []);
});

test('every reading and verdict has its words in every language', () => {
  // Catches a key missing from a catalog: t() would show the key itself.
  for (const lang of Object.keys(LANGUAGES)) {
    useLanguage(lang);
    for (const reading of READINGS) {
      assert.ok(Object.hasOwn(CATALOGS[lang], `review.reading.${reading}`), `${lang}: ${reading}`);
    }
    for (const line of [...reviewSummary(BRIDGE), ...BRIDGE.moves.map((m, n) => moveText(positionAt(BRIDGE, n + 1).move, BRIDGE.players))]) {
      assert.doesNotMatch(line, /review\.|\{[a-z_]+\}/, `${lang}: ${line}`);
    }
  }
  useLanguage('en');
});
