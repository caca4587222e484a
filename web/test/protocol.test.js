/* The client's copies of the protocol agree with docs/asyncapi.json (generated from
 * the server's protocol definitions): request names, answer kinds, error codes and the
 * frames about a game that carry no `v`. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ANSWERS, QUERIES } from '../js/connection.js';
import { REFUSED_BY_STATUS, SIGN_IN_CODES, WEAK_PASSWORD_REASONS } from '../js/refusals.js';
import { ERROR_CODES } from '../js/frames.js';
import { UNVERSIONED } from '../js/reducer.js';
import { CATALOGS } from './catalogs.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DOC = JSON.parse(readFileSync(join(HERE, '..', '..', 'docs', 'asyncapi.json'), 'utf8'));
const MESSAGES = DOC.components.messages;
const SCHEMAS = DOC.components.schemas;
const schemaOf = (message) => SCHEMAS[message.payload.$ref.split('/').pop()];

const requests = new Map(Object.entries(MESSAGES).filter(([k]) => !k.startsWith('server.')));
const server = Object.entries(MESSAGES).filter(([k]) => k.startsWith('server.')).map(([, m]) => schemaOf(m));
const kindOf = (schema) => schema.properties.type.const;

test('every request the document lists says whether it is applied once', () => {
  for (const [name, message] of requests) assert.equal(typeof message['x-once'], 'boolean', name);
});

test('the queries the client drops while offline are reads, and every change is queued', () => {
  for (const name of QUERIES) {
    assert.ok(requests.has(name), `${name} is no request`);
    assert.equal(requests.get(name)['x-once'], false, `${name} changes something: it must be queued`);
  }
});

test('every request the client sends is one the server reads', () => {
  const JS = join(HERE, '..', 'js');
  const files = readdirSync(JS, { recursive: true }).filter((f) => f.endsWith('.js'));
  let sent = 0;
  for (const file of files) {
    const source = readFileSync(join(JS, file), 'utf8');
    for (const m of source.matchAll(/\b(?:request|act)\((?:app, )?'([a-z_]+)'/g)) {
      sent += 1;
      assert.ok(requests.has(m[1]), `${file} sends ${m[1]}, which the document does not list`);
    }
  }
  assert.ok(sent > 20, `only ${sent} requests found: the pattern no longer sees how the client sends`);
});

test('the answer kinds are the frames that carry a request id (state apart)', () => {
  const answering = server.filter((s) => 'id' in s.properties).map(kindOf).filter((k) => k !== 'state');
  assert.deepEqual([...ANSWERS].sort(), answering.sort());
});

test('the unversioned kinds are the frames about a game without a v (the batch apart)', () => {
  const unversioned = server
    .filter((s) => 'game' in s.properties && !('v' in s.properties) && !('events' in s.properties)
      && !('id' in s.properties))
    .map(kindOf);
  assert.deepEqual([...UNVERSIONED].sort(), unversioned.sort());
});

test('every error code is one the client words, in every language', () => {
  const codes = SCHEMAS.Error.properties.code.enum;
  assert.deepEqual([...ERROR_CODES].sort(), [...codes].sort());
  for (const [lang, messages] of Object.entries(CATALOGS)) {
    for (const code of codes) {
      const text = messages[`error.${code}`];
      assert.ok(typeof text === 'string' && text.trim(), `${lang}: no text for the error ${code}`);
    }
  }
});

test('every request the client may send has its name in every language (an error names it)', () => {
  for (const [lang, messages] of Object.entries(CATALOGS)) {
    for (const name of requests.keys()) {
      const text = messages[`request.${name}`];
      assert.ok(typeof text === 'string' && text.trim(), `${lang}: no name for the request ${name}`);
      assert.notEqual(lang !== 'en' && text, name, `${lang}: the request ${name} named by its wire name`);
    }
  }
});

test('every refusal the local sign-in can answer is worded in every language', () => {
  // The codes as numbridge/local/accounts/sign_in.py lists them (its docstring is the list).
  const source = readFileSync(join(HERE, '..', '..', 'layers', 'numbridge', 'numbridge', 'local', 'accounts', 'sign_in.py'), 'utf8');
  const listed = source.slice(0, source.indexOf('Every answer carries')).slice(source.indexOf('Every refusal is'));
  const words = (text) => [...text.matchAll(/``([a-z_]+)``/g)].map((m) => m[1]);
  // `weak_password (with reason: short, long or common)`: the reasons apart from the codes.
  const withReason = /\(with ``reason``: ([^)]*)\)/;
  const reasons = words(listed.match(withReason)?.[1] ?? '');
  const codes = words(listed.replace(withReason, '')).filter((word) => word !== 'retry_after_ms');
  assert.ok(codes.length >= 9, `only ${codes.length} codes found in sign_in.py`);
  assert.deepEqual([...SIGN_IN_CODES].sort(), [...new Set(codes)].sort());
  assert.deepEqual([...WEAK_PASSWORD_REASONS].sort(), [...reasons].sort());
  for (const [lang, messages] of Object.entries(CATALOGS)) {
    const worded = [...codes, ...Object.values(REFUSED_BY_STATUS), 'need_password', ...reasons.map((r) => `password_${r}`)];
    for (const code of worded) {
      const text = messages[`signin.${code}`];
      assert.ok(typeof text === 'string' && text.trim(), `${lang}: no text for the sign-in refusal ${code}`);
    }
  }
});
