/* Frames from the server, routed: a game's state and events to the store, answers to
 * the lobby or the shown game, errors to a toast in the player's words. */

import { ANSWERS } from './connection.js';
import { toast } from './dom.js';
import { t } from './i18n.js';
import { UNVERSIONED } from './reducer.js';
import { onTournamentPush } from './tournaments.js';
import { selectedDigit } from './ui-state.js';

/** The error codes the server answers with (docs/asyncapi.json); each is worded in the catalog as `error.<code>`. */
export const ERROR_CODES = [
  'malformed', 'unknown_action', 'unauthorized', 'not_found', 'not_your_turn', 'illegal', 'game_over', 'conflict',
  'rate_limited', 'internal', 'too_many_games', 'too_many_watches', 'full', 'too_many_subscriptions',
];

/** A frame (`pending`: the request it answers, if any). */
export function onFrame(app, frame, pending) {
  const { store } = app;
  if (frame.type === 'state') {
    store.onState(frame);
  } else if (ANSWERS.has(frame.type)) {
    onAnswer(app, frame, pending);
  } else if (onTournamentPush(app, frame)) {
    app.render(); // a tournament's changes (its table draws itself; a game's header names it)
  } else if (app.lobby.onPush(frame)) {
    app.render(); // the club's changes, a challenge, a challenge declined
  } else if (UNVERSIONED.has(frame.type) && typeof frame.game === 'string') {
    store.onUnversioned(frame);
  } else if (typeof frame.type === 'string' && typeof frame.game === 'string' && Number.isInteger(frame.v)) {
    store.onEvent(frame);
  } else if (frame.type === undefined && typeof frame.message === 'string') {
    // API Gateway's own answer (e.g. "Forbidden", "Internal server error").
    toast(t('error.gateway', { message: frame.message }), 'error');
  }
}

function onAnswer(app, frame, pending) {
  if (frame.type === 'error') {
    if (!(pending && pending.quiet)) {
      // The code in the player's language; the server's own message (English, for logs too)
      // after it as the detail it gives.
      const action = pending ? pending.frame.action : '';
      const text = ERROR_CODES.includes(frame.code) ? t(`error.${frame.code}`) : t('error.unknown', { code: frame.code });
      const said = frame.message ? t('error.detail', { text, detail: frame.message }) : text;
      // The request by its name in the player's language (`request.<action>`), not the wire's.
      toast(action ? t('error.of_action', { action: t(`request.${action}`), text: said }) : said, 'error');
    }
    return;
  }
  if (app.lobby.onAnswer(frame, pending)) {
    app.render();
    return;
  }
  const game = typeof frame.game === 'string' ? app.store.get(frame.game) : null;
  if (frame.type === 'record' && game) {
    game.record = frame.record;
    app.render();
  } else if (frame.type === 'candidates' && game && selectedDigit(app, game) === frame.digit) {
    const size = game.view.size;
    game.candidates = { digit: frame.digit, cells: new Set((frame.cells || []).map(([r, c]) => r * size + c)) };
    app.render();
  }
}
