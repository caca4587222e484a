/* The five languages: every catalog has English's keys, placeholders and plural forms;
 * the game's names and terms are the rule pages' own words (docs/seeds/); every key the
 * client asks for exists; and no text a player reads is written outside the catalogs. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BLOCKS, SEATS, VARIANTS, fmtDuration, resultText, roomName, variantName } from '../js/format.js';
import { ERROR_CODES } from '../js/frames.js';
import { LANGUAGES, chooseLanguage, fmtIn, t } from '../js/i18n.js';
import { logEntry } from '../js/journal.js';
import { CATALOGS, useLanguage } from './catalogs.js';
import { argumentsOf, expressionEnd, tokenize } from './js-tokens.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const WEB = join(HERE, '..');
const JS = join(WEB, 'js');
const SEEDS = join(WEB, '..', 'docs', 'seeds');
const EN = CATALOGS.en;
const OTHERS = Object.keys(LANGUAGES).filter((lang) => lang !== 'en');

const placeholders = (message) => {
  const forms = typeof message === 'object' ? Object.values(message) : [message];
  return [...new Set(forms.flatMap((form) => [...form.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1])))].sort();
};

test('the client speaks five languages, each with a catalog', () => {
  assert.deepEqual(Object.keys(LANGUAGES), ['en', 'el', 'it', 'bg', 'es']);
  for (const lang of Object.keys(LANGUAGES)) assert.ok(Object.keys(CATALOGS[lang]).length > 200, lang);
});

test('every catalog has exactly English\'s keys', () => {
  for (const lang of OTHERS) {
    const keys = Object.keys(CATALOGS[lang]).sort();
    const english = Object.keys(EN).sort();
    assert.deepEqual(keys.filter((k) => !Object.hasOwn(EN, k)), [], `${lang}: keys English lacks`);
    assert.deepEqual(english.filter((k) => !Object.hasOwn(CATALOGS[lang], k)), [], `${lang}: keys missing`);
  }
});

test('every message has English\'s {placeholders}, and nothing but text', () => {
  for (const [lang, messages] of Object.entries(CATALOGS)) {
    for (const [key, message] of Object.entries(messages)) {
      const forms = typeof message === 'object' ? Object.values(message) : [message];
      for (const form of forms) {
        assert.equal(typeof form, 'string', `${lang} ${key}`);
        assert.ok(form.trim(), `${lang} ${key}: empty`);
        assert.ok(!/<\/?[a-z][^>]*>/i.test(form), `${lang} ${key}: markup`); // shown as text, never HTML
      }
      assert.deepEqual(placeholders(message), placeholders(EN[key]), `${lang} ${key}: placeholders`);
    }
  }
});

test('a message about a count has every plural form its language needs (Intl.PluralRules)', () => {
  for (const [lang, messages] of Object.entries(CATALOGS)) {
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.sort();
    for (const [key, message] of Object.entries(messages)) {
      assert.equal(typeof message, typeof EN[key], `${lang} ${key}: plural in one, not the other`);
      if (typeof message !== 'object') continue;
      assert.deepEqual(Object.keys(message).sort(), needed, `${lang} ${key}: plural forms`);
      assert.ok(placeholders(message).includes('count'), `${lang} ${key}: a plural needs {count}`);
    }
  }
});

test('the other languages are translated, not English copied', () => {
  for (const lang of OTHERS) {
    const same = Object.keys(EN).filter((key) => JSON.stringify(CATALOGS[lang][key]) === JSON.stringify(EN[key]));
    // Names and symbols may be the same ("Blitz", "{action}: {text}"); prose may not.
    assert.ok(same.length < 20, `${lang}: ${same.length} messages as in English: ${same.join(', ')}`);
  }
});

// The game's names and terms as each language's rule page (docs/seeds/) words them: the
// catalog uses the word, and the word is the page's.
const SEED_OF = {
  el: ['000_3f8cf5c6f7f9aca7.txt', '002_a4e277481570bc7a.txt'],
  it: ['001_749c9af87adf4d70.txt'],
  bg: ['003_31d154dba7d2aff5.txt'],
  es: ['004_604e993c3f8a894f.txt'],
};
const NAMES = {
  el: { bridge: 'Γέφυρα', blitz: 'Μπλιτς', domains: 'Κτήσεις' },
  it: { bridge: 'Ponte', blitz: 'Blitz', domains: 'Domini' },
  bg: { bridge: 'Мост', blitz: 'Блиц', domains: 'Владения' },
  es: { bridge: 'Puente', blitz: 'Blitz', domains: 'Dominios' },
};
// term: [the catalog key that names it, the stem of the page's word]
const TERMS = {
  el: { clue: ['action.take', 'δοσμέν'], tile: ['player.tiles', 'πλακίδι'], bag: ['player.bag', 'σακούλα'],
    exchange: ['action.exchange', 'Αλλαγή'], take: ['action.take', 'Κατάληψη'], mistake: ['moves.action.mistake', 'λάθος'],
    block: ['domains.title', 'Μπλοκ'] },
  it: { clue: ['action.take', 'indizio'], tile: ['player.tiles', 'tessere'], bag: ['player.bag', 'sacchetto'],
    exchange: ['action.exchange', 'Cambia'], take: ['action.take', 'Prend'], mistake: ['moves.action.mistake', 'errore'],
    block: ['domains.title', 'Blocchi'] },
  bg: { clue: ['action.take', 'подсказка'], tile: ['player.tiles', 'плочки'], bag: ['player.bag', 'торбичка'],
    exchange: ['action.exchange', 'Смяна'], take: ['action.take', 'Завземане'], mistake: ['moves.action.mistake', 'грешка'],
    block: ['domains.title', 'Блокове'] },
  es: { clue: ['action.take', 'pista'], tile: ['player.tiles', 'fichas'], bag: ['player.bag', 'bolsa'],
    exchange: ['action.exchange', 'Cambiar'], take: ['action.take', 'Tomar'], mistake: ['moves.action.mistake', 'error'],
    block: ['domains.title', 'Bloques'] },
};
const formsOf = (message) => (typeof message === 'object' ? Object.values(message) : [message]);

test('the variants are named as each language\'s rule page names them', () => {
  for (const [lang, names] of Object.entries(NAMES)) {
    const page = SEED_OF[lang].map((file) => readFileSync(join(SEEDS, file), 'utf8')).join('\n');
    useLanguage(lang);
    for (const [variant, name] of Object.entries(names)) {
      assert.equal(variantName(variant), name, `${lang} ${variant}`);
      assert.ok(page.includes(name), `${lang}: the rule page does not say ${name}`);
    }
  }
  useLanguage('bg');
  assert.equal(t('app.name'), 'Цифромост'); // the game's Bulgarian name, as its rule page says
  useLanguage('en');
});

test('the game\'s terms are the rule pages\' words', () => {
  for (const [lang, terms] of Object.entries(TERMS)) {
    const page = SEED_OF[lang].map((file) => readFileSync(join(SEEDS, file), 'utf8')).join('\n').toLowerCase();
    for (const [term, [key, word]] of Object.entries(terms)) {
      const message = formsOf(CATALOGS[lang][key]).join(' ');
      assert.ok(message.includes(word), `${lang} ${term}: ${key} “${message}” does not say ${word}`);
      assert.ok(page.includes(word.toLowerCase()), `${lang} ${term}: the rule page does not say ${word}`);
    }
  }
});

test('the club\'s rooms are named in each language while the server names them as English does', () => {
  const yaml = readFileSync(join(WEB, '..', 'layers', 'numbridge', 'numbridge', 'club', 'rooms.yaml'), 'utf8');
  const rooms = [...yaml.matchAll(/- id: ([\w-]+)\n\s+title: (.+)/g)].map((m) => [m[1], m[2].trim()]);
  assert.ok(rooms.length >= 4);
  for (const [id, title] of rooms) assert.equal(EN[`room.name.${id}`], title, `room ${id}: the catalog's English name`);
  useLanguage('el');
  assert.equal(roomName('domains', 'Domains'), 'Κτήσεις');
  assert.equal(roomName('bridge-60'), 'Γέφυρα 60');
  assert.equal(roomName('domains', 'Our Domains'), 'Our Domains'); // renamed by the club: its own title
  assert.equal(roomName('new-room', 'New room'), 'New room');
  assert.equal(roomName('new-room'), 'new-room');
  useLanguage('en');
});

test('plurals and numbers follow the language (Intl)', () => {
  useLanguage('bg');
  assert.equal(t('player.tiles', { count: 1 }), '1 плочка');
  assert.equal(t('player.tiles', { count: 3 }), '3 плочки');
  useLanguage('el');
  assert.equal(t('live.watchers', { count: 1 }), '1 θεατής');
  assert.equal(t('live.watchers', { count: 2 }), '2 θεατές');
  assert.equal(fmtDuration(45000), '45 δευτ.');
  assert.equal(fmtIn(5, 'second'), 'σε 5 δευτερόλεπτα');
  useLanguage('it');
  assert.equal(t('player.bag', { count: 12345 }), 'sacchetto: 12.345 tessere');
  assert.equal(t('player.bag', { count: 1 }), 'sacchetto: 1 tessera');
  useLanguage('es');
  assert.equal(t('player.mistakes', { count: 1 }), '1 error');
  assert.equal(t('player.mistakes', { count: 1000000 }), '1.000.000 de errores'); // Spanish "many"
  useLanguage('en');
  assert.equal(t('player.tiles', { count: 1 }), '1 tile');
  assert.equal(t('player.tiles', { count: 2 }), '2 tiles');
});

test('results and the log read in each language', () => {
  const players = { blue: { name: 'ana' }, red: { name: 'bob' } };
  const view = { you: 'blue', moves: 7, variant: 'bridge', players };
  const expected = {
    el: ['Κερδίζεις: οι πλευρές συνδέθηκαν (πάνω ↔ κάτω)', '7. ana (εσύ) τοποθέτησε 7 στο (5,4)'],
    it: ['Hai vinto: lati collegati (alto ↔ basso)', '7. ana (tu) ha messo 7 in (5,4)'],
    bg: ['Вие печелите: страните са свързани (горе ↔ долу)', '7. ana (вие) постави 7 на (5,4)'],
    es: ['Has ganado: lados conectados (arriba ↔ abajo)', '7. ana (tú) colocó 7 en (5,4)'],
  };
  for (const [lang, [result, line]] of Object.entries(expected)) {
    useLanguage(lang);
    assert.equal(resultText({ winner: 'blue', by: 'goal' }, players, 'bridge', 'blue'), result);
    assert.equal(logEntry(view, { type: 'placed', v: 9, seat: 'blue', cell: [4, 3], digit: 7 }).text, line);
  }
  useLanguage('en');
});

test('the language follows the browser, unless one was chosen', () => {
  assert.equal(chooseLanguage(['el-GR', 'en-US'], ''), 'el');
  assert.equal(chooseLanguage(['fr-FR', 'bg'], ''), 'bg');
  assert.equal(chooseLanguage(['fr-FR', 'de'], ''), 'en');
  assert.equal(chooseLanguage(['ES-419'], ''), 'es');
  assert.equal(chooseLanguage([], ''), 'en');
  assert.equal(chooseLanguage(['el-GR'], 'it'), 'it');
  assert.equal(chooseLanguage(['el-GR'], 'xx'), 'el');
});

test('a key the catalog lacks is English\'s; a key nobody has shows as itself', () => {
  useLanguage('it');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(t('status.to_move', { name: 'ana' }), 'Tocca a ana');
  useLanguage('en');
});

// ------------------------------------------------------------ the client's source

const MODULES = readdirSync(JS, { recursive: true }).filter((f) => f.endsWith('.js'));
const SOURCES = Object.fromEntries(MODULES.map((f) => [f, readFileSync(join(JS, f), 'utf8')]));

const COMPARISONS = new Set(['===', '!==', '==', '!=']);
/** A literal compared with (`status === 'finished'`): a value looked at, never shown. */
const compared = (tokens, k) => COMPARISONS.has(tokens[k - 1]?.value) || COMPARISONS.has(tokens[k + 1]?.value);

