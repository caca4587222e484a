/* Your move, noticed: when it becomes the player's move in one of their games while the
 * page is hidden (another tab, the phone in a pocket), a short chime and, once the
 * player has allowed it, a notification (through the service worker where there is one:
 * phones show notifications only from a worker). And the screen kept awake while the
 * shown game runs on a clock (Screen Wake Lock), so a phone on the table does not go
 * dark in the middle of a move.
 *
 * Nothing here is needed to play: every part is skipped where the browser lacks it or
 * refuses it. */

import { $, h } from './dom.js';
import { t } from './i18n.js';
import { becameMyMove, onTheClock } from './turns.js';

const CHIME = [[660, 0], [880, 0.16]]; // Hz, start (s): two short rising notes
const NOTE_S = 0.14;
const VOLUME = 0.08;
const WAKE_LOCK = 'screen'; // the kind of wake lock: the display's

let audio = null;

/** Browsers start sound only after a gesture on the page: make the audio context then. */
function unlockSound() {
  if (audio || typeof window.AudioContext !== 'function') return;
  try {
    audio = new window.AudioContext();
  } catch (_) {
    audio = null;
  }
}

export function chime() {
  if (!audio) return;
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  const now = audio.currentTime;
  for (const [frequency, at] of CHIME) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(VOLUME, now + at);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + NOTE_S);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + NOTE_S);
  }
}

const canNotify = () => typeof window.Notification === 'function';
/** Can the player still be asked (they have neither allowed nor refused)? */
export const mayAsk = () => canNotify() && Notification.permission === 'default';

/** Ask to notify (from a click: browsers ask only then); `done` when answered. */
export function askToNotify(done) {
  if (!mayAsk()) return;
  Notification.requestPermission().then(done, done);
}

async function notify(title, body, tag) {
  if (!canNotify() || Notification.permission !== 'granted') return;
  const options = { body, tag, icon: '/web/icons/icon-192.png', renotify: true };
  const registration = 'serviceWorker' in navigator
    ? await navigator.serviceWorker.getRegistration('/') : null;
  if (registration) {
    await registration.showNotification(title, options);
  } else {
    new Notification(title, options); // eslint-disable-line no-new
  }
}

const opponentOf = (view) => view.players && view.players[view.you === 'blue' ? 'red' : 'blue'];

/** A game's view changed (games.js): the chime and the notification if it is now their move. */
export function noticeMove(game, { before }) {
  if (!document.hidden || !becameMyMove(game.view, before)) return;
  chime();
  const opponent = opponentOf(game.view);
  notify(t('status.your_move'), t('notice.your_move_body', {
    opponent: opponent ? opponent.name : '?',
  }), `move-${game.id}`).catch(() => {});
}

// ------------------------------------------------------------------ wake lock

let lock = null;
let wanted = false;

async function holdAwake() {
  if (lock || !wanted || document.hidden || !('wakeLock' in navigator)) return;
  try {
    lock = await navigator.wakeLock.request(WAKE_LOCK);
    document.documentElement.dataset.awake = '1';
    lock.addEventListener('release', () => {
      lock = null;
      delete document.documentElement.dataset.awake;
    });
  } catch (_) {
    lock = null; // refused (battery saver, no permission): the screen may sleep
  }
}

/**
 * The shown game (null: none), at each drawing of the page: the screen kept on while it
 * is in play on a clock, and the offer to notify while the player has not answered it.
 */
export function noticeShown(game) {
  const view = game && game.view;
  const ask = $('#notify');
  if (ask) ask.hidden = !(view && view.you && view.status === 'playing' && mayAsk());
  const clocked = onTheClock(view);
  if (clocked === wanted) return;
  wanted = clocked;
  if (wanted) holdAwake();
  else if (lock) lock.release().catch(() => {});
}

/**
 * Once, at the start: sound after the first gesture, the wake lock back after hiding,
 * and the button that asks to notify (`render`: draw the page again once answered).
 */
export function attachNotices(render) {
  $('#game-head').append(h('button', {
    type: 'button', id: 'notify', class: 'quiet small', hidden: true,
    onclick: () => askToNotify(render),
  }, t('notice.ask')));
  for (const type of ['pointerdown', 'keydown']) {
    document.addEventListener(type, unlockSound, { once: true, capture: true });
  }
  // The browser releases a wake lock when the page is hidden: take it again on return.
  document.addEventListener('visibilitychange', () => { if (!document.hidden) holdAwake(); });
}
