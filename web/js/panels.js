/* Everything around the board: title, status line, players, hand, actions, the Domains
 * block table, the result, the log and the game record. Each panel is drawn from the
 * game and the page's selections; buttons call back into the page (`ctx`), which sends
 * the requests. Hooks the server has not announced (presence, rematch, abort,
 * spectators) stay hidden until the view carries their data (reducer.js `features`). */

import { $, fill, h } from './dom.js';
import { fillActions } from './game-menu.js';
import { blockSummary } from './geometry.js';
import {
  SEATS, blocksName, cellText, fmtClock, goalText, gradeName, other, resultText, roomName, seatName,
  variantName,
} from './format.js';
import { fmtList, fmtUnit, t } from './i18n.js';
import { clockNow, features, isSpectator, secondOfPair } from './reducer.js';
import {
  clampStep, lastStep, movesOf, moveText, positionAt, replayLog, replayPanelView,
} from './replay.js';
import { replaying } from './replay-controls.js';

/**
 * @typedef {object} PanelContext
 * @property {object} game        the games.js entry shown
 * @property {object} ui          selections: tile, clue, resignArmed; the replay's step, playing
 * @property {number|null} digit  the selected tile's digit
 * @property {object|null} summary  this game's row of the `games` list (rating)
 * @property {(action: string, fields?: object) => void} act
 * @property {(index: number) => void} selectTile
 * @property {() => void} takeClue
 * @property {() => void} resign
 * @property {(manual: boolean) => void} askRecord
 * @property {() => void} unwatch
 * @property {() => void} [playAgain]  after a game against the bot: the same game dealt again
 * @property {{to: (step: number) => void, by: (delta: number) => void, toggle: () => void}} replay  the record's replay
 * @property {string|null} hint  a passing hint to show instead of the default one
 * @property {'flat'|'turned'} sides  how the board lies: the words for each colour's sides
 */

export function renderPanels(shown) {
  const ctx = replaying(shown.game) ? replayContext(shown) : shown;
  renderTitle(ctx);
  renderStatus(ctx);
  renderPlayers(ctx);
  renderHand(ctx);
  renderActions(ctx);
  renderDomains(ctx);
  renderResult(ctx);
  renderLog(ctx);
  renderRecord(ctx);
  $('#hint').textContent = ctx.hint || defaultHint(ctx);
}

/**
 * A replay's panels follow the replay: the game as it stood at the step shown (status,
 * clocks, tiles, mistakes, bag, the Moves card up to it), with the finished game's own
 * view kept for what is done now (`finished`: the rematch, the replay's buttons).
 */
function replayContext(ctx) {
  const { game, ui } = ctx;
  const step = ui.step === null || ui.step === undefined ? lastStep(game.record) : clampStep(game.record, ui.step);
  return {
    ...ctx,
    finished: game.view,
    game: { ...game, view: replayPanelView(game.record, step, game.view), log: replayLog(game.record, step, game.view) },
  };
}

const nameOf = (view, seat) => (view.players[seat] ? view.players[seat].name : seatName(seat));

function renderTitle(ctx) {
  const { game } = ctx;
  const view = game.view;
  fill($('#game-title'),
    `${variantName(view.variant)} · ${view.size}×${view.size} · `,
    h('span', { class: 'muted' }, t(view.options.rated ? 'game.title_rated' : 'game.title', {
      room: roomName(view.room), blocks: blocksName(view.options.blocks), count: view.options.clues,
    })),
    isSpectator(view) ? h('span', { class: 'badge watching' }, t('game.watching_badge')) : null,
    view.grade ? h('span', { class: 'badge grade', dataset: { grade: view.grade } },
      t('game.grade', { reading: gradeName(view.grade) })) : null);
  // The game's id and version are for support, not for players: kept out of sight, in
  // the title's data (not a tooltip: a pointer resting on the title would show them).
  const title = $('#game-title');
  title.dataset.game = game.id;
  title.dataset.v = String((ctx.finished || view).v);
}

