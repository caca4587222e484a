/* Numbridge — the reference browser client: the page's wiring.
 *
 * ES modules, no build step, no dependencies, no network but the page's own server (or
 * the deployed stack it is pointed at, see auth.js). It speaks docs/contract.md:
 *   connection.js  the socket, request ids, answers, resending, reconnecting
 *   games.js       the games known, events in `v` order through the pure reducer.js
 *   lobby.js       rooms, proposals, my games, live games
 *   board.js       the board (geometry.js), panels.js everything around it
 * Frames change the model; the page is rendered from the model at most once per
 * animation frame. Requests are sent by event handlers, never while rendering. */

import * as auth from './auth.js';
import { attachBoard, lightZones, renderBoard } from './board.js';
import { ANSWERS, Connection } from './connection.js';
import { $, oncePerFrame, toast } from './dom.js';
import { resultText } from './format.js';
import { FLASH_MS, GameStore } from './games.js';
import { keepOffline } from './install.js';
import { Lobby } from './lobby.js';
import { renderPanels, tickClocks } from './panels.js';
import { UNVERSIONED } from './reducer.js';
import { cellAt, clampStep, lastStep, mistakeAt, positionAt, replayView } from './replay.js';

const GAME_KEY = 'numbridge.game';
const WATCH_KEY = 'numbridge.watch';
const HINT_MS = 4000;
const REPLAY_MS = 700; // one move per this while the replay plays

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

/** The page's own selections (never sent, never in a view). */
const ui = {
  current: null, // the game shown
  tile: null, // index in the hand
  clue: null, // cell index of a selected clue
  hover: null, // cell whose zones are lit
  focus: null, // cell with the board's tab stop
  resignArmed: 0,
  step: null, // the replay's position in the shown record (null: its end)
  playing: null, // the replay's timer while it plays
  expectBot: false, // a bot game was asked for: open it when its state comes
  hint: null,
  hintUntil: 0,
  changingName: false,
};
let me = '';
let renewingByName = false;

const conn = new Connection({
  url: () => auth.server || `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/`,
  freshToken,
  onFrame,
  onOpen,
  onState: showConnState,
  onNeverOpened: explainRefusal,
  onQueued: (text) => toast(text, 'info'),
});
const request = (action, fields, onAnswer, quiet) => conn.request(action, fields, onAnswer, quiet);
const store = new GameStore(request, onGameChange);
const lobby = new Lobby({
  request, me: () => me, games: () => store.games, current: () => ui.current, open: openGame, watch: watchGame,
  expectBot: (expected) => { ui.expectBot = expected; },
});
const render = oncePerFrame(renderPage);

const current = () => (ui.current ? store.get(ui.current) : null);

function selectedDigit(game) {
  if (!game || game !== current() || ui.tile === null || !game.view) return null;
  const hand = game.view.hand || [];
  return ui.tile < hand.length ? hand[ui.tile] : null;
}

// ------------------------------------------------------------------ rendering

function renderPage() {
  lobby.renderGames();
  lobby.renderLive();
  const game = current();
  const shown = Boolean(game && game.view);
  $('#no-game').hidden = shown;
  $('#game-view').hidden = !shown;
  if (!shown) return;
  const digit = selectedDigit(game);
  renderPanels({
    game, ui, digit, summary: lobby.summary(game.id),
    hint: ui.hintUntil > Date.now() ? ui.hint : null,
    act, selectTile, takeClue, resign, askRecord: (manual) => fetchRecord(game, manual),
    unwatch: () => stopWatching(game.id),
    replay: { to: replayTo, toggle: togglePlay },
  });
  renderBoard($('#board'), replaying(game) ? replayBoard(game) : {
    view: game.view,
    digit,
    candidates: game.candidates && game.candidates.digit === digit ? game.candidates.cells : null,
    clue: ui.clue,
    solution: null,
    flashes: store.liveFlashes(game),
    hover: ui.hover,
    focus: ui.focus,
  });
  tickClocks(game, store.serverNow());
}

// --------------------------------------------------------------------- replay

/** A finished game with its record: the board is the replay's. */
const replaying = (game) => Boolean(game.record && game.view && game.view.status === 'finished');

function replayStep(game) {
  return ui.step === null ? lastStep(game.record) : clampStep(game.record, ui.step);
}

