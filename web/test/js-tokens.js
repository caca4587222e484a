/* A small tokenizer for the client's own JavaScript (web/js), enough to find its string
 * literals and what they are passed to: comments dropped, strings and template literals
 * (with their ${…} parts tokenized in turn), regular expression literals told from
 * division, identifiers, numbers and punctuation. Not a parser: the tests that use it
 * (i18n.test.js) look at a literal's neighbours. */

const IDENT = /[\p{L}\p{N}_$]/u;
// After these a `/` starts a regular expression, not a division.
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>',
  '~', '^', '=>', 'return', 'typeof', 'case', 'of', 'in', '&&', '||', '??', '===', '!==', '==', '!=']);

/**
 * Tokens of `source`: {type: 'str', value} for a quoted string, {type: 'tpl', quasis, exprs}
 * for a template (exprs: token lists), {type: 'regex'|'ident'|'num'|'punct', value}; each
 * with `line`.
 */
export function tokenize(source) {
  let i = 0;
  let line = 1;
  function readTokens(closer) {
    const tokens = [];
    let depth = 0;
    const last = () => tokens[tokens.length - 1];
    while (i < source.length) {
      const ch = source[i];
      if (ch === '\n') line += 1;
      if (/\s/.test(ch)) { i += 1; continue; }
      if (source.startsWith('//', i)) { while (i < source.length && source[i] !== '\n') i += 1; continue; }
      if (source.startsWith('/*', i)) {
        const end = source.indexOf('*/', i + 2);
        for (let k = i; k < end; k++) if (source[k] === '\n') line += 1;
        i = end + 2;
        continue;
      }
      if (closer && ch === '}' && depth === 0) { i += 1; return tokens; }
      if (ch === "'" || ch === '"') {
        const start = line;
        let value = '';
        i += 1;
        while (source[i] !== ch) {
          if (source[i] === '\\') { value += source[i + 1]; i += 2; } else { value += source[i]; i += 1; }
        }
        i += 1;
        tokens.push({ type: 'str', value, line: start });
        continue;
      }
      if (ch === '`') {
        const start = line;
        const quasis = [];
        const exprs = [];
        let value = '';
        i += 1;
        while (source[i] !== '`') {
          if (source[i] === '\\') { value += source[i + 1]; i += 2; continue; }
          if (source.startsWith('${', i)) {
            quasis.push(value);
            value = '';
            i += 2;
            exprs.push(readTokens(true));
            continue;
          }
          if (source[i] === '\n') line += 1;
          value += source[i];
          i += 1;
        }
        quasis.push(value);
        i += 1;
        tokens.push({ type: 'tpl', quasis, exprs, line: start });
        continue;
      }
      const prev = last();
      if (ch === '/' && (!prev || (prev.type === 'punct' && BEFORE_REGEX.has(prev.value))
        || (prev.type === 'ident' && BEFORE_REGEX.has(prev.value)))) {
        let value = '/';
        let inClass = false;
        i += 1;
        while (source[i] !== '/' || inClass) {
          if (source[i] === '\\') { value += source[i] + source[i + 1]; i += 2; continue; }
          if (source[i] === '[') inClass = true;
          if (source[i] === ']') inClass = false;
          value += source[i];
          i += 1;
        }
        value += '/';
        i += 1;
        while (i < source.length && /[a-z]/.test(source[i])) { value += source[i]; i += 1; }
        tokens.push({ type: 'regex', value, line });
        continue;
      }
      if (IDENT.test(ch)) {
        let value = '';
        while (i < source.length && IDENT.test(source[i])) { value += source[i]; i += 1; }
        tokens.push({ type: /^\d/.test(value) ? 'num' : 'ident', value, line });
        continue;
      }
      const three = source.slice(i, i + 3);
      const two = source.slice(i, i + 2);
      const op = ['===', '!==', '...', '??='].includes(three) ? three
        : ['=>', '&&', '||', '??', '==', '!=', '<=', '>=', '?.', '+=', '-='].includes(two) ? two : ch;
      if (op === '{') depth += 1;
      if (op === '}') depth -= 1;
      tokens.push({ type: 'punct', value: op, line });
      i += op.length;
    }
    return tokens;
  }
  return readTokens(false);
}

/** The index just past the bracket that closes the one at `open`. */
export function closing(tokens, open) {
  const pairs = { '(': ')', '[': ']', '{': '}' };
  const opener = tokens[open].value;
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.type !== 'punct') continue;
    if (tok.value === opener) depth += 1;
    else if (tok.value === pairs[opener]) {
      depth -= 1;
      if (depth === 0) return k + 1;
    }
  }
  return tokens.length;
}

/** The arguments of the call whose `(` is at `open`, as [start, end) ranges. */
export function argumentsOf(tokens, open) {
  const end = closing(tokens, open) - 1;
  const args = [];
  let start = open + 1;
  let k = start;
  while (k < end) {
    const tok = tokens[k];
    if (tok.type === 'punct' && ['(', '[', '{'].includes(tok.value)) { k = closing(tokens, k); continue; }
    if (tok.type === 'punct' && tok.value === ',') { args.push([start, k]); start = k + 1; }
    k += 1;
  }
  if (start < end) args.push([start, end]);
  return args;
}

/** Where the expression starting at `start` ends: a `,`, `;` or closing bracket at its own depth. */
export function expressionEnd(tokens, start) {
  let k = start;
  while (k < tokens.length) {
    const tok = tokens[k];
    if (tok.type === 'punct' && ['(', '[', '{'].includes(tok.value)) { k = closing(tokens, k); continue; }
    if (tok.type === 'punct' && [',', ';', ')', ']', '}'].includes(tok.value)) return k;
    k += 1;
  }
  return k;
}
