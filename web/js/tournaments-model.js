/* The club's tournaments as the Tournaments tab shows them, kept from frames
 * (PROTOCOL.md, "Additions 3"): the three lists (`tournaments` with a `status`, paged),
 * the one tournament shown (`tournament`, the answer to `subscribe` with topic
 * `tournament:TID`, its standings paged) and each `changes` frame of that topic applied
 * to it; the names of the tournaments met (a game's header names its tournament); what
 * this player joined or left here. Pure: no page, no clock, no socket — the frames in, a
 * new model out (the old one is never changed), so that node tests drive it. */

/** The lists in the order the tab shows them. */
export const STATUSES = ['running', 'upcoming', 'finished'];
export const KINDS = ['arena', 'swiss', 'round_robin'];

/** Nothing known yet: no list asked for (null), no tournament shown. */
export function emptyTournaments() {
  return {
    lists: { running: null, upcoming: null, finished: null }, // each {items, next} once answered
    page: null, // {tournament, standings, next, firstNext, pairings, you}
    names: {}, // TID -> name, from every list and page seen
    mine: {}, // TID -> true (joined here) | false (left here)
  };
}

const isTournament = (t) => Boolean(t) && typeof t === 'object' && typeof t.id === 'string'
  && STATUSES.includes(t.status);
const isStanding = (row) => Boolean(row) && typeof row === 'object' && typeof row.player === 'string';
const isPairing = (p) => Boolean(p) && typeof p === 'object'
  && (typeof p.game === 'string' || typeof p.bye === 'string');

function named(names, tournaments) {
  const more = {};
  for (const t of tournaments) if (typeof t.name === 'string') more[t.id] = t.name;
  return { ...names, ...more };
}

/** The lists with `t` where its status puts it now: out of the others, and into its own
 * list (if that one was answered) in the order the server keeps, by start. */
function placed(lists, t) {
  const out = {};
  for (const status of STATUSES) {
    const list = lists[status];
    if (!list) {
      out[status] = list;
      continue;
    }
    const rest = list.items.filter((item) => item.id !== t.id);
    if (status !== t.status) {
      out[status] = rest.length === list.items.length ? list : { ...list, items: rest };
      continue;
    }
    const at = rest.findIndex((item) => item.starts_ms > t.starts_ms);
    const items = at < 0 ? [...rest, t] : [...rest.slice(0, at), t, ...rest.slice(at)];
    out[status] = { ...list, items };
  }
  return out;
}

/**
 * A `tournaments` answer for `status`. The first page replaces the list; a further one
 * (`further`: it was asked with `after`) is added below what is listed.
 */
export function fromList(model, status, frame, further = false) {
  if (!STATUSES.includes(status) || !frame || frame.type !== 'tournaments') return model;
  const found = (Array.isArray(frame.tournaments) ? frame.tournaments : []).filter(isTournament);
  const next = typeof frame.next === 'string' ? frame.next : null;
  const before = model.lists[status];
  let items = found;
  if (further && before) {
    const known = new Set(before.items.map((t) => t.id));
    items = [...before.items, ...found.filter((t) => !known.has(t.id))];
  }
  return { ...model, lists: { ...model.lists, [status]: { items, next } }, names: named(model.names, found) };
}

/**
 * A `tournament` answer (or the page a subscription answers with): the tournament shown,
 * its standings' first page and its pairings. `further`: a next page of standings asked
 * with `after`, added below those shown (the tournament and pairings as the page says).
 */
export function fromPage(model, frame, further = false) {
  if (!frame || frame.type !== 'tournament' || !isTournament(frame.tournament)) return model;
  const t = frame.tournament;
  const rows = (Array.isArray(frame.standings) ? frame.standings : []).filter(isStanding);
  const next = typeof frame.next === 'string' ? frame.next : null;
  const pairings = (Array.isArray(frame.pairings) ? frame.pairings : []).filter(isPairing);
  // The asking player's part (a server before `you`: null, and the table is asked instead).
  const you = frame.you && typeof frame.you === 'object' && typeof frame.you.joined === 'boolean'
    ? { joined: frame.you.joined, left: frame.you.left === true } : null;
  const old = model.page && model.page.tournament.id === t.id ? model.page : null;
  let page;
  if (further && old) {
    const known = new Set(old.standings.map((row) => row.player));
    page = {
      ...old, tournament: t, pairings, next, you: you || old.you,
      standings: [...old.standings, ...rows.filter((row) => !known.has(row.player))],
    };
  } else {
    page = { tournament: t, standings: rows, next, firstNext: next, pairings, you };
  }
  return { ...model, page, lists: placed(model.lists, t), names: named(model.names, [t]) };
}

/** The tournament shown, none: the topic's later changes are not kept. */
export function closed(model) {
  return model.page ? { ...model, page: null } : model;
}

/** A Swiss's or round robin's pairing (a game, or a bye) of `round` put on the page: added
 * to the round shown, or the first of the next round (which then is the one shown). */
function inRound(page, round, pairing) {
  const t = page.tournament;
  if (round < (t.round || 0)) return page; // a round already over: not shown
  if (round > (t.round || 0)) return { ...page, tournament: { ...t, round }, pairings: [pairing] };
  return { ...page, pairings: [...page.pairings, pairing] };
}

/**
 * One CHANGE applied to the page: `{page, ask}`, `ask` true when the page should be
 * asked for afresh because a change says something moved that only the page words —
 * the tournament once it started (a round robin's rounds), the final table once it
 * finished, or a change from a server that does not say enough (a Swiss's pairing
 * without its round, a result of a game the page does not list). Every pairing and bye
 * is pushed, and so are the count of players and the standings after a join or a leave.
 * A change of a kind this client does not know leaves it as it was.
 */