/** The board at the replay's step: the red mark of a mistake, the solution at the end. */
function replayBoard(game) {
  const record = game.record;
  const k = replayStep(game);
  const position = positionAt(record, k);
  const mistake = mistakeAt(record, position);
  return {
    view: replayView(record, k, position),
    digit: null,
    candidates: null,
    clue: null,
    solution: k === lastStep(record) ? record.solution : null,
    flashes: mistake ? [{ ...mistake, at: 0, still: true }] : [],
    last: mistake ? null : cellAt(record, position),
    hover: ui.hover,
    focus: ui.focus,
  };
}

function replayTo(k) {
  const game = current();
  if (!game || !game.record) return;
  const step = clampStep(game.record, k);
  ui.step = step === lastStep(game.record) ? null : step;
  if (ui.step === null) stopPlaying();
  render();
}

function stopPlaying() {
  if (ui.playing) clearInterval(ui.playing);
  ui.playing = null;
}

function togglePlay() {
  const game = current();
  if (!game || !game.record) return;
  if (ui.playing) {
    stopPlaying();
    render();
    return;
  }
  if (ui.step === null) ui.step = 0; // from the end: play it again from the deal
  ui.playing = setInterval(() => {
    const shown = current();
    if (!shown || !shown.record || ui.step === null) {
      stopPlaying();
      render();
      return;
    }
    replayTo(ui.step + 1);
  }, REPLAY_MS);
  render();
}

function hint(text) {
  ui.hint = text;
  ui.hintUntil = Date.now() + HINT_MS;
  render();
  setTimeout(render, HINT_MS + 50);
}

// --------------------------------------------------------------------- frames

function onFrame(frame, pending) {
  if (frame.type === 'state') {
    store.onState(frame);
  } else if (ANSWERS.has(frame.type)) {
    onAnswer(frame, pending);
  } else if (UNVERSIONED.has(frame.type) && typeof frame.game === 'string') {
    store.onUnversioned(frame);
  } else if (typeof frame.type === 'string' && typeof frame.game === 'string' && Number.isInteger(frame.v)) {
    store.onEvent(frame);
  } else if (frame.type === undefined && typeof frame.message === 'string') {
    // API Gateway's own answer (e.g. "Forbidden", "Internal server error").
    toast(`Server: ${frame.message}`, 'error');
  }
}

function onAnswer(frame, pending) {
  if (frame.type === 'error') {
    if (!(pending && pending.quiet)) {
      const action = pending ? pending.frame.action : 'request';
      toast(`${action}: ${ERROR_TEXT[frame.code] || frame.code} — ${frame.message}`, 'error');
    }
    return;
  }
  if (lobby.onAnswer(frame, pending)) {
    render();
    return;
  }
  const game = typeof frame.game === 'string' ? store.get(frame.game) : null;
  if (frame.type === 'record' && game) {
    game.record = frame.record;
    render();
  } else if (frame.type === 'candidates' && game && selectedDigit(game) === frame.digit) {
    const size = game.view.size;
    game.candidates = { digit: frame.digit, cells: new Set((frame.cells || []).map(([r, c]) => r * size + c)) };
    render();
  }
}

/** A game's view changed: keep the selections sensible, then what follows from it. */
function onGameChange(game, { isNew, before, events, state }) {
  const view = game.view;
  if (game === current()) keepSelections(game, before);
  for (const event of events) {
    if (event.type === 'mistake') setTimeout(render, FLASH_MS + 50);
    if (event.type === 'finished') {
      if (game === current()) toast(resultText(event.result, view.players, view.variant, view.you), 'info');
      setTimeout(() => request('games', {}, null), 300);
    }
  }
  if (isNew) {
    if (view.you) request('proposals', {}, null); // the accepted proposal is gone
    const shown = current();
    const opponent = view.you ? view.players[view.you === 'blue' ? 'red' : 'blue'] : null;
    if (ui.expectBot && state && state.v === 0 && opponent && /^bot-/.test(opponent.name)) {
      ui.expectBot = false; // the game asked for with "Play the bot": show it now
      showGame(game.id);
      return;
    }
    if (ui.current === game.id || !shown || !shown.view || shown.view.status !== 'playing') {
      showGame(game.id); // which asks what the shown game needs
      return;
    }
    if (state && state.v === 0) {
      toast(`A new game with ${opponent ? opponent.name : 'your opponent'} is dealt: open it under My games.`, 'info');
    }
  }
  if (game === current()) afterChange(game);
  render();
}

