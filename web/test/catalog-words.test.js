/* The catalogs' words as a native speaker reads them: one form of address in each
 * language (never "ти" on one button and "вие" on the next), no article that gives a
 * player a gender or a case around a name, Italian's article before a number, the rule
 * pages' glossary terms (docs/rules/README.md), and the other findings of the
 * native-speaker review of the catalogs.
 *
 * Each check failed on the catalogs as they were before that review was acted on: bg
 * mixed ти and вие in 39 strings, el put "Ο"/"του"/"τον" before a name in 20, it wrote
 * "il {digit}" in 5, el counted «αστοχίες» and es "fallos", es and bg named Swap
 * "Cambio de color" and "Размяна" (beside Exchange's "Смяна"), el's Abort read
 * «Ακύρωση» (Cancel), es said "Ganas" and "cuando … piden"; and the rooms list wrote
 * every room's variants beside its name ("Bridge Bridge"). The messages quote the
 * offending strings. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { roomName, variantName, variantsBeside } from '../js/format.js';
import { CATALOGS, useLanguage } from './catalogs.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SEEDS = join(ROOT, 'docs', 'seeds');
const page = (...files) => files.map((file) => readFileSync(join(SEEDS, file), 'utf8')).join('\n');
const PAGES = {
  el: page('000_3f8cf5c6f7f9aca7.txt', '002_a4e277481570bc7a.txt'),
  it: page('001_749c9af87adf4d70.txt'),
  bg: page('003_31d154dba7d2aff5.txt'),
  es: page('004_604e993c3f8a894f.txt'),
};

/** Every string of a catalog as [key, text]; a plural's forms as `key.form`. */
const strings = (lang) => Object.entries(CATALOGS[lang]).flatMap(([key, message]) => (
  typeof message === 'object'
    ? Object.entries(message).map(([form, text]) => [`${key}.${form}`, text])
    : [[key, message]]));
const words = (text) => text.toLowerCase().match(/\p{L}+/gu) || [];
const found = (lang, pred) => strings(lang).filter(([key, text]) => pred(text, key)).map(([key, text]) => `${key}: ${text}`);

// ------------------------------------------------------------------ T–V

/*
 * Each language's register and the forms of the other one that give it away: pronouns,
 * and verb forms whose ending names the person (imperatives above all — the buttons).
 * Bulgarian speaks to the player as "вие", as its rule page does; Greek, Italian and
 * Spanish say "εσύ", "tu" and "tú", as their rule pages and games do.
 */