function renderStatus({ game, sides }) {
  const view = game.view;
  const node = $('#status-line');
  node.className = '';
  if (view.status === 'replay') {
    node.className = `replay${view.turn ? ` turn ${view.turn}` : ''}`;
    fill(node,
      view.step ? t('replay.status', { k: view.step, n: view.steps }) : t('replay.status_deal'),
      view.turn ? [' · ', h('span', { class: `seat-dot ${view.turn}` }), t('status.to_move', { name: nameOf(view, view.turn) })] : null);
  } else if (view.status === 'finished') {
    node.className = 'finished';
    fill(node, resultText(view.result, view.players, view.variant, view.you, sides));
  } else if (view.status === 'adjourned') {
    const asked = (view.resume_requested || []).map((seat) => nameOf(view, seat));
    node.className = 'adjourned';
    fill(node, asked.length ? t('status.adjourned_asked', { names: fmtList(asked) }) : t('status.adjourned'));
  } else {
    const mine = Boolean(view.you) && view.turn === view.you;
    node.className = `turn ${view.turn}${mine ? ' mine' : ''}`;
    fill(node,
      h('span', { class: `seat-dot ${view.turn}` }),
      mine ? t('status.your_move') : t('status.to_move', { name: nameOf(view, view.turn) }),
      secondOfPair(view) ? h('span', { class: 'pair' }, ` — ${t('status.pair')}`) : null,
      ' · ', h('span', { id: 'move-clock', class: 'clock' }, ''));
  }
}

function presenceBadge(player) {
  if (typeof player.online !== 'boolean') return null;
  return h('span', {
    class: `presence ${player.online ? 'online' : 'offline'}`,
    title: player.online ? t('player.online_title') : t('player.away_title'),
  }, player.online ? t('player.online') : t('player.away'));
}

function renderPlayers({ game, sides }) {
  const view = game.view;
  const domains = view.variant === 'domains';
  const showPresence = features(view).presence;
  fill($('#players'), ...SEATS.map((seat) => {
    const player = view.players[seat] || { name: seat, hand_size: 0, mistakes: 0, clock_ms: null };
    const moving = (view.status === 'playing' || view.status === 'replay') && view.turn === seat;
    const goal = domains ? t('player.goal_domains') : goalText(seat, sides);
    return h('div', { class: `player ${seat}${moving ? ' moving' : ''}${view.you === seat ? ' you' : ''}`, dataset: { seat } },
      h('div', { class: 'player-name' },
        h('span', { class: `seat-dot ${seat}` }), h('strong', {}, player.name),
        view.you === seat ? h('span', { class: 'muted' }, ` ${t('player.you')}`) : null,
        showPresence && view.you !== seat ? presenceBadge(player) : null,
        h('span', { class: 'clock game-clock', dataset: { seat } }, fmtClock(player.clock_ms))),
      h('div', { class: 'muted small' }, `${seatName(seat)} · ${goal}`),
      h('div', { class: 'player-stats small' },
        h('span', { title: t('player.tiles_title') }, t('player.tiles', { count: player.hand_size })),
        h('span', { class: player.mistakes ? 'mistakes some' : 'mistakes', title: t('player.mistakes_title') },
          t('player.mistakes', { count: player.mistakes })),
        domains && view.block_table ? h('span', {}, t('player.blocks', { count: view.block_table[seat] })) : null));
  }), h('div', { class: 'bag small muted' }, t('player.bag', { count: view.bag })));
}

function renderHand({ game, ui, selectTile }) {
  const view = game.view;
  const holder = $('#hand');
  $('#hand-row').hidden = view.status === 'finished' || view.status === 'replay';
  if (!view.you) {
    fill(holder, h('span', { class: 'muted small' }, t('hand.watching')));
    return;
  }
  const hand = view.hand || [];
  const playing = view.status === 'playing';
  fill(holder,
    h('span', { class: 'muted small' }, t('hand.yours')),
    ...hand.map((digit, index) => h('button', {
      type: 'button',
      class: `tile${ui.tile === index ? ' selected' : ''}`,
      dataset: { digit, index },
      'aria-pressed': ui.tile === index ? 'true' : 'false',
      disabled: !playing,
      onclick: () => selectTile(index),
    }, String(digit))),
    hand.length ? null : h('span', { class: 'muted' }, ` ${t('hand.empty')}`));
}