function keepSelections(game, before) {
  const view = game.view;
  if (before && JSON.stringify(before.hand) !== JSON.stringify(view.hand)) {
    // A new hand: keep the same digit selected if it is still there.
    const digit = ui.tile !== null && before.hand ? before.hand[ui.tile] : undefined;
    const again = digit === undefined ? -1 : (view.hand || []).indexOf(digit);
    ui.tile = again >= 0 ? again : null;
    game.candidates = null;
  }
  if (ui.clue !== null && view.owners[ui.clue] !== '.') ui.clue = null;
  if (view.status !== 'playing') {
    ui.tile = null;
    ui.clue = null;
  }
}

/** Requests the shown game needs now: its record once finished, candidates for the tile. */
function afterChange(game) {
  if (game.view.status === 'finished' && !game.record && game.recordTries < 4) fetchRecord(game);
  askCandidates(game);
}

// ---------------------------------------------------------------------- games

function showGame(gid) {
  if (ui.current !== gid) {
    ui.tile = null;
    ui.clue = null;
    ui.hover = null;
    ui.focus = null;
    ui.step = null;
    stopPlaying();
  }
  ui.current = gid;
  const game = store.get(gid);
  if (game && game.watching) {
    sessionStorage.setItem(WATCH_KEY, gid);
    sessionStorage.removeItem(GAME_KEY);
  } else {
    sessionStorage.setItem(GAME_KEY, gid);
    sessionStorage.removeItem(WATCH_KEY);
  }
  if (game && game.view) afterChange(game);
  render();
}

function forgetShown(gid) {
  if (ui.current !== gid) return;
  ui.current = null;
  sessionStorage.removeItem(GAME_KEY);
  sessionStorage.removeItem(WATCH_KEY);
  render();
}

function openGame(gid) {
  const game = store.entry(gid);
  showGame(gid);
  if (game.view) store.sync(game);
  else store.requestState(gid, () => forgetShown(gid));
}

function watchGame(gid) {
  const game = store.entry(gid);
  game.watching = true;
  showGame(gid);
  store.watch(gid, (answer) => {
    if (answer.type === 'error' && !game.view) forgetShown(gid);
  });
}

function stopWatching(gid) {
  store.unwatch(gid);
  forgetShown(gid);
  lobby.askLive();
}

/** An in-game action for the shown game. */
function act(action, fields, after) {
  const game = current();
  if (!game) return;
  request(action, { game: game.id, ...(fields || {}) }, (answer) => {
    if (after) after(answer);
  });
}

function resign() {
  if (ui.resignArmed > Date.now()) {
    ui.resignArmed = 0;
    act('resign');
  } else {
    ui.resignArmed = Date.now() + 4000;
    setTimeout(render, 4100);
  }
  render();
}

function fetchRecord(game, manual = false) {
  if (game.recordAsked) return;
  game.recordAsked = true;
  game.recordTries += 1;
  const id = request('record', { game: game.id }, (answer) => {
    game.recordAsked = false;
    if (answer.type === 'error' && !manual && game.recordTries < 4) {
      // The archive may lag the `finished` event by a moment.
      setTimeout(() => { if (current() === game && !game.record) fetchRecord(game); }, 1500);
    }
  }, !manual);
  if (id === null) game.recordAsked = false;
}

function askCandidates(game) {
  const digit = selectedDigit(game);
  const view = game.view;
  if (digit === null || !view.options || !view.options.highlighting || view.status !== 'playing') return;
  if (game.candidates && game.candidates.digit === digit) return;
  request('candidates', { game: game.id, digit }, null, true);
}

function selectTile(index) {
  const game = current();
  if (!game || !game.view) return;
  ui.tile = ui.tile === index ? null : index;
  game.candidates = null;
  askCandidates(game);
  render();
}

function onCellActivate(i) {
  const game = current();
  if (!game || !game.view) return;
  ui.focus = i;
  const view = game.view;
  if (view.status !== 'playing' || !view.you) return;
  const n = view.size;
  const cell = [Math.floor(i / n), i % n];
  const myTurn = view.turn === view.you;
  if (view.clues[i] === '1') {
    if (view.owners[i] !== '.') {
      hint('That clue is already taken.');
      return;
    }
    ui.clue = ui.clue === i ? null : i;
    if (ui.clue !== null) {
      hint(myTurn ? 'Take this clue with the button below (paying with the selected tile).'
        : 'Clue selected: you can take it on your move.');
    } else render();
    return;
  }
  if (view.digits[i] !== '.') {
    hint('That cell is already solved.');
    return;
  }
  if (!myTurn) {
    hint('It is not your move.');
    return;
  }
  const digit = selectedDigit(game);
  if (digit === null) {
    hint((view.hand || []).length ? 'Select a tile from your hand first.' : 'Your hand is empty.');
    return;
  }
  act('place', { cell, digit });
}

