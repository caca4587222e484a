/* The page's modules fit together: every relative import names a file that exports
 * what is imported (the browser would otherwise stop at the first missing name). */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = join(dirname(fileURLToPath(import.meta.url)), '..', 'js');
// Every module, by its path under web/js (the board's are in web/js/board/).
const MODULES = readdirSync(JS, { recursive: true }).map((f) => f.split('\\').join('/'))
  .filter((f) => f.endsWith('.js'));
const target = (file, from) => posix.normalize(posix.join(posix.dirname(file), from));

function exportsOf(source) {
  const names = new Set();
  for (const m of source.matchAll(/^export\s+(?:async\s+)?(?:const|let|function\*?|class)\s+([A-Za-z_$][\w$]*)/gm)) {
    names.add(m[1]);
  }
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1].split(',')) names.add(part.trim().split(/\s+as\s+/).pop());
  }
  return names;
}

function importsOf(source) {
  const found = [];
  for (const m of source.matchAll(/^import\s+(?:\{([^}]*)\}|\*\s+as\s+\w+)\s+from\s+'([^']+)';/gm)) {
    const names = m[1] ? m[1].split(',').map((p) => p.trim().split(/\s+as\s+/)[0]).filter(Boolean) : [];
    found.push({ names, from: m[2] });
  }
  return found;
}

test('every import resolves to a module that exports it', () => {
  for (const file of MODULES) {
    const source = readFileSync(join(JS, file), 'utf8');
    for (const { names, from } of importsOf(source)) {
      assert.ok(/^\.\.?\//.test(from) && from.endsWith('.js'), `${file}: import from ${from}`);
      const path = target(file, from);
      assert.ok(MODULES.includes(path), `${file}: ${from} is not a module of web/js`);
      const exported = exportsOf(readFileSync(join(JS, path), 'utf8'));
      for (const name of names) assert.ok(exported.has(name), `${file}: ${from} has no export ${name}`);
    }
  }
});

test('every module is reached from main.js', () => {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { from } of importsOf(readFileSync(join(JS, file), 'utf8'))) visit(target(file, from));
  };
  visit('main.js');
  assert.deepEqual([...seen].sort(), [...MODULES].sort());
});

test('the pure modules use no browser globals', () => {
  for (const file of ['format.js', 'geometry.js', 'reducer.js', 'sequence.js', 'journal.js', 'board/model.js', 'turns.js', 'refusals.js',
    'account-rules.js', 'login-address.js']) {
    const source = readFileSync(join(JS, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const word of ['document', 'window', 'WebSocket', 'fetch', 'setTimeout', 'setInterval',
      'requestAnimationFrame', 'localStorage', 'sessionStorage', 'Date.now', 'Math.random']) {
      assert.ok(!new RegExp(`\\b${word.replace('.', '\\.')}\\b`).test(source), `${file} uses ${word}`);
    }
  }
});