const button = (label, cls, onclick, enabled = true, title = null) => h('button', {
  type: 'button', class: cls, onclick, disabled: !enabled, title,
}, label);

function playActions(ctx, items) {
  const { game, ui, digit, act, takeClue } = ctx;
  const view = game.view;
  const me = view.you;
  const them = other(me);
  const theirName = nameOf(view, them);
  const myTurn = view.turn === me;
  const offers = view.offers || {};
  const hand = view.hand || [];
  const price = view.options.take_price;
  const canTake = myTurn && ui.clue !== null && (hand.length === 0 || (digit !== null && hand.length >= price));
  const clueCell = ui.clue !== null ? cellText([Math.floor(ui.clue / view.size), ui.clue % view.size]) : null;
  items.push(button(clueCell ? t('action.take_at', { cell: clueCell }) : t('action.take'), 'take', takeClue, canTake,
    hand.length ? t('action.take_title', { count: price }) : t('action.take_free_title')));
  items.push(button(t('action.exchange'), 'exchange', () => act('exchange'), myTurn && view.bag > 0,
    t('action.exchange_title')));
  if (view.swap_available) {
    items.push(button(t('action.swap'), 'swap primary', () => act('swap'), myTurn, t('action.swap_title')));
  }
  items.push(h('span', { class: 'sep' }));
  if (offers.draw === them) {
    // The offer and its two answers stay together on one row.
    items.push(h('span', { class: 'offer-group' },
      h('span', { class: 'offer' }, t('action.draw_offered_by', { name: theirName })),
      h('span', { class: 'offer-answers' },
        button(t('action.accept_draw'), 'accept-draw primary', () => act('accept_draw')),
        button(t('action.decline'), 'decline-draw', () => act('decline_draw')))));
  } else {
    items.push(button(offers.draw === me ? t('action.draw_offered') : t('action.offer_draw'), 'offer-draw',
      () => act('offer_draw'), offers.draw !== me));
  }
  if (offers.adjourn === them) {
    items.push(h('span', { class: 'offer' }, t('action.adjourn_offered_by', { name: theirName })));
    items.push(button(t('action.accept_adjourn'), 'accept-adjourn primary', () => act('accept_adjourn')));
  } else {
    items.push(button(offers.adjourn === me ? t('action.adjourn_offered') : t('action.offer_adjourn'), 'offer-adjourn',
      () => act('offer_adjourn'), offers.adjourn !== me));
  }
  if (features(view).abort) {
    items.push(button(t('action.abort'), 'abort', () => act('abort'), true, t('action.abort_title')));
  }
}

function rematchActions({ game, act, playAgain }, items) {
  const view = game.view;
  const me = view.you;
  const them = other(me);
  if (/^bot-/.test(nameOf(view, them))) {
    // A bot seat answers no rematch offer: the same game again is dealt at once instead.
    if (playAgain) items.push(button(t('action.play_again'), 'play-again primary', playAgain, true, t('action.play_again_title')));
    return;
  }
  if (!features(view).rematch) return;
  const offer = view.offers.rematch;
  if (view.rematch) return; // dealt already: its state opens the new game
  if (offer === them) {
    items.push(h('span', { class: 'offer-group' },
      h('span', { class: 'offer' }, t('action.rematch_offered_by', { name: nameOf(view, them) })),
      h('span', { class: 'offer-answers' },
        button(t('action.accept_rematch'), 'accept-rematch primary', () => act('accept_rematch')),
        button(t('action.decline'), 'decline-rematch', () => act('decline_rematch')))));
  } else {
    items.push(button(offer === me ? t('action.rematch_offered') : t('action.offer_rematch'), 'offer-rematch',
      () => act('offer_rematch'), offer !== me, t('action.rematch_title')));
  }
}