function takeClue() {
  const game = current();
  if (!game || ui.clue === null) return;
  const view = game.view;
  const n = view.size;
  const fields = { cell: [Math.floor(ui.clue / n), ui.clue % n] };
  if ((view.hand || []).length) {
    const digit = selectedDigit(game);
    if (digit === null) {
      hint('Select the tile to pay with first.');
      return;
    }
    fields.digit = digit;
  }
  act('take', fields, (answer) => {
    if (answer.type === 'ack') {
      ui.clue = null;
      render();
    }
  });
}

// ------------------------------------------------------------------ connection

function onOpen() {
  renewingByName = false;
  if (!ui.changingName && !$('#login').hidden) showApp();
  lobby.askAll();
  store.syncAll();
  const wanted = sessionStorage.getItem(GAME_KEY);
  if (wanted && !store.get(wanted)) openGame(wanted);
  const watched = sessionStorage.getItem(WATCH_KEY);
  if (watched && !store.get(watched)) watchGame(watched);
}

async function freshToken(token) {
  if (!auth.expired(token, 30000) || !auth.canRenew()) return token;
  // A Cognito token lasts an hour: renew it before the server refuses it.
  const renewed = await auth.renewedToken();
  if (renewed) setIdentity(renewed);
  return renewed || token;
}

function showConnState() {
  const node = $('#conn');
  node.dataset.state = conn.state;
  if (conn.state === 'open') node.textContent = 'connected';
  else if (conn.state === 'connecting') node.textContent = 'connecting…';
  else if (conn.state === 'waiting') {
    const secs = Math.max(0, Math.ceil((conn.retryAt - Date.now()) / 1000));
    const why = conn.everOpened ? 'connection lost' : 'cannot connect (server down or token refused)';
    node.textContent = `${why} — retrying in ${secs} s`;
  } else if (conn.state === 'refused') node.textContent = 'token refused';
  else node.textContent = 'not connected';
}

/** Never connected with this token: is the server down, or did it refuse the token? */
function explainRefusal() {
  const token = conn.token;
  if (auth.server) {
    // No HTTP side to ask: API Gateway only answers the socket.
    showLogin(`${auth.server} refused this token or cannot be reached (still retrying). `
      + 'Sign in again, or paste a token for this stack.');
    return;
  }
  fetch('/web/favicon.svg', { method: 'HEAD', cache: 'no-store' }).then(
    (response) => response.ok,
    () => false,
  ).then((serverUp) => {
    if (conn.everOpened || conn.token !== token) return;
    if (!serverUp) {
      showLogin('The server does not answer: is `numbridge serve` running? (Still retrying.)');
      return;
    }
    // The server answers HTTP but refuses the socket: retrying this token will not help.
    conn.stop('refused');
    if (auth.canSignInByName && me && auth.rememberedName() === me && !renewingByName) {
      // A token from another data directory, say: this server signs the same name anew.
      renewingByName = true;
      signInAs(me);
      return;
    }
    showLogin('The server refused this token (forged, expired, or from another data directory). '
      + 'Sign in by name, or paste a token from `numbridge token NAME` for this server.');
  });
}

// --------------------------------------------------------------------- sign-in

function setIdentity(token) {
  auth.rememberToken(token);
  me = auth.playerName(token);
  $('#who').textContent = me ? `Playing as ${me}` : '';
  $('#change-name').hidden = false;
}

function showApp() {
  ui.changingName = false;
  $('#login').hidden = true;
  $('#app').hidden = false;
}

function showLogin(problem, { changing = false } = {}) {
  ui.changingName = changing;
  $('#login').hidden = false;
  $('#app').hidden = true;
  $('#name-form').hidden = !auth.canSignInByName;
  $('#cognito-login').hidden = !auth.hasManagedLogin;
  $('#login-cancel').hidden = !conn.token;
  const details = $('#token-login');
  if (!auth.canSignInByName) details.open = true;
  const node = $('#login-problem');
  node.hidden = !problem;
  node.textContent = problem || '';
  const name = $('#name-input');
  if (!name.value) name.value = auth.rememberedName() || me;
  (auth.canSignInByName ? name : $('#token-input')).focus();
}

