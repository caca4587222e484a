/* The games this page knows: each one's view (kept by the reducer), the events that
 * arrived early, its log, and the red flashes of mistakes. Frames come in from the
 * connection; every change is reported to `onChange` (the page renders from there).
 *
 * Catching up: a gap in the versions, or a reconnection, sends `sync` with the last `v`
 * (the server answers with the missed events, or with a whole `state`). A game watched
 * as a spectator is watched again on a new connection (a watch belongs to a connection). */

import { t } from './i18n.js';
import { logEntry } from './journal.js';
import { applyEvent, applyState } from './reducer.js';
import { admit, emptyQueue, release } from './sequence.js';

export const FLASH_MS = 2600;
const LOG_LIMIT = 400;

function newGame(id) {
  return {
    id, view: null, waiting: emptyQueue(), syncing: false, asked: false, watching: false,
    log: [], flashes: [], candidates: null, record: null, recordTries: 0, recordAsked: false,
  };
}

export class GameStore {
  /**
   * @param {(action, fields, onAnswer, quiet) => string|null} request
   * @param {(game, change) => void} onChange  change: {isNew, before, events, state}
   */
  constructor(request, onChange) {
    this.request = request;
    this.onChange = onChange;
    this.games = new Map();
    this.clockOffset = null; // server epoch ms − local epoch ms
  }

  get(gid) {
    return this.games.get(gid) || null;
  }

  entry(gid) {
    if (!this.games.has(gid)) this.games.set(gid, newGame(gid));
    return this.games.get(gid);
  }

  clear() {
    this.games.clear();
  }

  serverNow() {
    return Date.now() + (this.clockOffset || 0);
  }

  noteServerTime(nowMs, fresh) {
    if (typeof nowMs !== 'number') return;
    const offset = nowMs - Date.now();
    // A fresh view sets the offset; an event (maybe replayed after a reconnect, so
    // older than it looks) can only show that the server is further ahead.
    if (fresh || this.clockOffset === null || offset > this.clockOffset) this.clockOffset = offset;
  }

  // ------------------------------------------------------------------ frames in

  onState(frame) {
    if (typeof frame.game !== 'string' || !frame.view) return;
    const game = this.entry(frame.game);
    const before = game.view;
    const view = applyState(before, frame);
    if (view === before) return;
    game.view = view;
    game.candidates = null;
    this.noteServerTime(view.now_ms, true);
    if (!before) {
      game.log.push({ kind: 'joined', text: view.moves ? t('log.joined', { move: view.moves + 1 }) : t('log.new_game') });
    }
    const { ready, waiting } = release(game.waiting, view.v);
    game.waiting = waiting;
    const events = this.applyAll(game, ready);
    this.onChange(game, { isNew: !before, before, events, state: frame });
  }

  onEvent(frame) {
    const game = this.entry(frame.game);
    if (!game.view) {
      game.waiting = admit(game.waiting, -1, frame).waiting;
      if (!game.asked) this.requestState(game.id);
      return;
    }
    const before = game.view;
    const admitted = admit(game.waiting, before.v, frame);
    game.waiting = admitted.waiting;
    const events = this.applyAll(game, admitted.ready);
    if (admitted.gap) this.sync(game); // a gap: ask for what is missing
    if (events.length) this.onChange(game, { isNew: false, before, events, state: null });
  }

  /** A frame about a game that is no game event (`presence`): applied at once. */
  onUnversioned(frame) {
    const game = this.get(frame.game);
    if (!game || !game.view) return;
    const before = game.view;
    game.view = applyEvent(before, frame);
    if (game.view !== before) this.onChange(game, { isNew: false, before, events: [frame], state: null });
  }

  applyAll(game, events) {
    for (const event of events) {
      game.view = applyEvent(game.view, event);
      const line = logEntry(game.view, event);
      if (line) game.log.push(line);
      if (event.type === 'mistake') {
        const index = event.cell[0] * game.view.size + event.cell[1];
        game.flashes.push({ index, digit: event.digit, seat: event.seat, at: Date.now() });
      }
      if (event.type === 'turn') this.noteServerTime(event.now_ms, false);
      if (event.type === 'placed' || event.type === 'taken' || event.type === 'swapped') game.candidates = null;
    }
    if (game.log.length > LOG_LIMIT) game.log.splice(0, game.log.length - LOG_LIMIT);
    return events;
  }

  /** Mistake flashes still showing (older ones are dropped). */
  liveFlashes(game) {
    const now = Date.now();
    game.flashes = game.flashes.filter((flash) => now - flash.at < FLASH_MS);
    return game.flashes;
  }

  // ---------------------------------------------------------------- catching up

  /** The whole view (a `state`); `onGone` when the server has no such game for us. */
  requestState(gid, onGone) {
    const game = this.entry(gid);
    game.asked = true;
    const id = this.request('sync', { game: gid }, (answer) => {
      game.asked = false;
      if (answer.type === 'error' && !game.view && onGone) onGone(answer);
    });
    if (id === null) game.asked = false;
  }

  /** Events after the last `v` (a whole `state` if there is no view yet). */
  sync(game) {
    if (!game.view) {
      if (!game.asked) this.requestState(game.id);
      return;
    }
    if (game.syncing) return;
    game.syncing = true;
    const id = this.request('sync', { game: game.id, v: game.view.v }, (answer) => {
      game.syncing = false;
      if (answer.type === 'error' || game.waiting.size) this.requestState(game.id);
    });
    if (id === null) game.syncing = false;
  }

  /** Watch a game as a spectator: its `state`, then its events on this connection. */
  watch(gid, onAnswer) {
    const game = this.entry(gid);
    game.watching = true;
    this.request('watch', { game: gid }, (answer) => {
      if (answer.type === 'error') game.watching = false;
      if (onAnswer) onAnswer(answer);
    });
  }

  unwatch(gid) {
    const game = this.get(gid);
    if (!game) return;
    game.watching = false;
    this.request('unwatch', { game: gid }, null, true);
  }

  /** After a (re)connection: every game caught up. */
  syncAll() {
    for (const game of this.games.values()) {
      game.syncing = false;
      game.asked = false;
      if (game.watching && (!game.view || game.view.status !== 'finished')) this.watch(game.id);
      else this.sync(game);
    }
  }
}