export function applyChange(page, change) {
  if (!page || !change || typeof change !== 'object') return { page, ask: false };
  const t = page.tournament;
  switch (change.kind) {
    case 'started':
      return { page: { ...page, tournament: { ...t, status: 'running' } }, ask: true };
    case 'finished': {
      const cancelled = typeof change.cancelled === 'string' ? { cancelled: change.cancelled } : {};
      return { page: { ...page, tournament: { ...t, status: 'finished', ...cancelled } }, ask: true };
    }
    case 'players':
      if (!Number.isInteger(change.players)) return { page, ask: false };
      return { page: { ...page, tournament: { ...t, players: change.players } }, ask: false };
    case 'paired': {
      if (typeof change.game !== 'string' || page.pairings.some((p) => p.game === change.game)) {
        return { page, ask: false };
      }
      const pairing = { game: change.game, blue: change.blue, red: change.red };
      if (t.kind === 'arena') return { page: { ...page, pairings: [pairing, ...page.pairings] }, ask: false };
      if (!Number.isInteger(change.round)) return { page, ask: true }; // which round: the page says
      return { page: inRound(page, change.round, { ...pairing, round: change.round }), ask: false };
    }
    case 'bye': {
      if (!Number.isInteger(change.round) || typeof change.player !== 'string') return { page, ask: false };
      if (page.pairings.some((p) => p.bye === change.player && p.round === change.round)) return { page, ask: false };
      return { page: inRound(page, change.round, { round: change.round, bye: change.player }), ask: false };
    }
    case 'result': {
      if (typeof change.game !== 'string') return { page, ask: false };
      const known = page.pairings.some((p) => p.game === change.game);
      if (!known) return { page, ask: t.kind !== 'arena' };
      const winner = change.winner === 'blue' || change.winner === 'red' ? change.winner : null;
      const pairings = page.pairings.map((p) => (p.game === change.game ? { ...p, winner } : p));
      return { page: { ...page, pairings }, ask: false };
    }
    case 'standings': {
      if (!Array.isArray(change.standings)) return { page, ask: false };
      // The first page pushed: those below it are as of an older order, so they go.
      return { page: { ...page, standings: change.standings.filter(isStanding), next: page.firstNext }, ask: false };
    }
    default:
      return { page, ask: false };
  }
}

/** A `changes` frame of the shown tournament's topic: `{model, ask}` (see applyChange).
 * Another topic's (the lobby's, a tournament no longer shown): the model as it was. */
export function applyChanges(model, frame) {
  const page = model.page;
  if (!page || !frame || frame.topic !== topicOf(page.tournament.id) || !Array.isArray(frame.changes)) {
    return { model, ask: false };
  }
  let ask = false;
  let now = page;
  for (const change of frame.changes) {
    const applied = applyChange(now, change);
    now = applied.page;
    ask = ask || applied.ask;
  }
  if (now === page) return { model, ask };
  return { model: { ...model, page: now, lists: placed(model.lists, now.tournament) }, ask };
}

/** The topic a tournament's changes are pushed on. */
export const topicOf = (tid) => `tournament:${tid}`;

/** The player joined (`true`) or left (`false`) here: said so until a page says otherwise. */
export function markMine(model, tid, joined) {
  return { ...model, mine: { ...model.mine, [tid]: joined } };
}

/**
 * Whether `me` takes part in the tournament shown as `tid`: what they did here, else what
 * the page says (`you`: joined and not left), else — a server before `you` — whether the
 * standings list them not withdrawn.
 */
export function takesPart(model, tid, me) {
  if (Object.hasOwn(model.mine, tid)) return model.mine[tid];
  const page = model.page;
  if (!page || page.tournament.id !== tid || !me) return false;
  if (page.you) return page.you.joined && !page.you.left;
  return page.standings.some((row) => row.player === me && row.withdrawn !== true);
}

/** Whether a player may join now: before it starts, or an arena while it runs. */
export const joinable = (t) => Boolean(t) && (t.status === 'upcoming' || (t.status === 'running' && t.kind === 'arena'));

/** Whether leaving still means something: until it has finished. */
export const leavable = (t) => Boolean(t) && t.status !== 'finished';

/** The player's game of the pairings shown that is being played (null: none). */
export function gameOf(page, me) {
  if (!page || !me) return null;
  const found = page.pairings.find((p) => typeof p.game === 'string' && !Object.hasOwn(p, 'winner')
    && (p.blue === me || p.red === me));
  return found ? found.game : null;
}

/** How many tie-break columns the standings need (0: none came). */
export const tiebreakCount = (standings) => Math.max(0, ...standings.map(
  (row) => (Array.isArray(row.tiebreaks) ? row.tiebreaks.length : 0)));

/** The tournament a game is played in (its view's or its record's `tournament`), or null. */
export function tournamentOf(viewOrRecord) {
  const tid = viewOrRecord && viewOrRecord.tournament;
  return typeof tid === 'string' && tid ? tid : null;
}

/** A game of the pairings as the player sees it: `winner` seat, `draw`, or `playing`. */
export function pairingState(p) {
  if (typeof p.bye === 'string') return 'bye';
  if (!Object.hasOwn(p, 'winner')) return 'playing';
  return p.winner === 'blue' || p.winner === 'red' ? p.winner : 'draw';
}
