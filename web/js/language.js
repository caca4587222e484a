/* The page's language: chosen at start (the one picked before, else the browser's, see
 * i18n.js `chooseLanguage`), its catalog fetched from web/i18n/, the page's fixed text
 * (index.html's `data-i18n` elements) worded from it, and the switcher in the header,
 * whose choice is remembered. A switch reloads the page: every text, the log's lines
 * too, is then worded in the new language from the start. */

import { $, fill, h } from './dom.js';
import { DEFAULT_LANGUAGE, LANGUAGES, chooseLanguage, currentLanguage, setCatalog, t } from './i18n.js';

const LANGUAGE_KEY = 'numbridge.language';

/** The catalog of `lang`, or null if it does not come. */
async function fetchCatalog(lang) {
  try {
    const response = await fetch(`/web/i18n/${lang}.json`, { cache: 'no-cache' });
    return response.ok ? await response.json() : null;
  } catch (_) {
    return null;
  }
}

/** Load the language's catalog (English beside it, for a key it lacks) and word the page. */
export async function startLanguage() {
  let stored = '';
  try {
    stored = localStorage.getItem(LANGUAGE_KEY) || '';
  } catch (_) {
    stored = ''; // storage refused (a private window, say): the browser's language then
  }
  const lang = chooseLanguage(navigator.languages || [navigator.language], stored);
  // English answers a key another catalog lacks; with no catalog at all the keys show.
  const english = (await fetchCatalog(DEFAULT_LANGUAGE)) || {};
  const catalog = lang === DEFAULT_LANGUAGE ? english : await fetchCatalog(lang);
  setCatalog(catalog ? lang : DEFAULT_LANGUAGE, catalog || english, english);
  translatePage();
  attachSwitcher();
}

/**
 * Text with `code` spans (a command the player types) as nodes: code between backticks
 * becomes <code>. Never HTML: a catalog cannot put markup on the page.
 */
function richText(text) {
  return text.split('`').map((part, i) => (i % 2 ? h('code', {}, part) : part));
}

/** index.html's fixed words: `data-i18n="key"` fills an element, `data-i18n-attr="attr:key …"` its attributes. */
export function translatePage() {
  document.documentElement.lang = currentLanguage();
  document.title = t('app.title');
  for (const node of document.querySelectorAll('[data-i18n]')) fill(node, ...richText(t(node.dataset.i18n)));
  for (const node of document.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.trim().split(/\s+/)) {
      const [attr, key] = pair.split(':');
      node.setAttribute(attr, t(key));
    }
  }
  $('#rules-link').href = `/web/rules/${currentLanguage()}`;
}

function attachSwitcher() {
  const select = $('#language');
  fill(select, ...Object.entries(LANGUAGES).map(([code, name]) => h('option', { value: code, lang: code }, name)));
  select.value = currentLanguage();
  select.addEventListener('change', () => {
    try {
      localStorage.setItem(LANGUAGE_KEY, select.value);
    } catch (_) {
      return; // nowhere to remember it: the page stays as it is
    }
    location.reload();
  });
}
