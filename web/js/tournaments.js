/* The club's Tournaments tab: the tournaments under way, upcoming and finished (each list
 * asked for whenever the tab comes on screen: chosen, back after a game, the page back in
 * view, a new connection), one
 * of them shown with its standings and pairings, kept live by subscribing to its topic
 * `tournament:TID` exactly while it is on screen (as club.js does with the lobby's), join
 * and leave; and, in a finished tournament game's header, a link to its table. The
 * player's next game opens by itself when it is dealt (shown-game.js opens a game dealt
 * to the player): nothing here asks on a timer. The model is tournaments-model.js. */

import { $, fill, h, toast } from './dom.js';
import { fmtDuration, roomName } from './format.js';
import { fmtMoment, fmtNumber, t } from './i18n.js';
import { openGame, watchGame } from './shown-game.js';
import {
  STATUSES, applyChanges, closed, emptyTournaments, fromList, fromPage, gameOf, joinable, leavable, markMine,
  pairingState, takesPart, tiebreakCount, topicOf, tournamentOf,
} from './tournaments-model.js';
import { shownGame } from './ui-state.js';

/** sessionStorage: the tab and the tournament shown come back after a reload. */
const TAB_KEY = 'numbridge.club-tab';
const SHOWN_KEY = 'numbridge.tournament';
const TABS = ['play', 'tournaments'];

export function createTournaments() {
  return {
    model: emptyTournaments(),
    player: '', // whose `mine` the model holds
    tab: 'play',
    shown: null, // the tournament shown (its id)
    subscribed: null, // the tournament whose topic this connection is subscribed to
    unsupported: false, // the server knows no tournaments
    pageAsked: false, // a `tournament` request on its way
    pageAgain: false, // … and another wanted once it is answered
    namesAsked: new Set(), // tournaments asked for only for their name (a game's header)
    focusPage: false, // bring the page's heading into focus once drawn
    listed: false, // the tab was on screen when last looked: its lists asked for then
  };
}

/** `draw()` refills `holder`: the element that had the focus in it (found again by its
 * data-key) has it again, so that a push redrawing the table takes no keyboard's place. */
function keepingFocus(holder, draw) {
  const active = document.activeElement;
  const key = active && holder.contains(active) ? active.dataset.key : null;
  draw();
  if (!key) return;
  const again = holder.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again) again.focus({ preventScroll: true });
}

const storage = () => {
  try {
    return window.sessionStorage;
  } catch (_) {
    return null; // storage refused (a sandboxed frame): nothing comes back after a reload
  }
};

// ------------------------------------------------------------------ the requests

/**
 * Subscribed to the shown tournament's topic exactly while it is on screen (`seen`: the
 * club is, club.js) with the Tournaments tab chosen and the socket open. Called whenever
 * what is shown may have changed and on each connection (a subscription is its
 * connection's: after a reconnect it is made again and its page comes afresh).
 */
export function followTournament(app, seen) {
  const st = app.tournaments;
  // The tab back on screen (a game over, the page in view again): its lists as they are now.
  const listed = Boolean(app.me && app.conn.isOpen && seen && st.tab === 'tournaments');
  if (listed && !st.listed) askLists(app);
  st.listed = listed;
  const want = app.me && app.conn.isOpen && seen && st.tab === 'tournaments' && st.shown ? st.shown : null;
  if (want === st.subscribed) return;
  if (st.subscribed) app.request('unsubscribe', { topic: topicOf(st.subscribed) }, null, true);
  st.subscribed = want;
  if (!want) return;
  app.request('subscribe', { topic: topicOf(want) }, (answer) => {
    if (answer.type === 'tournament') {
      if (st.shown === want) {
        st.model = fromPage(st.model, answer);
        renderTournaments(app);
      }
      return;
    }
    if (answer.type !== 'error') return;
    if (st.subscribed === want) st.subscribed = null;
    if (answer.code === 'not_found') {
      toast(t('error.not_found'), 'error');
      if (st.shown === want) closeTournament(app);
    } else if (st.shown === want) {
      askPage(app); // no live changes (too many subscriptions, an older server): the page as it is now
    }
  }, true);
}

/** A new connection: nothing is subscribed on it; the lists asked again if they are shown. */
export function connectedTournaments(app) {
  const st = app.tournaments;
  if (st.player !== app.me) {
    st.model = { ...emptyTournaments(), names: st.model.names };
    st.player = app.me;
  }
  st.subscribed = null;
  st.pageAsked = false;
  st.pageAgain = false;
  st.listed = false; // the lists asked again once followTournament finds the tab on screen
}

