/* The words the page shows, in the player's language: messages from a catalog
 * (web/i18n/<lang>.json, loaded by language.js), numbers, durations and times with
 * Intl. Pure (no DOM, no network): the other pure modules word their text with it and
 * the Node tests load a catalog from the file.
 *
 * A catalog maps a key to a message with {placeholders}, or, for a message about a
 * count, to its plural forms by Intl.PluralRules category ({"one": …, "other": …}),
 * chosen by the `count` parameter. Numbers put in a message are written the language's
 * way (Intl.NumberFormat). */

/** The languages the client speaks, each named in itself (for the switcher). */
export const LANGUAGES = {
  en: 'English',
  el: 'Ελληνικά',
  it: 'Italiano',
  bg: 'Български',
  es: 'Español',
};
export const DEFAULT_LANGUAGE = 'en';

let language = DEFAULT_LANGUAGE;
let messages = {};
let fallback = {};
let plurals = new Intl.PluralRules(DEFAULT_LANGUAGE);
let numbers = new Intl.NumberFormat(DEFAULT_LANGUAGE);

/**
 * The language to speak: the one chosen before (`stored`), else the first of the
 * browser's (`preferred`, navigator.languages) that the client speaks, by its primary
 * subtag ("el-GR" is Greek), else English.
 */
export function chooseLanguage(preferred, stored) {
  if (stored && Object.hasOwn(LANGUAGES, stored)) return stored;
  for (const tag of preferred || []) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGUAGES, primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** Speak `lang` from `catalog`; `english` answers a key the catalog lacks. */
export function setCatalog(lang, catalog, english = catalog) {
  language = lang;
  messages = catalog;
  fallback = english;
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
}

export const currentLanguage = () => language;

/** Whether the catalog words `key`, and how English does (null: it does not). */
export const englishMessage = (key) => (Object.hasOwn(fallback, key) ? fallback[key] : null);

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The message `key` with its {placeholders} filled from `params` (the key itself if none has it). */
export function t(key, params = {}) {
  let message = Object.hasOwn(messages, key) ? messages[key] : fallback[key];
  if (message === undefined) return key;
  if (typeof message === 'object') {
    const count = Number(params.count);
    message = message[plurals.select(count)] ?? message.other;
  }
  return message.replace(PLACEHOLDER, (whole, name) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return typeof value === 'number' ? numbers.format(value) : String(value);
  });
}

/** A number the language's way (decimal separator, grouping). */
export const fmtNumber = (n, options) => (options ? new Intl.NumberFormat(language, options) : numbers).format(n);

/** An amount of a unit ("45 s", "20 min", "45 δευτ."): Intl's short unit names. */
export const fmtUnit = (n, unit, options = {}) => new Intl.NumberFormat(language, {
  style: 'unit', unit, unitDisplay: 'short', ...options,
}).format(n);

/** "in 5 seconds" in the language (Intl.RelativeTimeFormat). */
export const fmtIn = (n, unit) => new Intl.RelativeTimeFormat(language, { numeric: 'always' }).format(n, unit);

/** A moment as a short date and time (Intl.DateTimeFormat). */
export const fmtMoment = (ms) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' })
  .format(new Date(ms));

/** A list the language's way: "a, b and c" (Intl.ListFormat). */
export const fmtList = (items) => new Intl.ListFormat(language, { type: 'conjunction' }).format(items);

/** Alternatives the language's way: "6×6 or 9×9" (Intl.ListFormat). */
export const fmtOr = (items) => new Intl.ListFormat(language, { type: 'disjunction' }).format(items.map(String));
