/* What the local server takes for a name and a password (numbridge/names.py, the sign-in
 * route), checked on the page before it asks: the server decides, the page only spares a
 * round trip and words the rule. Pure: held by the Node tests.
 *
 * A name is of one alphabet, Latin, Greek or Cyrillic, with digits, "_", "." and "-", 2 to
 * 32 characters once in NFC ("Γιώργος" typed with a combining accent is the same name). The
 * page is the laxer of the two where in doubt (any digit, any combining mark): the server's
 * `bad_name` says the rest. A password is 8 to 128 characters; 15 or more is better
 * (ASVS 5.0, V6.2); the server also refuses common ones (`weak_password`). */

export const NAME_MIN = 2;
export const NAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_ADVISED = 15;

const NAME_CHARACTERS = /^[\p{L}\p{M}\p{Nd}_.-]+$/u;
const ALPHABETS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];

// Characters as the server counts them (code points), not UTF-16 units as `.length` does.
const count = (text) => [...text].length;

/** `name` as the server reads it (NFC), or null when the server would surely refuse it. */
export function checkedName(name) {
  const nfc = String(name).normalize('NFC');
  if (count(nfc) < NAME_MIN || count(nfc) > NAME_MAX || !NAME_CHARACTERS.test(nfc)) return null;
  const letters = [...nfc].filter((ch) => /\p{L}/u.test(ch));
  // Every letter of one and the same alphabet ("Ana" in Latin and Cyrillic "А" is two).
  const alphabet = ALPHABETS.find((script) => letters.every((ch) => script.test(ch)));
  return alphabet ? nfc : null;
}

/** Why a password typed would be refused before the server is asked ('' none): an empty
 * one is for a server that signs names in alone (--open-sign-in), which says if it is not. */
export function passwordProblem(password) {
  const length = count(String(password));
  if (length === 0) return '';
  if (length < PASSWORD_MIN) return 'short';
  if (length > PASSWORD_MAX) return 'long';
  return '';
}
