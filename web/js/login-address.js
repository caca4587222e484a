/* What a link may name as a server's managed login (Cognito's domain URL and its app
 * client id, docs/aws.md): the page sends its refresh token there, so only an https:
 * address is taken (http: only on this machine, for a try) and nothing that could carry
 * more than an address. Pure: held by the Node tests. */

const LOOPBACK = new Set(['localhost', '127.0.0.1']);
// Cognito's app client ids: [\w+]+, at most 128 characters.
const CLIENT_ID = /^[\w+]{1,128}$/;

/** The login's address (origin and path, no trailing "/"), or null if it may not be one. */
export function loginAddress(value) {
  let url;
  try {
    url = new URL(String(value ?? '').trim());
  } catch (_) {
    return null;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash) return null;
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The app client id, or null if it cannot be one. */
export function appClientId(value) {
  const id = String(value ?? '').trim();
  return CLIENT_ID.test(id) ? id : null;
}
