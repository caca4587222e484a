/* Frames from the server, routed: a game's state and events to the store, answers to
 * the lobby or the shown game, errors to a toast in the player's words. */

import { ANSWERS } from './connection.js';
import { toast } from './dom.js';
import { UNVERSIONED } from './reducer.js';
import { selectedDigit } from './ui-state.js';

const ERROR_TEXT = {
  malformed: 'malformed request',
  unknown_action: 'unknown action',
  unauthorized: 'not allowed',
  not_found: 'not found',
  not_your_turn: 'it is not your turn',
  illegal: 'illegal',
  game_over: 'the game is over',
  conflict: 'a concurrent change won — try again',
  rate_limited: 'too many requests — slow down',
  internal: 'server error',
  too_many_games: 'too many bot games in play — finish one first',
  too_many_watches: 'watching too many games on this connection',
  full: 'this game has as many watchers as it can take',
};

/** A frame (`pending`: the request it answers, if any). */
export function onFrame(app, frame, pending) {
  const { store } = app;
  if (frame.type === 'state') {
    store.onState(frame);
  } else if (ANSWERS.has(frame.type)) {
    onAnswer(app, frame, pending);
  } else if (UNVERSIONED.has(frame.type) && typeof frame.game === 'string') {
    store.onUnversioned(frame);
  } else if (typeof frame.type === 'string' && typeof frame.game === 'string' && Number.isInteger(frame.v)) {
    store.onEvent(frame);
  } else if (frame.type === undefined && typeof frame.message === 'string') {
    // API Gateway's own answer (e.g. "Forbidden", "Internal server error").
    toast(`Server: ${frame.message}`, 'error');
  }
}

function onAnswer(app, frame, pending) {
  if (frame.type === 'error') {
    if (!(pending && pending.quiet)) {
      const action = pending ? pending.frame.action : 'request';
      toast(`${action}: ${ERROR_TEXT[frame.code] || frame.code} — ${frame.message}`, 'error');
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