/** The three lists, each its first page. */
function askLists(app) {
  if (!app.me || !app.conn.isOpen) return;
  for (const status of STATUSES) askList(app, status, null);
}

function askList(app, status, after) {
  const st = app.tournaments;
  const fields = after ? { status, after } : { status };
  app.request('tournaments', fields, (answer) => {
    if (answer.type === 'tournaments') {
      st.unsupported = false;
      st.model = fromList(st.model, status, answer, Boolean(after));
    } else if (answer.type === 'error' && answer.code === 'unknown_action') {
      st.unsupported = true;
    }
    renderTournaments(app);
  }, true);
}

/** The shown tournament's page asked for again (one request at a time; a second wish
 * made meanwhile asks once more after its answer). */
function askPage(app, after = null) {
  const st = app.tournaments;
  if (!st.shown) return;
  if (st.pageAsked && !after) {
    st.pageAgain = true;
    return;
  }
  const tid = st.shown;
  if (!after) st.pageAsked = true;
  const id = app.request('tournament', after ? { tournament: tid, after } : { tournament: tid }, (answer) => {
    if (!after) st.pageAsked = false;
    if (answer.type === 'tournament' && st.shown === tid) {
      st.model = fromPage(st.model, answer, Boolean(after));
      renderTournaments(app);
    }
    if (!after && st.pageAgain) {
      st.pageAgain = false;
      askPage(app);
    }
  }, true);
  if (id === null && !after) st.pageAsked = false;
}

/** A pushed `changes` frame of a tournament's topic (true: it was one, kept or not). */
export function onTournamentPush(app, frame) {
  if (frame.type !== 'changes' || typeof frame.topic !== 'string' || !frame.topic.startsWith('tournament:')) return false;
  const st = app.tournaments;
  const { model, ask } = applyChanges(st.model, frame);
  st.model = model;
  if (ask) askPage(app);
  renderTournaments(app);
  return true;
}

function join(app, tid) {
  const st = app.tournaments;
  app.request('join_tournament', { tournament: tid }, (answer) => {
    if (answer.type !== 'ack') return;
    st.model = markMine(st.model, tid, true);
    toast(t('tournament.joined', { tournament: st.model.names[tid] || tid }), 'info');
    // Subscribed, the count and the standings come pushed; else the page as it is now.
    if (st.shown === tid && st.subscribed !== tid) askPage(app);
    renderTournaments(app);
  });
}

function leave(app, tid) {
  const st = app.tournaments;
  app.request('leave_tournament', { tournament: tid }, (answer) => {
    if (answer.type !== 'ack') return;
    st.model = markMine(st.model, tid, false);
    toast(t('tournament.left', { tournament: st.model.names[tid] || tid }), 'info');
    if (st.shown === tid && st.subscribed !== tid) askPage(app);
    renderTournaments(app);
  });
}

// ------------------------------------------------------------- what is shown

/** The Play or the Tournaments tab (`focus`: the tab itself takes the focus, as arrow keys move it). */
export function showTab(app, tab, focus = false) {
  const st = app.tournaments;
  if (!TABS.includes(tab)) return;
  st.tab = tab;
  storage()?.setItem(TAB_KEY, tab);
  drawTabs(app);
  if (focus) $(`#tab-${tab}`).focus();
  app.followLobby(); // the lists asked, the tournament shown subscribed (or not)
  renderTournaments(app);
}

/** One tournament shown: its table, subscribed while on screen. */
export function openTournament(app, tid) {
  const st = app.tournaments;
  if (st.shown !== tid) st.model = closed(st.model);
  st.shown = tid;
  st.focusPage = true;
  storage()?.setItem(SHOWN_KEY, tid);
  if (st.tab !== 'tournaments') showTab(app, 'tournaments');
  else app.followLobby();
  renderTournaments(app);
}

function closeTournament(app) {
  const st = app.tournaments;
  const tid = st.shown;
  st.shown = null;
  st.model = closed(st.model);
  storage()?.removeItem(SHOWN_KEY);
  app.followLobby();
  renderTournaments(app);
  const row = tid && document.querySelector(`#tournaments li[data-tournament="${CSS.escape(tid)}"] .tournament-open`);
  if (row) row.focus();
}

function drawTabs(app) {
  const { tab } = app.tournaments;
  $('#lobby').dataset.tab = tab;
  for (const name of TABS) {
    const button = $(`#tab-${name}`);
    button.setAttribute('aria-selected', String(name === tab));
    button.tabIndex = name === tab ? 0 : -1;
  }
  $('#tournaments').hidden = tab !== 'tournaments';
}