const OTHER_REGISTER = {
  bg: {
    register: 'вие',
    words: new Set([
      'ти', 'теб', 'тебе', 'твой', 'твоя', 'твоят', 'твое', 'твоето', 'твои', 'твоите',
      // 2nd person singular imperatives (the polite: играйте, изберете, натиснете, …)
      'играй', 'обнови', 'спри', 'предизвикай', 'откажи', 'оттегли', 'приеми', 'копирай', 'отвори',
      'затвори', 'гледай', 'предложи', 'прекрати', 'покажи', 'продължи', 'пусни', 'избери', 'постави',
      'изчисти', 'скрий', 'завземи', 'смени', 'съобщи', 'натисни', 'щракни', 'докосни', 'въведи',
      'изчакай', 'опитай', 'влез', 'вземи', 'презареди', 'използвай', 'попитай', 'чакай', 'изпрати',
      'виж', 'кажи', 'пиши', 'размени', 'сложи', 'тегли', 'изтегли', 'напусни', 'следи', 'поискай',
    ]),
    // 2nd person singular present: играеш, можеш, гледаш (but not ваш, наш)
    pattern: /^(?!(?:ваш|наш)$)\p{L}+(?:еш|иш|аш)$/u,
    // A verb right after a name is its past ("{who} постави": ana placed), not an imperative.
    ignore: /\{(?:who|name)\}\s+\p{L}+/gu,
  },
  el: {
    register: 'εσύ',
    words: new Set(['εσείς', 'σας', 'σάς', 'εσάς']),
    // 2nd person plural: πατήστε, διαλέξτε, κάντε, μπορείτε, παίζετε, περιμένετε
    pattern: /^\p{L}{2,}(?:ετε|έτε|είτε|άτε|ατε|στε|ξτε|ψτε|χτε|ντε|θείτε|θήτε)$/u,
  },
  it: {
    register: 'tu',
    words: new Set(['lei', 'voi', 'vostro', 'vostra', 'vostri', 'vostre']),
    // The courtesy imperatives are also the subjunctive ("che un avversario la accetti"):
    // one starts a clause ("Scelga una tessera", "… : prema due volte").
    verbs: new Set([
      'scelga', 'prema', 'clicchi', 'faccia', 'attenda', 'inserisca', 'riprovi', 'ricarichi', 'apra',
      'chieda', 'incolli', 'accetti', 'proponga', 'metta', 'prenda', 'acceda', 'vada', 'venga', 'smetta',
      'ritiri', 'annulli', 'segua', 'guardi', 'aspetti', 'scegliete', 'premete', 'inserite', 'attendete',
      'accedete', 'riprovate',
    ]),
    // The courtesy possessives are capitalized (lower case, "sua" is the cell's: "nella sua riga").
    capitalized: /(?<!\p{L})(?:Suo|Sua|Suoi|Sue|Lei)(?!\p{L})/u,
  },
  es: {
    register: 'tú',
    words: new Set(['usted', 'ustedes', 'vosotros', 'vuestro', 'vuestra', 'avíseme', 'inténtelo', 'conéctese', 'ríndase']),
    // As in Italian, the imperatives of "usted" are subjunctives too ("cuando el rival pida").
    verbs: new Set([
      'pulse', 'haga', 'elija', 'escriba', 'espere', 'vuelva', 'recargue', 'abra', 'pegue', 'pregunte',
      'acepte', 'tome', 'coloque', 'cambie', 'consiga', 'juegue', 'ofrezca', 'proponga', 'rechace',
      'intente', 'desafíe', 'mire', 'deje', 'retire', 'copie', 'cierre', 'quite', 'ponga', 'vaya', 'pida',
      'tenga', 'diga', 'rinda', 'aplace', 'reanude', 'robe', 'descarte',
    ]),
  },
};

