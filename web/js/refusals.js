/* Why the local server refuses a sign-in, as the page words it: each reason is a
 * catalog key `signin.<reason>` (sign-in.js), never the server's English. Pure: the Node
 * tests hold these lists against numbridge/local/accounts/sign_in.py and every catalog. */

/** The typed refusals of `POST /local/token` (docs/protocol.md, "Local accounts"); the
 * server's `error` beside each is English, for logs. */
export const SIGN_IN_CODES = ['bad_request', 'bad_name', 'weak_password', 'bad_password', 'disabled',
  'name_taken', 'too_large', 'bad_content_type', 'rate_limited'];

/** Why a new password is `weak_password` (its `reason`): each worded as
 * `signin.password_<reason>`, so the player reads which rule it broke. */
export const WEAK_PASSWORD_REASONS = ['short', 'long', 'common'];

/** Its Host and Origin checks answer before any route, in plain text: worded by status. */
export const REFUSED_BY_STATUS = { 421: 'misdirected', 403: 'other_origin' };