export function attachTournaments(app) {
  const st = app.tournaments;
  const saved = storage();
  const tab = saved?.getItem(TAB_KEY);
  if (TABS.includes(tab)) st.tab = tab;
  st.shown = saved?.getItem(SHOWN_KEY) || null;
  for (const name of TABS) {
    const button = $(`#tab-${name}`);
    button.addEventListener('click', () => showTab(app, name));
    // The tabs as one control (WAI-ARIA tabs): the arrows, Home and End move between them.
    button.addEventListener('keydown', (event) => {
      const at = TABS.indexOf(name);
      const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      showTab(app, TABS[(to + TABS.length) % TABS.length], true);
    });
  }
  fill($('#tournaments'),
    h('div', { class: 'tournament-lists' }, STATUSES.map((status) => h('section', {
      class: 'card tournament-list', id: `tournaments-${status}`, 'aria-labelledby': `tournaments-${status}-title`,
    },
    h('h2', { id: `tournaments-${status}-title` }, t(`tournament.${status}`)),
    h('ul', { class: 'list' }),
    h('button', { type: 'button', class: 'quiet small more', hidden: true }, t('tournament.more'))))),
    h('section', {
      class: 'card', id: 'tournament-page', hidden: true, 'aria-labelledby': 'tournament-title',
    }));
  for (const status of STATUSES) {
    $(`#tournaments-${status} .more`).addEventListener('click', () => {
      const next = st.model.lists[status]?.next;
      if (next) askList(app, status, next);
    });
  }
  drawTabs(app);
  renderTournaments(app);
}

const kindName = (kind) => (['arena', 'swiss', 'round_robin'].includes(kind) ? t(`tournament.kind.${kind}`) : kind);

/** What a tournament is: its kind, room, rating, players, length. */
function factsOf(tour) {
  let extent = null;
  if (tour.kind === 'arena' && tour.ends_ms) extent = t('tournament.lasts', { time: fmtDuration(tour.ends_ms - tour.starts_ms) });
  else if (tour.rounds) extent = t('tournament.rounds', { count: tour.rounds });
  return [
    kindName(tour.kind), roomName(tour.room), tour.rated ? t('proposals.rated') : t('proposals.unrated'),
    t('tournament.players', { count: tour.players || 0 }), extent,
  ].filter(Boolean).join(' · ');
}

/** When it is: starts at, ends at (an arena under way), the round, or when it started. */
function whenOf(tour) {
  if (tour.status === 'upcoming') return t('tournament.starts', { time: fmtMoment(tour.starts_ms) });
  if (tour.status === 'running') {
    if (tour.kind === 'arena' && tour.ends_ms) return t('tournament.ends', { time: fmtMoment(tour.ends_ms) });
    if (tour.round && tour.rounds) return t('tournament.round', { round: tour.round, rounds: tour.rounds });
  }
  if (tour.status === 'finished' && ['by_host', 'too_few_players'].includes(tour.cancelled)) {
    return t(`tournament.cancelled.${tour.cancelled}`);
  }
  return t('tournament.started', { time: fmtMoment(tour.starts_ms) });
}

function listItem(app, tour) {
  const st = app.tournaments;
  const current = st.shown === tour.id;
  const mine = takesPart(st.model, tour.id, app.me);
  return h('li', { class: `tournament-row${current ? ' current' : ''}`, dataset: { tournament: tour.id, status: tour.status } },
    h('div', {},
      h('button', {
        type: 'button', class: 'tournament-open', 'aria-current': current ? 'true' : null, dataset: { key: `open-${tour.id}` },
        onclick: () => openTournament(app, tour.id),
      }, tour.name),
      mine ? h('span', { class: 'badge in' }, t('tournament.in_badge')) : null,
      h('div', { class: 'muted small' }, factsOf(tour)),
      h('div', { class: 'muted small when' }, whenOf(tour))));
}

/** The tab drawn from the model (the lists, the tournament shown). Sends nothing. */
export function renderTournaments(app) {
  const st = app.tournaments;
  const panel = $('#tournaments');
  if (!panel || !panel.firstChild) return;
  for (const status of STATUSES) {
    const list = st.model.lists[status];
    const section = $(`#tournaments-${status}`);
    let rows;
    if (st.unsupported) rows = [h('li', { class: 'muted' }, t('tournament.unsupported'))];
    else if (!list) rows = [h('li', { class: 'muted' }, t('tournament.asking'))];
    else if (!list.items.length) rows = [h('li', { class: 'muted' }, t(`tournament.none_${status}`))];
    else rows = list.items.map((tour) => listItem(app, tour));
    keepingFocus(section, () => fill(section.querySelector('ul'), ...rows));
    section.querySelector('.more').hidden = !(list && list.next);
  }
  renderPage(app);
}