/** The first word of each clause of `text`. */
const clauseStarts = (text) => [...text.matchAll(/(?:^|[.:;!?(—–,¿¡])\s*(\p{L}+)/gu)].map((m) => m[1].toLowerCase());

/** Whether `text` uses a form of the register `lang` does not speak in. */
function inOtherRegister(lang, text) {
  const { words: list, verbs, pattern, capitalized, ignore } = OTHER_REGISTER[lang];
  const said = ignore ? text.replace(ignore, ' ') : text;
  return words(said).some((word) => list.has(word) || Boolean(pattern?.test(word)))
    || Boolean(verbs && clauseStarts(said).some((word) => verbs.has(word)))
    || Boolean(capitalized?.test(said));
}

test('each catalog speaks to the player in one register (T–V): never the other one\'s forms', () => {
  for (const [lang, { register }] of Object.entries(OTHER_REGISTER)) {
    assert.deepEqual(found(lang, (text) => inOtherRegister(lang, text)), [], `${lang} speaks as “${register}”: these do not`);
  }
});

test('the register word lists catch what they are for (they are not blind)', () => {
  const catches = inOtherRegister;
  for (const [lang, bad, good] of [
    ['bg', 'Играй сега', 'Играйте сега'], ['bg', 'Спри да гледаш', 'Спрете да гледате'],
    ['bg', 'натисни два пъти', 'натиснете два пъти'], ['bg', 'ръката ти', 'Вашият рейтинг'], ['bg', 'постави плочката', '{who} постави {digit}'],
    ['el', 'Πατήστε ένα κελί', 'Πάτησε ένα κελί'], ['el', 'η σειρά σας', 'η σειρά σου'],
    ['el', 'μπορείτε να το καταλάβετε', 'μπορείς να το καταλάβεις'],
    ['it', 'Scelga una tessera', 'Scegli una tessera'], ['it', 'il Suo turno', 'nella sua riga'],
    ['it', 'abbandono (prema due volte)', 'in attesa che un avversario la accetti'],
    ['es', 'rendirse (pulse dos veces)', 'rendirse (pulsa dos veces)'], ['es', 'Haga clic', 'Haz clic'],
    ['es', '¿Usted juega?', 'cuando el rival pida reanudar'],
  ]) {
    assert.ok(catches(lang, bad), `${lang}: “${bad}” not caught`);
    assert.ok(!catches(lang, good), `${lang}: “${good}” caught`);
  }
});

// ------------------------------------------------- no gender or case around a name

// The placeholders a player's name (or "ana (you)") fills.
const PERSON = '\\{(?:name|who|winner|opponent|current|names|blue|red)\\}';
const BEFORE_NAME = {
  // An article (or a preposition fused with one), or "ο παίκτης": both give the player a
  // gender and a case, and a name in another script takes neither.
  el: new RegExp(`(?<!\\p{L})(?:ο|η|οι|το|τα|του|της|των|τον|την|τους|τις|στον|στην|στο|στη|στους|στις)(?:\\/\\p{L}+)?\\s+(?:(?:παίκτης|παίκτη|παίκτρια|παίκτριας|αντίπαλος|αντίπαλο|αντιπάλου)\\s+)?${PERSON}`, 'iu'),
  it: new RegExp(`(?<!\\p{L})(?:il|lo|la|l['’]|i|gli|le|del|dello|della|al|allo|alla|dal|dalla|col|sul|sulla)\\s*${PERSON}`, 'iu'),
  es: new RegExp(`(?<!\\p{L})(?:el|la|los|las|del|al)\\s+${PERSON}`, 'iu'),
  // Bulgarian's article is the noun's ending ("играчът ana"); a past participle before a
  // name ("поискал: ana") is a man's.
  bg: new RegExp(`(?:(?<!\\p{L})\\p{L}+(?:ът|ят)|(?<!\\p{L})\\p{L}+[ая]л[аио]?):?\\s+${PERSON}`, 'iu'),
};

test('no article, nor a word with a gender, directly before a player\'s name', () => {
  for (const [lang, re] of Object.entries(BEFORE_NAME)) {
    assert.deepEqual(found(lang, (text) => re.test(text)), [], `${lang}: a name with an article`);
  }
  // The patterns see what they are for.
  assert.ok(BEFORE_NAME.el.test('Ο {name} εγκατέλειψε'));
  assert.ok(BEFORE_NAME.el.test('κερδίζει ο {winner}'));
  assert.ok(BEFORE_NAME.el.test('απέναντι στον/στην {opponent}'));
  assert.ok(BEFORE_NAME.el.test('η απάντηση του παίκτη {name}'));
  assert.ok(!BEFORE_NAME.el.test('{name} εγκατέλειψε — κερδίζει: {winner}'));
  assert.ok(!BEFORE_NAME.el.test('Το {server} απέρριψε')); // a server, not a player
  assert.ok(BEFORE_NAME.it.test('la proposta della {name}'));
  assert.ok(!BEFORE_NAME.it.test('Tocca a {name}'));
  assert.ok(BEFORE_NAME.es.test('el {name} se rindió'));
  assert.ok(!BEFORE_NAME.es.test('Le toca a {name}'));
  assert.ok(BEFORE_NAME.bg.test('(поискал: {names})'));
  assert.ok(BEFORE_NAME.bg.test('играчът {name} отказа'));
  assert.ok(!BEFORE_NAME.bg.test('Времето на {name} изтече'));
});

test('a side\'s colour is not said as an adjective of the player ("gioca rosso", «παίζει κόκκινος»)', () => {
  // Straight after the verb the colour agrees with the player ("ana gioca rossa"): which
  // a name does not say. The catalogs had "{name} gioca {colour}" and «ο {name} παίζει
  // {colour}»; they say "gioca con il rosso", «{colour}: {name}».
  const re = /\{(?:name|who)\}\s+\p{L}+\s+\{colour\}/u;
  for (const lang of ['el', 'it', 'es', 'bg']) {
    assert.deepEqual(found(lang, (text) => re.test(text)), [], lang);
  }
  assert.ok(re.test('{name} gioca {colour}') && !re.test('{name} gioca con il {colour}'));
});

// ------------------------------------------------------- Italian: l'8, l'1

test('Italian puts no article before a number it cannot see (l\'8, l\'1, il 2)', () => {
  // "il" is right before 2 but wrong before 1, 8, 11 or 80: a number filled in, or one of
  // those, takes no article (or a noun: "la cifra 8").
  const re = /(?<!\p{L})(?:il|del|al|dal|nel|sul|l['’]|dell['’]|all['’])\s*(?:\{(?:digit|count|k|n|move|min|max)\}|(?:1|8|11|18|8\d)(?!\d))/u;
  assert.deepEqual(found('it', (text) => re.test(text)), []);
  assert.ok(re.test('errore — il {digit} non va in {cell}') && re.test('il 8') && !re.test('la cifra {digit}'));
});

// ------------------------------------------------------- the rule pages' terms

const formsOf = (message) => (typeof message === 'object' ? Object.values(message) : [message]);
const textOf = (lang, key) => formsOf(CATALOGS[lang][key]).join(' | ');

/** The glossary of docs/rules/README.md: {thing: {lang: the words its row gives}}. */
const GLOSSARY = (() => {
  const text = readFileSync(join(ROOT, 'docs', 'rules', 'README.md'), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('|')).map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
  const [head, , ...body] = rows;
  return Object.fromEntries(body.map((cells) => [cells[0], Object.fromEntries(head.slice(1).map((lang, i) => [lang, cells[i + 1]]))]));
})();

const SWAP_KEYS = ['action.swap', 'request.swap', 'keys.swap', 'log.swapped', 'record.swap', 'moves.action.swap'];
const MISTAKE_KEYS = ['player.mistakes', 'player.mistakes_title', 'replay.mistakes', 'log.mistake', 'record.mistake', 'moves.action.mistake'];
// thing (the glossary's row): the keys that name it, and in each language the word (a
// stem) each of them says, which is the glossary's.
const TERMS = {
  'swap (the pie rule)': [SWAP_KEYS, {
    el: 'κανόνας της πίτας', it: 'regola della torta', bg: 'правило на тортата', es: 'regla del pastel',
  }],
  mistake: [MISTAKE_KEYS, { el: 'λάθ', it: 'error', bg: 'грешк', es: 'error' }],
  abort: [['action.abort', 'request.abort'], { el: 'ματαίωσ', it: 'annull', bg: 'прекрат', es: 'anular' }],
  'the club': [['header.club'], { el: 'κλαμπ', it: 'club', bg: 'клуб', es: 'club' }],
};
// Words no string of a catalog may use: what the glossary says not to, the words the
// review found (Swap "Размяна" beside Exchange "Смяна", "Cambio de color": red takes a
// cell, it changes no colour).
const NEVER = {
  el: ['λέσχ', 'αστοχ', 'ανταλλαγ'],
  it: ['scambio', 'scambiato', 'circolo'],
  bg: ['размяна', 'размени ('],
  es: ['fallo', 'cambio de color', 'cambió de color'],
};

test('the catalogs name things with the rule pages\' glossary words (Swap, mistakes, abort, the club)', () => {
  for (const [thing, [keys, byLang]] of Object.entries(TERMS)) {
    assert.ok(GLOSSARY[thing], `the glossary has no row “${thing}”`);
    for (const [lang, word] of Object.entries(byLang)) {
      assert.ok(GLOSSARY[thing][lang].toLowerCase().includes(word), `${lang} ${thing}: the glossary does not say ${word}`);
      for (const key of keys) {
        const text = textOf(lang, key).toLowerCase();
        assert.ok(text.includes(word), `${lang} ${key} “${text}” does not say ${word} (${thing})`);
      }
    }
  }
  for (const [lang, bad] of Object.entries(NEVER)) {
    assert.deepEqual(found(lang, (text) => bad.some((word) => text.toLowerCase().includes(word))), [], `${lang}: ${bad.join(', ')}`);
  }
});

test('the mistakes counter and the club are the basics pages\' words too («μετρητής λαθών», «contador de errores»)', () => {
  for (const [lang, word, stem, keys] of [
    ['el', 'μετρητής λαθών', 'λάθ', ['player.mistakes_title', 'replay.mistakes']],
    ['es', 'contador de errores', 'error', ['player.mistakes_title', 'replay.mistakes']],
    ['el', 'κουμπιά του κλαμπ', 'κλαμπ', ['header.club']],
  ]) {
    assert.ok(PAGES[lang].includes(word), `${lang}: the rule page does not say ${word}`);
    for (const key of keys) assert.ok(textOf(lang, key).toLowerCase().includes(stem), `${lang} ${key}: ${textOf(lang, key)}`);
  }
});

// ------------------------------------------------- the review's other findings

test('the review\'s findings stay fixed: el abort, it tenses, es tenses and moods', () => {
  // el: «Ακύρωση» is the Cancel of every dialog; ending a game with no result is not that.
  for (const key of ['action.abort', 'request.abort']) {
    assert.ok(!/^ακύρωσ|^άκυρ/i.test(CATALOGS.el[key]), `el ${key}: ${CATALOGS.el[key]}`);
  }
  // it: the moves table names actions with nouns ("mette", "passa" are verbs); the log
  // tells what happened in the past, as its other lines do ("ha messo", not "passa").
  const itVerbs = new Set(['mette', 'passa', 'prende', 'cambia', 'scambia', 'abbandona', 'rinvia']);
  assert.deepEqual(found('it', (text, key) => key.startsWith('moves.action.') && words(text).some((w) => itVerbs.has(w))), []);
  assert.deepEqual(found('it', (text, key) => /^(log|record)\./.test(key) && words(text).some((w) => itVerbs.has(w))), []);
  // es: a win already happened ("Has ganado", not "Ganas"); "cuando" about what is to
  // come takes the subjunctive ("cuando … pidan").
  assert.deepEqual(found('es', (text, key) => key.startsWith('result.') && words(text).includes('ganas')), []);
  assert.deepEqual(found('es', (text) => /cuando\b[^.;:—]*\b(piden|quieren|vuelven|aceptan)\b/i.test(text)), []);
});

// ---------------------------------------------------------- the rooms list

test('the rooms list names a room\'s variants only where its name does not (no "Bridge Bridge")', () => {
  // The club's rooms and their variants, as rooms.yaml lists them.
  const yaml = readFileSync(join(ROOT, 'layers', 'numbridge', 'numbridge', 'club', 'rooms.yaml'), 'utf8');
  const rooms = [...yaml.matchAll(/- id: ([\w-]+)\n\s+title: (.+)\n\s+variants:.*\n((?:\s{6}\w+:.*\n)+)/g)]
    .map(([, id, title, lines]) => [id, title.trim(), [...lines.matchAll(/^\s+(\w+):/gm)].map((m) => m[1])]);
  assert.ok(rooms.length >= 4, 'rooms.yaml read');
  const shown = {};
  for (const lang of Object.keys(CATALOGS)) {
    useLanguage(lang);
    for (const [id, title, variants] of rooms) {
      const name = roomName(id, title);
      const beside = variantsBeside(name, variants.map(variantName));
      for (const variant of beside) assert.ok(!name.includes(variant), `${lang} ${id}: “${name} ${variant}”`);
      shown[`${lang} ${id}`] = beside.join(' · ');
    }
  }
  useLanguage('en');
  // Bridge's room is Bridge: nothing beside it (it showed "Bridge Bridge"); the study room
  // plays every variant and names them.
  assert.equal(shown['en bridge'], '');
  assert.equal(shown['el bridge-60'], '');
  assert.equal(shown['bg domains'], '');
  assert.equal(shown['en study'], 'Bridge · Blitz · Domains');
  assert.equal(shown['es study'], 'Puente · Blitz · Dominios');
  // A room the club renamed still names its variant.
  assert.deepEqual(variantsBeside('Friday night', ['Bridge']), ['Bridge']);
});