function renderActions(ctx) {
  const { ui, act, resign, askRecord, unwatch } = ctx;
  // A replay's buttons are the finished game's: what can be done now, not at the step shown.
  const game = ctx.finished ? { ...ctx.game, view: ctx.finished } : ctx.game;
  ctx = { ...ctx, game };
  const view = game.view;
  const holder = $('#actions');
  const items = [];
  if (!view.you) {
    if (game.watching) items.push(button(t('action.unwatch'), 'unwatch', unwatch));
    if (view.status === 'finished' && !game.record) {
      items.push(button(t('action.show_replay'), 'record-button', () => askRecord(true)));
    }
    fillActions(holder, items);
    return;
  }
  if (view.status === 'playing') playActions(ctx, items);
  if (view.status === 'adjourned') {
    const asked = (view.resume_requested || []).includes(view.you);
    items.push(button(asked ? t('action.resume_waiting') : t('action.resume'), 'resume primary',
      () => act('resume'), !asked));
  }
  if (view.status !== 'finished') {
    const armed = ui.resignArmed > Date.now();
    items.push(button(armed ? t('action.resign_really') : t('action.resign'), `resign${armed ? ' armed' : ''}`, resign));
  } else {
    rematchActions(ctx, items);
    if (!game.record) items.push(button(t('action.show_replay'), 'record-button', () => askRecord(true)));
  }
  fillActions(holder, items);
}

function renderDomains({ game }) {
  const view = game.view;
  const holder = $('#domains');
  holder.hidden = view.variant !== 'domains';
  if (holder.hidden) return;
  const table = view.block_table || { blue: 0, red: 0, undecided: 0 };
  fill(holder,
    h('h3', {}, t('domains.title')),
    h('table', { class: 'block-table' },
      h('tbody', {},
        h('tr', { class: 'blue' }, h('td', {}, h('span', { class: 'seat-dot blue' }), nameOf(view, 'blue')), h('td', { class: 'num' }, table.blue)),
        h('tr', { class: 'red' }, h('td', {}, h('span', { class: 'seat-dot red' }), nameOf(view, 'red')), h('td', { class: 'num' }, table.red)),
        h('tr', {}, h('td', {}, t('domains.undecided')), h('td', { class: 'num' }, table.undecided)))),
    h('p', { class: 'small muted' }, t('domains.majority')),
    secondOfPair(view) ? h('p', { class: 'pair-note' }, t('status.pair_note')) : null);
}

function renderResult({ game, summary, sides }) {
  const view = game.view;
  const holder = $('#result');
  holder.hidden = view.status !== 'finished';
  if (holder.hidden) return;
  const result = view.result || {};
  const cls = !result.winner ? 'draw' : result.winner === view.you ? 'won' : view.you ? 'lost' : 'neutral';
  fill(holder,
    h('h3', {}, t('result.title')),
    h('p', { class: `result ${cls}` }, resultText(result, view.players, view.variant, view.you, sides)),
    summary && summary.rating ? h('p', { class: 'small' },
      t(summary.rating.provisional ? 'result.rating_provisional' : 'result.rating', {
        before: Math.round(summary.rating.before), after: Math.round(summary.rating.after),
      })) : null);
}

function renderLog({ game }) {
  const list = $('#log');
  fill(list, ...game.log.slice(-120).map((entry) => h('li', {
    class: `log-entry ${entry.kind}${entry.seat ? ` ${entry.seat}` : ''}`,
    dataset: { kind: entry.kind, v: entry.v },
  }, entry.text)));
  list.scrollTop = list.scrollHeight;
}

const RECORD_ACTIONS = new Set(['place', 'take', 'exchange', 'swap', 'timeout', 'pass', 'resign', 'draw', 'time',
  'adjourn', 'auto_adjourn', 'resume']);

function recordLabel(move) {
  if (move.action === 'place' && move.mistake) return t('moves.action.mistake');
  return RECORD_ACTIONS.has(move.action) ? t(`moves.action.${move.action}`) : move.action;
}