function renderPage(app) {
  const st = app.tournaments;
  const card = $('#tournament-page');
  card.hidden = !st.shown;
  panelWide(app);
  if (!st.shown) {
    card.replaceChildren();
    return;
  }
  const page = st.model.page && st.model.page.tournament.id === st.shown ? st.model.page : null;
  const close = h('button', { type: 'button', class: 'quiet small close', dataset: { key: 'close' }, onclick: () => closeTournament(app) },
    t('tournament.close'));
  const title = h('h2', { id: 'tournament-title', tabindex: '-1', dataset: { key: 'title' } }, page ? page.tournament.name : st.model.names[st.shown] || '');
  if (!page) {
    keepingFocus(card, () => fill(card, h('div', { class: 'tournament-head' }, title, close),
      h('p', { class: 'muted' }, t('tournament.asking'))));
  } else {
    const tour = page.tournament;
    keepingFocus(card, () => fill(card,
      h('div', { class: 'tournament-head' }, title, close),
      h('p', { class: 'muted small', id: 'tournament-facts' }, factsOf(tour)),
      h('p', { class: 'small', id: 'tournament-when' }, whenOf(tour)),
      youPart(app, page),
      standingsPart(app, page),
      pairingsPart(app, page)));
  }
  if (st.focusPage) {
    st.focusPage = false;
    card.scrollIntoView({ block: 'nearest' });
    title.focus({ preventScroll: true });
  }
}

/** The tab as wide as the club when a tournament is shown beside the lists. */
function panelWide(app) {
  $('#tournaments').classList.toggle('with-page', Boolean(app.tournaments.shown));
}

/** The player in it: their game being played, or that the next opens by itself; Join or Leave. */
function youPart(app, page) {
  const st = app.tournaments;
  const tour = page.tournament;
  const mine = takesPart(st.model, tour.id, app.me);
  const playing = gameOf(page, app.me);
  const lines = [];
  if (playing) {
    const p = page.pairings.find((x) => x.game === playing);
    lines.push(h('p', { class: 'your-game' }, t('tournament.your_game', { opponent: p.blue === app.me ? p.red : p.blue }), ' ',
      h('button', { type: 'button', class: 'primary small', dataset: { key: 'your-game' }, onclick: () => openGame(app, playing) },
        t('games.play'))));
  } else if (mine && tour.status !== 'finished') {
    lines.push(h('p', { class: 'hint next-opens' }, t('tournament.next_opens')));
  }
  let action = null;
  if (mine && leavable(tour)) {
    action = h('button', { type: 'button', class: 'leave', dataset: { key: 'membership' }, onclick: () => leave(app, tour.id) },
      t('tournament.leave'));
  } else if (!mine && joinable(tour)) {
    action = h('button', { type: 'button', class: 'primary join', dataset: { key: 'membership' }, onclick: () => join(app, tour.id) },
      t('tournament.join'));
  }
  return h('div', { class: 'tournament-you' }, lines, action ? h('div', { class: 'buttons' }, action) : null);
}

const points = (n) => fmtNumber(n, { maximumFractionDigits: 1 });

function standingsPart(app, page) {
  const me = app.me;
  const tour = page.tournament;
  const breaks = tiebreakCount(page.standings);
  const heading = t(tour.status === 'finished' ? 'tournament.final' : 'tournament.standings');
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'num' }, '#'),
    h('th', { scope: 'col' }, t('tournament.col_player')),
    h('th', { scope: 'col', class: 'num' }, t('tournament.col_points')),
    h('th', { scope: 'col', class: 'num' }, t('tournament.col_games')),
    breaks ? h('th', { scope: 'col', class: 'num' }, t('tournament.col_tiebreaks')) : null);
  const rows = page.standings.map((row) => h('tr', {
    class: [row.player === me ? 'mine' : '', row.withdrawn ? 'withdrawn' : ''].filter(Boolean).join(' ') || null,
    dataset: { player: row.player },
  },
    h('td', { class: 'num' }, row.rank),
    h('th', { scope: 'row' }, row.player,
      row.withdrawn ? h('span', { class: 'muted small withdrawn-mark' }, ' (', t('tournament.withdrawn'), ')') : null),
    h('td', { class: 'num score' }, points(row.score)),
    h('td', { class: 'num' }, row.games),
    breaks ? h('td', { class: 'num' }, (row.tiebreaks || []).map(points).join(' · ')) : null));
  const more = page.next ? h('button', {
    type: 'button', class: 'quiet small more-standings', dataset: { key: 'more-standings' },
    onclick: (event) => {
      event.currentTarget.disabled = true;
      askPage(app, page.next);
    },
  }, t('tournament.more_standings')) : null;
  return h('div', { class: 'tournament-standings' },
    h('h3', { id: 'tournament-standings-title' }, heading),
    page.standings.length
      ? h('div', { class: 'table-scroll' }, h('table', { class: 'standings', 'aria-labelledby': 'tournament-standings-title' },
        h('thead', {}, head), h('tbody', {}, rows)))
      : h('p', { class: 'muted' }, t('tournament.no_players')),
    breaks ? h('p', { class: 'muted small' }, t(tour.kind === 'arena' ? 'tournament.tiebreaks_arena' : 'tournament.tiebreaks_swiss')) : null,
    more);
}

