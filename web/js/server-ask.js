/* The card that asks before the page connects to a server a link names and the player
 * has not confirmed (servers.js). Nothing connects while it is up; "stay" is the
 * default (it takes the focus), so Enter alone never sends anyone elsewhere. */

import { $ } from './dom.js';

/** Show the card for `address`; resolves true (connect there) or false (stay). */
export function askAboutServer(address) {
  const card = $('#server-ask');
  $('#server-ask-address').textContent = address;
  $('#login').hidden = true;
  $('#app').hidden = true;
  card.hidden = false;
  $('#server-stay').focus();
  return new Promise((resolve) => {
    const answer = (connect) => {
      card.hidden = true;
      resolve(connect);
    };
    $('#server-connect').addEventListener('click', () => answer(true), { once: true });
    $('#server-stay').addEventListener('click', () => answer(false), { once: true });
  });
}