// The replay's buttons: the symbol on each (no words), its name in the catalog (`replay.<name>`).
const REPLAY_BUTTONS = [['first', '|◀'], ['back', '◀'], ['play', null], ['forward', '▶'], ['last', '▶|']];

/**
 * The game record as a replay: buttons (start, back, play/pause, forward, end), a slider
 * over the moves, the moves list (a row jumps there). Built once per record and updated
 * in place, so that a dragged slider stays under the pointer.
 */
function renderRecord({ game, ui, replay, sides }) {
  const holder = $('#record');
  const record = game.record;
  holder.hidden = !record;
  if (!record) {
    delete holder.dataset.game;
    return;
  }
  if (holder.dataset.game !== record.game) buildRecord(holder, record, replay);
  const n = lastStep(record);
  const k = ui.step === null || ui.step === undefined ? n : clampStep(record, ui.step);
  const position = positionAt(record, k);
  const players = record.players || {};
  holder.dataset.step = String(k);
  holder.dataset.end = k === n ? '1' : '0';
  const slider = holder.querySelector('#replay-slider');
  if (Number(slider.value) !== k) slider.value = String(k);
  for (const [name] of REPLAY_BUTTONS) {
    const node = holder.querySelector(`#replay-${name}`);
    if (name === 'play') {
      node.textContent = ui.playing ? t('replay.pause') : t('replay.play_label');
      node.title = ui.playing ? t('replay.pause_title') : t('replay.play');
      node.classList.toggle('playing', Boolean(ui.playing));
      node.disabled = n === 0;
    } else node.disabled = (name === 'first' || name === 'back') ? k === 0 : k === n;
  }
  let mistakes = t('replay.mistakes', {
    blue: players.blue || seatName('blue'), blue_count: position.mistakes.blue,
    red: players.red || seatName('red'), red_count: position.mistakes.red,
  });
  if (record.options?.variant === 'domains') {
    const table = blockSummary(record.size, record.layout, position.owners).table;
    mistakes += ` · ${t('replay.blocks', { blue: table.blue, red: table.red, count: table.undecided })}`;
  }
  const where = k === 0 ? t('replay.deal') : t('replay.move', { k, n, move: moveText(position.move, players) });
  const empty = [...position.digits].filter((d) => d === '.').length;
  const result = resultText(record.result, { blue: { name: players.blue }, red: { name: players.red } },
    record.options?.variant, null, sides);
  const end = k === n
    ? [t('replay.end', { result }), empty ? t('replay.solution', { count: empty }) : ''].filter(Boolean).join(' ') : '';
  fill(holder.querySelector('#replay-where'), where, h('span', { class: 'muted' }, ` · ${mistakes}`));
  const endNode = holder.querySelector('#replay-end');
  endNode.hidden = !end;
  endNode.textContent = end;
  const rows = holder.querySelectorAll('table.moves tbody tr');
  rows.forEach((row, j) => {
    row.classList.toggle('current', j + 1 === k);
    row.classList.toggle('future', j + 1 > k);
  });
  const list = holder.querySelector('.moves-scroll');
  const current = k > 0 ? rows[k - 1] : null;
  if (current && (current.offsetTop < list.scrollTop || current.offsetTop > list.scrollTop + list.clientHeight - 30)) {
    list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
  } else if (!current) list.scrollTop = 0;
}