const RESULT_MARKS = { blue: '1–0', red: '0–1', draw: '½–½' };

function pairingsPart(app, page) {
  const tour = page.tournament;
  if (tour.status === 'upcoming') return null;
  const heading = tour.kind === 'arena' || !tour.round
    ? t('tournament.pairings_latest') : t('tournament.pairings_round', { round: tour.round });
  const rows = page.pairings.map((p) => {
    const state = pairingState(p);
    if (state === 'bye') return h('li', { class: 'pairing bye' }, t('tournament.bye', { name: p.bye }));
    const mine = p.blue === app.me || p.red === app.me;
    let button = null;
    if (state === 'playing') {
      button = h('button', {
        type: 'button', class: mine ? 'primary small' : 'small', dataset: { key: `game-${p.game}` },
        onclick: () => (mine ? openGame(app, p.game) : watchGame(app, p.game)),
      }, mine ? t('games.play') : t('live.watch'));
    } else if (mine) {
      button = h('button', { type: 'button', class: 'small', dataset: { key: `game-${p.game}` }, onclick: () => openGame(app, p.game) },
        t('games.replay'));
    }
    return h('li', { class: `pairing${mine ? ' mine' : ''}`, dataset: { game: p.game, state } },
      h('div', {},
        h('span', { class: 'seat-dot blue' }), h('strong', {}, p.blue || '?'), ' – ',
        h('span', { class: 'seat-dot red' }), h('strong', {}, p.red || '?'), ' ',
        state === 'playing'
          ? h('span', { class: 'badge playing' }, t('games.badge.playing'))
          : h('span', { class: 'result' }, RESULT_MARKS[state])),
      button);
  });
  return h('div', { class: 'tournament-pairings' },
    h('h3', {}, heading),
    rows.length ? h('ul', { class: 'list pairings' }, rows) : h('p', { class: 'muted' }, t('tournament.no_pairings')));
}

// ------------------------------------------------- a tournament game's header

/** A game's view came or changed: a finished tournament game's header names its
 * tournament, so its name is asked for once (the page holds it if the tab showed it). */
export function noteTournamentGame(app, game) {
  const st = app.tournaments;
  const tid = tournamentOf(game && game.view);
  if (!tid || game.view.status === 'playing' || st.model.names[tid] || st.namesAsked.has(tid)) return;
  st.namesAsked.add(tid);
  const id = app.request('tournament', { tournament: tid }, (answer) => {
    if (answer.type === 'tournament' && answer.tournament) {
      st.model = { ...st.model, names: { ...st.model.names, [tid]: answer.tournament.name } };
      app.render();
    } else if (answer.type === 'error' && answer.code !== 'not_found') {
      st.namesAsked.delete(tid);
    }
  }, true);
  if (id === null) st.namesAsked.delete(tid);
}

/** The shown game's header: "Tournament NAME", a link to its table, once the game is over. */
export function renderTournamentLink(app) {
  const holder = $('#game-tournament');
  if (!holder) return;
  const game = shownGame(app);
  const view = game && game.view;
  const tid = tournamentOf(view) || tournamentOf(game && game.record);
  const name = tid ? app.tournaments.model.names[tid] : null;
  const show = Boolean(tid && name && view && view.status !== 'playing');
  holder.hidden = !show;
  if (!show) {
    holder.replaceChildren();
    return;
  }
  const text = t('tournament.link', { tournament: name });
  if (holder.dataset.tournament === tid && holder.textContent === text) return; // drawn: its focus kept
  holder.dataset.tournament = tid;
  fill(holder, h('a', {
    href: '#tournaments', class: 'tournament-link', dataset: { tournament: tid },
    onclick: (event) => {
      event.preventDefault();
      openTournament(app, tid);
    },
  }, text));
}
