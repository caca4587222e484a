/* Shared by the tests: the recorded fixtures (web/test/fixtures/, written by
 * tools/capture_web_fixtures.py against a real server) and a deep freeze (purity checks). */

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Every recorded game: `{name, note, players: {ana: [frames], bob: [frames]}}`. */
export function fixtures() {
  return readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort().map((file) => ({
    name: file.replace(/\.json$/, ''),
    ...JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')),
  }));
}

export const isEvent = (frame) => frame.type !== 'state' && typeof frame.game === 'string'
  && Number.isInteger(frame.v);
export const isState = (frame) => frame.type === 'state';

export function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/** A small seeded random generator (mulberry32), for shuffles that are the same every run. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