/** Every key the source names: t('a.b'), t(cond ? 'a.b' : 'c.d'), t(`a.${x}`) (as a pattern). */
function keysAsked(tokens, found = { plain: new Set(), patterns: new Set() }) {
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.type === 'tpl') for (const expr of tok.exprs) keysAsked(expr, found);
    if (!(tok.type === 'ident' && tok.value === 't' && tokens[k + 1]?.value === '(')) continue;
    if (tokens[k - 1]?.value === '.') continue; // a method named t
    const [first] = argumentsOf(tokens, k + 1);
    for (let j = first[0]; j < first[1]; j++) {
      const arg = tokens[j];
      if (arg.type === 'str' && !compared(tokens, j)) found.plain.add(arg.value);
      if (arg.type === 'tpl') found.patterns.add(arg.quasis.join('*'));
    }
  }
  return found;
}

test('every key the client asks for is in the catalog', () => {
  const asked = { plain: new Set(), patterns: new Set() };
  for (const source of Object.values(SOURCES)) keysAsked(tokenize(source), asked);
  assert.ok(asked.plain.size > 150, `only ${asked.plain.size} keys found`);
  for (const key of asked.plain) assert.ok(Object.hasOwn(EN, key), `no message ${key}`);
  // Keys made from a value: each value the client puts there has its message.
  const values = {
    'variant.*': VARIANTS, 'seat.*': SEATS, 'blocks.*': BLOCKS, 'error.*': ERROR_CODES,
  };
  for (const [pattern, list] of Object.entries(values)) {
    assert.ok(asked.patterns.has(pattern), pattern);
    for (const value of list) assert.ok(Object.hasOwn(EN, pattern.replace('*', value)), pattern.replace('*', value));
  }
  for (const pattern of asked.patterns) {
    const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.]/g, '\\.')).join('[a-z_-]+')}$`);
    assert.ok(Object.keys(EN).some((key) => re.test(key)), `no message matches ${pattern}`);
  }
});

test('index.html words nothing itself: its text comes from data-i18n keys in the catalog', () => {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const body = html.slice(html.indexOf('<body>'));
  const text = body.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, ' ');
  assert.deepEqual(text.match(/\p{L}{2,}/gu) || [], [], 'words written in index.html');
  const attrs = [...body.matchAll(/\s(?:placeholder|title|aria-label|alt)="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(attrs.filter((value) => /\p{L}{2,}/u.test(value) && !/^eyJ/.test(value)), []);
  const keys = [...body.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
  for (const m of body.matchAll(/data-i18n-attr="([^"]+)"/g)) keys.push(...m[1].split(/\s+/).map((p) => p.split(':')[1]));
  assert.ok(keys.length > 40);
  for (const key of keys) assert.ok(Object.hasOwn(EN, key), `index.html: no message ${key}`);
});

// Where a string literal becomes text a player reads (or hears): the calls (and which of
// their arguments), the properties and the assignments. A literal there must not hold a
// word; a message from t() there is the catalog's.
const CALL_SINKS = {
  h: (args) => args.slice(2), s: (args) => args.slice(2), fill: (args) => args.slice(1),
  toast: (args) => args.slice(0, 1), hint: (args) => args.slice(1, 2), showLogin: (args) => args.slice(1, 2),
  button: (args) => [args[0], args[4]].filter(Boolean), Error: (args) => args.slice(0, 1),
  richText: (args) => args, alert: (args) => args, confirm: (args) => args,
  announce: (args) => args.slice(0, 1), notify: (args) => args.slice(0, 2),
  Notification: (args) => args.slice(0, 1), showNotification: (args) => args.slice(0, 1),
};
const PROPERTY_SINKS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'text', 'label', 'aria-description', 'body']);
const ASSIGN_SINKS = new Set(['textContent', 'innerText', 'innerHTML', 'title', 'placeholder', 'ariaLabel']);
const ATTRIBUTE_SINKS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'aria-description']);

const WORD = /\p{L}{2,}/u;

/** The literals in tokens [start, end) a player would read: not inside t(…) or another call. */
function shownLiterals(tokens, start, end, out) {
  for (let k = start; k < end; k++) {
    const tok = tokens[k];
    if (tok.type === 'ident' && tokens[k + 1]?.value === '(') {
      // A call's result is what shows: t() is the catalog's, other calls are found as sinks themselves.
      k = argumentsOf(tokens, k + 1).reduce((_, [, e]) => e, k + 1);
      continue;
    }
    if (tok.type === 'str' && WORD.test(tok.value) && !compared(tokens, k)) out.push(tok);
    if (tok.type === 'tpl') {
      if (tok.quasis.some((q) => WORD.test(q))) out.push(tok);
      for (const expr of tok.exprs) shownLiterals(expr, 0, expr.length, out);
    }
  }
}

function wordsWrittenInCode(tokens, out = []) {
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.type === 'tpl') for (const expr of tok.exprs) wordsWrittenInCode(expr, out);
    const next = tokens[k + 1];
    if (tok.type === 'ident' && next?.value === '(' && Object.hasOwn(CALL_SINKS, tok.value)
      && tokens[k - 1]?.value !== 'function') {
      for (const [s, e] of CALL_SINKS[tok.value](argumentsOf(tokens, k + 1))) shownLiterals(tokens, s, e, out);
    }
    if ((tok.type === 'ident' || tok.type === 'str') && PROPERTY_SINKS.has(tok.value) && next?.value === ':'
      && ['{', ','].includes(tokens[k - 1]?.value)) {
      shownLiterals(tokens, k + 2, expressionEnd(tokens, k + 2), out);
    }
    if (tok.type === 'ident' && ASSIGN_SINKS.has(tok.value) && tokens[k - 1]?.value === '.'
      && (next?.value === '=' || next?.value === '+=')) {
      shownLiterals(tokens, k + 2, expressionEnd(tokens, k + 2), out);
    }
    if (tok.type === 'ident' && tok.value === 'setAttribute' && next?.value === '(') {
      const args = argumentsOf(tokens, k + 1);
      const name = tokens[args[0][0]];
      if (name.type === 'str' && ATTRIBUTE_SINKS.has(name.value) && args[1]) shownLiterals(tokens, ...args[1], out);
    }
  }
  return out;
}

test('no text shown to a player is written outside the catalogs', () => {
  const found = [];
  for (const [file, source] of Object.entries(SOURCES)) {
    for (const tok of wordsWrittenInCode(tokenize(source))) {
      found.push(`${file}:${tok.line} ${tok.type === 'str' ? tok.value : tok.quasis.join('…')}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the scan finds words where they would show (it is not blind)', () => {
  const samples = [
    "node.textContent = 'connected';",
    "toast(`Dealing a game against the ${level} bot…`, 'info');",
    "h('span', { class: 'muted' }, ok ? 'Shown' : 'Play');",
    "h('button', { type: 'button', title: 'one move back' }, '◀');",
    "fill(list, h('li', { class: 'muted' }, 'No games yet.'));",
    "el.setAttribute('aria-label', 'replay');",
    "hint(app, 'It is not your move.');",
    "items.push(button('Resign', 'resign', resign));",
    "throw new Error('The server does not answer');",
    "h('div', {}, `${n} blocks`);",
    "announce('Your move');",
    "notify('Your move', `against ${name}`, tag);",
    "registration.showNotification('Numbridge', { body: 'It is your move' });",
  ];
  for (const sample of samples) assert.equal(wordsWrittenInCode(tokenize(sample)).length >= 1, true, sample);
  const clean = [
    "node.textContent = t('conn.open');",
    "h('span', { class: 'seat-dot blue', dataset: { seat } }, t('player.you'));",
    "h('td', { class: 'num' }, move.digit ?? '');",
    "toast(t('form.no_room'), 'error');",
    "h('button', { title: t('replay.back') }, '◀');",
    "h('span', {}, status === 'finished' ? t('games.replay') : t('games.play'));",
  ];
  for (const sample of clean) assert.deepEqual(wordsWrittenInCode(tokenize(sample)), [], sample);
});
