/* The club as the lobby shows it, kept from pushed frames (PROTOCOL.md, "Additions 3"):
 * the `lobby` page a subscription answers with, then each `changes` frame applied to it;
 * the challenges to this player and those they sent (listed by the page, then pushed or
 * answered one by one); and which of the player's games are in play,
 * whose move each is and which to open. Pure: no page, no clock, no socket — the frames
 * in, a new model out (the old one is never changed), so that node tests drive it. */

/** The lobby before any page came: nothing known (`online` null: not said). */
export function emptyClub() {
  return { proposals: [], seeks: {}, live: [], online: null, challenges: [], sent: [] };
}

const isProposal = (p) => Boolean(p) && typeof p === 'object' && typeof p.id === 'string';
const isLive = (g) => Boolean(g) && typeof g === 'object' && typeof g.game === 'string';

const isChallenge = (p) => isProposal(p) && typeof p.to === 'string';

/** A subscription's answer (`{"type": "lobby", …}`): the page replaces what was kept.
 * Its `challenges` (to the player) and `challenged` (sent by them) replace those kept
 * too: a challenge made while the player was away is listed, one declined, withdrawn,
 * accepted or lapsed meanwhile is gone. A page without them (a server before they were
 * listed) leaves the challenges kept as they were. */
export function fromPage(club, frame) {
  const seeks = {};
  for (const [room, count] of Object.entries(frame.seeks || {})) {
    if (Number.isInteger(count) && count >= 0) seeks[room] = count;
  }
  return {
    ...club,
    proposals: (Array.isArray(frame.proposals) ? frame.proposals : []).filter(isProposal),
    seeks,
    live: (Array.isArray(frame.live) ? frame.live : []).filter(isLive),
    online: Number.isInteger(frame.online) ? frame.online : null,
    challenges: Array.isArray(frame.challenges) ? frame.challenges.filter(isChallenge) : club.challenges,
    sent: Array.isArray(frame.challenged) ? frame.challenged.filter(isChallenge) : club.sent,
  };
}

/** One CHANGE applied; a change of a kind this client does not know leaves the club as it was. */
export function applyChange(club, change) {
  if (!change || typeof change !== 'object') return club;
  switch (change.kind) {
    case 'proposal_added': {
      if (!isProposal(change.proposal)) return club;
      // Added twice (a change that raced the page): the later copy replaces the first.
      const rest = club.proposals.filter((p) => p.id !== change.proposal.id);
      return { ...club, proposals: [...rest, change.proposal] };
    }
    case 'proposal_removed':
      return { ...club, proposals: club.proposals.filter((p) => p.id !== change.proposal) };
    case 'live_added': {
      if (!isLive(change.game)) return club;
      const rest = club.live.filter((g) => g.game !== change.game.game);
      return { ...club, live: [...rest, change.game] };
    }
    case 'live_removed':
      return { ...club, live: club.live.filter((g) => g.game !== change.game) };
    case 'seeks': {
      if (typeof change.room !== 'string' || !Number.isInteger(change.waiting)) return club;
      return { ...club, seeks: { ...club.seeks, [change.room]: Math.max(0, change.waiting) } };
    }
    case 'online':
      return Number.isInteger(change.players) ? { ...club, online: change.players } : club;
    default:
      return club;
  }
}

/** A `changes` frame of the lobby topic: its changes in order. Another topic's: unchanged. */
export function applyChanges(club, frame) {
  if (!frame || frame.topic !== 'lobby' || !Array.isArray(frame.changes)) return club;
  return frame.changes.reduce(applyChange, club);
}

/** A pushed `challenge`: kept until it is accepted, declined or withdrawn. */
export function addChallenge(club, proposal) {
  if (!isProposal(proposal)) return club;
  return { ...club, challenges: [...club.challenges.filter((p) => p.id !== proposal.id), proposal] };
}

/** A challenge to the player answered (accepted, declined), or one they sent that ended
 * (declined, withdrawn): no longer listed. */
export function dropChallenge(club, pid) {
  return {
    ...club, challenges: club.challenges.filter((p) => p.id !== pid), sent: club.sent.filter((p) => p.id !== pid),
  };
}

/** A challenge this player sent (the `proposal` answer, with `to`): listed until it ends. */
export function addSent(club, proposal) {
  if (!isChallenge(proposal)) return club;
  return { ...club, sent: [...club.sent.filter((p) => p.id !== proposal.id), proposal] };
}

/** Players waiting in `room` (0 when none, or not said). */
export const waitingIn = (club, room) => club.seeks[room] || 0;

const SEATS = ['blue', 'red'];

/**
 * The player's games in play, from the `games` rows (their `turn`, `you`, `deadline_ms`)
 * and, where the page holds a game's view, from the view (newer than any row).
 * Each: {game, you, turn, mine, deadline_ms, opponent, room, variant, updated_ms};
 * those at the player's move first, the nearest deadline first; then the most recent.
 */
export function gamesInPlay(rows, views) {
  const byGame = new Map();
  for (const row of rows || []) {
    if (!row || typeof row.game !== 'string' || row.status !== 'playing') continue;
    if (!SEATS.includes(row.you)) continue;
    byGame.set(row.game, {
      game: row.game, you: row.you, turn: SEATS.includes(row.turn) ? row.turn : null,
      deadline_ms: typeof row.deadline_ms === 'number' ? row.deadline_ms : null,
      opponent: row.opponent || null, room: row.room || null, variant: row.variant || null,
      updated_ms: row.updated_ms || 0,
    });
  }
  for (const [gid, view] of views || []) {
    if (!view || !SEATS.includes(view.you)) continue;
    if (view.status !== 'playing') {
      byGame.delete(gid);
      continue;
    }
    const known = byGame.get(gid) || { updated_ms: 0 };
    const them = view.players && view.players[view.you === 'blue' ? 'red' : 'blue'];
    byGame.set(gid, {
      ...known, game: gid, you: view.you, turn: view.turn,
      deadline_ms: typeof view.deadline_ms === 'number' ? view.deadline_ms : null,
      opponent: them ? them.name : known.opponent || null,
      room: view.room, variant: view.variant,
    });
  }
  const games = [...byGame.values()].map((g) => ({ ...g, mine: g.turn !== null && g.turn === g.you }));
  const far = Number.MAX_SAFE_INTEGER;
  return games.sort((a, b) => (Number(b.mine) - Number(a.mine))
    || (a.mine ? (a.deadline_ms ?? far) - (b.deadline_ms ?? far) : (b.updated_ms - a.updated_ms))
    || a.game.localeCompare(b.game));
}

/** The game to open where the player signs in: the one at their move whose deadline
 * comes first, else the most recent game in play; null when none is in play. */
export function gameToOpen(rows, views) {
  const games = gamesInPlay(rows, views);
  return games.length ? games[0].game : null;
}

/**
 * Whether the lobby is on screen, so subscribed: no game shown, or one shown that is
 * over or adjourned (the club comes back beside it). A game in play — the player's or
 * one watched — takes the screen, and the club costs it nothing meanwhile.
 */
export function lobbyShown(view) {
  return !view || view.status !== 'playing';
}