function startWith(token) {
  const player = auth.playerName(token);
  if (!player) {
    showLogin('That does not look like a Numbridge token (a JWT from `numbridge token NAME`).');
    return;
  }
  if (me && player !== me) {
    // Another player: forget this one's games.
    store.clear();
    ui.current = null;
    sessionStorage.removeItem(GAME_KEY);
    sessionStorage.removeItem(WATCH_KEY);
    lobby.reset();
  }
  conn.use(token); // nothing of another token's is sent again
  setIdentity(token);
  if (auth.expired(token) && !auth.canRenew()) {
    toast('This token has expired: sign in again, or get a new one with `numbridge token NAME`.', 'error');
  }
  showApp();
  lobby.render();
  render();
  conn.connect();
}

async function signInAs(name) {
  const problem = auth.PLAYER_NAME.test(name) ? null
    : 'A name is 1–32 characters: letters, digits, “_”, “.” and “-”.';
  if (problem) {
    showLogin(problem, { changing: ui.changingName });
    return;
  }
  const submit = $('#name-form button[type=submit]');
  submit.disabled = true;
  try {
    const token = await auth.signInByName(name);
    auth.rememberName(name);
    startWith(token);
  } catch (err) {
    showLogin(String(err.message || err), { changing: ui.changingName });
  } finally {
    submit.disabled = false;
  }
}

function attachSignIn() {
  $('#name-form').addEventListener('submit', (event) => {
    event.preventDefault();
    renewingByName = false;
    signInAs($('#name-input').value.trim());
  });
  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('#token-input').value.trim();
    if (!token) return;
    auth.forgetName(); // this token is who we are now, not a remembered name
    renewingByName = false;
    startWith(token);
  });
  $('#change-name').addEventListener('click', () => {
    $('#name-input').value = auth.rememberedName() || me;
    $('#token-input').value = '';
    showLogin('', { changing: true });
    $('#name-input').select();
  });
  $('#login-cancel').addEventListener('click', showApp);
  $('#cognito-button').addEventListener('click', () => {
    auth.startManagedLogin().catch((err) => showLogin(String(err.message || err)));
  });
}

// ----------------------------------------------------------------------- start

function attachPage() {
  attachSignIn();
  lobby.attach();
  attachBoard($('#board'), {
    onHover: (index) => {
      ui.hover = index;
      const game = current();
      lightZones($('#board'), game && game.view, index);
    },
    onActivate: onCellActivate,
    onFocus: (index) => { ui.focus = index; },
    size: () => current()?.view?.size || 0,
  });
  document.addEventListener('keydown', (event) => {
    if (event.target.closest('input, textarea, select')) return;
    const game = current();
    if (!game || !game.view) return;
    if (event.key === 'Escape') {
      ui.tile = null;
      ui.clue = null;
      render();
    } else if (/^[1-9]$/.test(event.key)) {
      const index = (game.view.hand || []).indexOf(Number(event.key));
      if (index >= 0) selectTile(index);
    }
  });
  window.addEventListener('online', () => { if (conn.state === 'waiting') conn.connect(); });
  setInterval(() => {
    if (conn.state === 'waiting') showConnState();
    tickClocks(current(), store.serverNow());
  }, 250);
  // The lobby has no push for proposals or live games: ask now and then while the page is seen.
  setInterval(() => {
    if (conn.state === 'open' && !document.hidden) request('proposals', {}, null);
  }, 4000);
  setInterval(() => {
    if (conn.state === 'open' && !document.hidden && lobby.live !== null) lobby.askLive();
  }, 15000);
}

async function start() {
  keepOffline();
  attachPage();
  lobby.render();
  const params = new URLSearchParams(location.search); // before the token is taken out of it
  const token = auth.initialToken();
  let signedIn = '';
  try {
    signedIn = await auth.finishManagedLogin(params);
  } catch (err) {
    showLogin(String(err.message || err));
    return;
  }
  if (signedIn) return startWith(signedIn);
  const stale = token && auth.expired(token) && !auth.canRenew();
  if (token && !stale) return startWith(token);
  const name = auth.rememberedName();
  if (name && auth.canSignInByName) return signInAs(name);
  if (token) return startWith(token);
  showLogin('');
}

start();