function buildRecord(holder, record, replay) {
  holder.dataset.game = record.game;
  // The replay opens where the end-of-game notice was shown: the notice goes (the result
  // stays in the status line and the result card), so it covers none of the replay.
  for (const note of document.querySelectorAll('#toasts .toast:not(.error)')) note.remove();
  const players = record.players || {};
  const moves = movesOf(record);
  const options = record.options || {};
  const n = lastStep(record);
  const step = (target) => replay.to(target);
  const actions = {
    first: () => step(0), back: () => replay.by(-1), play: () => replay.toggle(),
    forward: () => replay.by(1), last: () => step(n),
  };
  fill(holder,
    h('h3', {}, t('replay.title')),
    h('p', { class: 'small muted' }, t('replay.summary', {
      blue: players.blue || seatName('blue'), red: players.red || seatName('red'),
      variant: variantName(options.variant), blocks: blocksName(options.blocks), clues: options.clues, count: n,
    })),
    h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls') },
      REPLAY_BUTTONS.map(([name, symbol]) => h('button', {
        type: 'button', id: `replay-${name}`, class: `replay-${name}`, title: t(`replay.${name}`),
        'aria-label': t(`replay.${name}`), onclick: actions[name],
      }, symbol ?? t('replay.play_label'))),
      h('input', {
        type: 'range', id: 'replay-slider', min: 0, max: n, step: 1, value: n, 'aria-label': t('replay.slider'),
        oninput: (event) => step(Number(event.target.value)),
      })),
    h('p', { id: 'replay-where', class: 'replay-where' }),
    h('p', { id: 'replay-end', class: 'replay-end', hidden: true }),
    h('div', { class: 'moves-scroll' },
      h('table', { class: 'moves' },
        h('thead', {}, h('tr', {}, h('th', { class: 'num', scope: 'col' }, '#'),
          h('th', { scope: 'col' }, t('moves.player')), h('th', { scope: 'col' }, t('moves.action_head')),
          h('th', { scope: 'col' }, t('moves.cell')), h('th', { class: 'num', scope: 'col' }, t('moves.digit')),
          h('th', { scope: 'col' }, t('moves.paid')), h('th', { class: 'num', scope: 'col' }, t('moves.time')))),
        h('tbody', {}, moves.map((move, k) => h('tr', {
          class: `${move.seat}${move.mistake ? ' mistake' : ''}`,
          dataset: { step: k + 1 },
          title: t('moves.row_title'),
          onclick: () => step(k + 1),
        },
        h('td', { class: 'num' }, k + 1),
        h('td', {}, h('span', { class: `seat-dot ${move.seat}` }), players[move.seat] || move.seat),
        h('td', {}, recordLabel(move)),
        h('td', {}, move.cell ? cellText(move.cell) : ''),
        h('td', { class: 'num' }, move.digit ?? ''),
        h('td', {}, (move.discarded || []).join(' ')),
        h('td', { class: 'num' }, move.time_ms ? fmtUnit(move.time_ms / 1000, 'second', {
          minimumFractionDigits: 1, maximumFractionDigits: 1,
        }) : '')))))));
}

// A finger, not a mouse: the hints say "tap", not "click".
const touchScreen = () => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

/** What to do next, in words (shown under the hand when no other hint is). */
export function defaultHint({ game, digit }) {
  const view = game && game.view;
  if (!view || view.status !== 'playing' || !view.you) return '';
  if (view.turn !== view.you) return t('hint.waiting');
  if (!(view.hand || []).length) return t('hint.empty_hand');
  if (digit === null) return t('hint.select_tile');
  return t(touchScreen() ? 'hint.place_touch' : 'hint.place');
}

/** The running clocks, written in place (no re-render) a few times a second. */
export function tickClocks(game, serverNow) {
  // A replay's clocks are the step's, drawn with the players (renderPlayers).
  if (!game || !game.view || replaying(game)) return;
  const view = game.view;
  for (const node of document.querySelectorAll('.game-clock')) {
    const left = clockNow(view, node.dataset.seat, serverNow);
    node.textContent = left === null ? t('clock.none') : fmtClock(left);
    node.classList.toggle('low', left !== null && left < 30000);
  }
  const moveClock = $('#move-clock');
  if (moveClock) {
    if (view.status === 'playing' && typeof view.deadline_ms === 'number') {
      const left = view.deadline_ms - serverNow;
      moveClock.textContent = t('clock.move', { time: fmtClock(left) });
      moveClock.classList.toggle('low', left < 10000);
    } else moveClock.textContent = '';
  }
}
