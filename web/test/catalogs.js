/* The catalogs (web/i18n/<lang>.json) for the Node tests: read from the files, and
 * `useLanguage` to word the pure modules' text in one of them (English by default). */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LANGUAGES, setCatalog } from '../js/i18n.js';

export const I18N = join(dirname(fileURLToPath(import.meta.url)), '..', 'i18n');

export const catalog = (lang) => JSON.parse(readFileSync(join(I18N, `${lang}.json`), 'utf8'));
export const CATALOGS = Object.fromEntries(Object.keys(LANGUAGES).map((lang) => [lang, catalog(lang)]));

export function useLanguage(lang = 'en') {
  setCatalog(lang, CATALOGS[lang], CATALOGS.en);
}
