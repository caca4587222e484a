/* The lobby column: rooms, the proposal form, open proposals, my games, and live games
 * to watch (shown only once the server answers `live`: older servers do not). */

import { $, fill, h, toast } from './dom.js';
import { fmtDuration, other, plural, variantName } from './format.js';

export class Lobby {
  /**
   * @param {object} page
   * @param {(action, fields, onAnswer, quiet) => string|null} page.request
   * @param {() => string} page.me             the signed-in player
   * @param {() => Map} page.games             games.js entries by id
   * @param {() => string|null} page.current   the game shown
   * @param {(gid: string) => void} page.open   show (and catch up) a game of mine
   * @param {(gid: string) => void} page.watch  watch a live game
   */
  constructor(page) {
    this.page = page;
    this.rooms = [];
    this.proposals = [];
    this.games = [];
    this.gamesNext = null; // the `next` cursor of the last page of `games` shown
    this.gamesPages = 0;
    this.live = null; // null: the server has not said it lists live games
  }

  reset() {
    this.proposals = [];
    this.games = [];
    this.gamesNext = null;
    this.gamesPages = 0;
    this.live = null;
    this.render();
  }

  attach() {
    $('#propose-form').addEventListener('submit', (event) => this.propose(event));
    $('#bot-form').addEventListener('submit', (event) => this.playBot(event));
    for (const prefix of ['p', 'b']) {
      $(`#${prefix}-room`).addEventListener('change', () => this.fillForm(prefix));
      $(`#${prefix}-variant`).addEventListener('change', () => this.fillForm(prefix));
    }
    $('#more-games').addEventListener('click', () => this.moreGames());
    $('#refresh-proposals').addEventListener('click', () => this.page.request('proposals', {}, null));
    $('#refresh-games').addEventListener('click', () => this.page.request('games', {}, null));
    $('#refresh-live').addEventListener('click', () => this.askLive());
  }

  /** On every connection: the lists again. */
  askAll() {
    this.page.request('rooms', {}, null);
    this.page.request('proposals', {}, null);
    this.page.request('games', {}, null);
    this.askLive();
  }

  askLive() {
    // Quiet: a server without spectators answers `unknown_action`, and the card stays hidden.
    this.page.request('live', {}, null, true);
  }

  /** A lobby answer (`pending`: the request it answers); true if it was one. */
  onAnswer(frame, pending) {
    switch (frame.type) {
      case 'rooms':
        this.rooms = Array.isArray(frame.rooms) ? frame.rooms : [];
        this.renderRooms();
        return true;
      case 'proposals':
        this.proposals = Array.isArray(frame.proposals) ? frame.proposals : [];
        this.renderProposals();
        return true;
      case 'proposal':
        if (frame.proposal) {
          this.proposals = this.proposals.filter((p) => p.id !== frame.proposal.id);
          this.proposals.push(frame.proposal);
          this.renderProposals();
        }
        return true;
      case 'games':
        this.onGames(frame, pending);
        return true;
      case 'live':
        this.live = Array.isArray(frame.games) ? frame.games : [];
        this.renderLive();
        return true;
      default:
        return false;
    }
  }

  /**
   * A page of `games` (newest first). The first page replaces what it holds; rows of
   * further pages already shown stay (and so does the cursor past them), so that the
   * refreshes after each game do not fold the archive back to one page.
   */
  onGames(frame, pending) {
    const rows = Array.isArray(frame.games) ? frame.games.filter((row) => row && typeof row.game === 'string') : [];
    const next = typeof frame.next === 'string' ? frame.next : null;
    const further = Boolean(pending && pending.frame && pending.frame.after);
    if (further) {
      const known = new Set(this.games.map((row) => row.game));
      this.games = [...this.games, ...rows.filter((row) => !known.has(row.game))];
      this.gamesNext = next;
      this.gamesPages += 1;
    } else if (this.gamesPages > 1) {
      const fresh = new Set(rows.map((row) => row.game));
      this.games = [...rows, ...this.games.filter((row) => !fresh.has(row.game))];
    } else {
      this.games = rows;
      this.gamesNext = next;
      this.gamesPages = 1;
    }
    this.renderGames();
  }

  moreGames() {
    if (!this.gamesNext) return;
    const button = $('#more-games');
    button.disabled = true;
    this.page.request('games', { after: this.gamesNext }, () => { button.disabled = false; });
  }

  summary(gid) {
    return this.games.find((row) => row.game === gid) || null;
  }

  render() {
    this.renderRooms();
    this.renderProposals();
    this.renderGames();
    this.renderLive();
  }

  // ------------------------------------------------------------------- rooms

  roomById(id) {
    return this.rooms.find((room) => room.id === id) || null;
  }

  static settings(room, variant) {
    const byVariant = room.by_variant || {};
    return byVariant[variant] || { size: room.size, clues: room.clues, take_price: room.take_price };
  }

  renderRooms() {
    fill($('#rooms'), ...this.rooms.map((room) => {
      const variants = room.variants || [room.variant];
      const rows = variants.map((variant) => Lobby.settings(room, variant));
      const boards = [...new Set(rows.map((r) => `${r.size}×${r.size}`))].join(' or ');
      const clues = rows.length === 1 && rows[0].clues
        ? `${rows[0].clues.min}–${rows[0].clues.max} clues` : 'clues as in the variant’s room';
      const take = [...new Set(rows.map((r) => r.take_price))].join(' or ');
      return h('li', {
        class: 'room',
        dataset: { room: room.id },
        title: 'Propose a game in this room',
        onclick: () => { $('#p-room').value = room.id; this.fillProposeForm(); },
      },
      h('div', {},
        h('strong', {}, room.title || room.id), ' ',
        h('span', { class: 'muted small' }, variants.map(variantName).join(' · ')),
        h('div', { class: 'small' }, `${boards} · ${clues} · a clue costs ${take}`),
        h('div', { class: 'small muted' },
          `${fmtDuration(room.move_ms)} per move · ${room.game_ms ? `${fmtDuration(room.game_ms)} each` : 'no game clock'}`)));
    }));
    const select = $('#p-room');
    const chosen = select.value;
    fill(select, ...this.rooms.map((room) => h('option', { value: room.id }, room.title || room.id)));
    if (chosen && this.roomById(chosen)) select.value = chosen;
    this.fillProposeForm();
    const botRoom = $('#b-room');
    const botChosen = botRoom.value;
    fill(botRoom, ...this.rooms.map((room) => h('option', { value: room.id }, room.title || room.id)));
    if (botChosen && this.roomById(botChosen)) botRoom.value = botChosen;
    this.fillForm('b');
  }

  fillProposeForm() {
    this.fillForm('p');
  }

  /** The proposal form (`p`) or the bot form (`b`) for the room chosen in it. */
  fillForm(prefix) {
    const $f = (name) => $(`#${prefix}-${name}`);
    const room = this.roomById($f('room').value);
    if (!room) return;
    const variants = room.variants || [room.variant];
    const variantSelect = $f('variant');
    const chosenVariant = variantSelect.value;
    fill(variantSelect, ...variants.map((v) => h('option', { value: v }, variantName(v))));
    if (variants.includes(chosenVariant)) variantSelect.value = chosenVariant;
    $f('variant-label').hidden = variants.length < 2;
    const variant = variantSelect.value || variants[0];
    const settings = Lobby.settings(room, variant);
    const blocks = $f('blocks');
    const chosenBlocks = blocks.value;
    fill(blocks, ...(room.blocks || ['regular']).map((b) => h('option', { value: b }, b)));
    if ((room.blocks || []).includes(chosenBlocks)) blocks.value = chosenBlocks;
    const clues = $f('clues');
    if (settings.clues) {
      clues.min = settings.clues.min;
      clues.max = settings.clues.max;
      if (clues.dataset.room !== `${room.id}/${variant}`) clues.value = settings.clues.default;
      clues.dataset.room = `${room.id}/${variant}`;
    }
    const highlighting = $f('highlighting');
    highlighting.disabled = !room.highlighting;
    if (!room.highlighting) highlighting.checked = false;
    $f('range').textContent = [
      `${variantName(variant)} on ${settings.size}×${settings.size}`,
      settings.clues ? `clues ${settings.clues.min}–${settings.clues.max} (default ${settings.clues.default})` : null,
      `a clue costs ${plural(settings.take_price, 'tile')}`,
      `${fmtDuration(room.move_ms)} per move`,
      room.game_ms ? `${fmtDuration(room.game_ms)} each per game` : 'no game clock',
    ].filter(Boolean).join(' · ');
  }

  propose(event) {
    event.preventDefault();
    const room = this.roomById($('#p-room').value);
    if (!room) {
      toast('No room chosen (not connected yet?)', 'error');
      return;
    }
    const fields = {
      room: room.id,
      blocks: $('#p-blocks').value,
      clues: Number($('#p-clues').value),
      colour: $('#p-colour').value,
      rated: $('#p-rated').checked,
      highlighting: $('#p-highlighting').checked,
    };
    if ((room.variants || []).length > 1) fields.variant = $('#p-variant').value;
    if (!Number.isInteger(fields.clues)) {
      toast('Clues must be a whole number', 'error');
      return;
    }
    this.page.request('propose', fields, (answer) => {
      if (answer.type === 'proposal') toast('Proposal open: waiting for an opponent to accept it.', 'info');
    });
  }

  /** Play the bot: `propose` with `bot` deals at once (docs/bot.md); its `state` opens the game. */
  playBot(event) {
    event.preventDefault();
    const room = this.roomById($('#b-room').value);
    if (!room) {
      toast('No room chosen (not connected yet?)', 'error');
      return;
    }
    const fields = {
      room: room.id,
      bot: $('#b-level').value,
      blocks: $('#b-blocks').value,
      clues: Number($('#b-clues').value),
      colour: $('#b-colour').value,
      rated: false,
      highlighting: $('#b-highlighting').checked,
    };
    if ((room.variants || []).length > 1) fields.variant = $('#b-variant').value;
    if (!Number.isInteger(fields.clues)) {
      toast('Clues must be a whole number', 'error');
      return;
    }
    const button = $('#play-bot');
    button.disabled = true;
    if (this.page.expectBot) this.page.expectBot(true);
    this.page.request('propose', fields, (answer) => {
      button.disabled = false;
      if (answer.type === 'ack') toast(`Dealing a game against the ${fields.bot} bot…`, 'info');
      else if (this.page.expectBot) this.page.expectBot(false);
    });
  }

  // --------------------------------------------------------------- proposals

  renderProposals() {
    const list = $('#proposals');
    if (!this.proposals.length) {
      fill(list, h('li', { class: 'muted' }, 'No open proposals.'));
      return;
    }
    const me = this.page.me();
    const sorted = [...this.proposals].sort((a, b) => (b.created_ms || 0) - (a.created_ms || 0));
    fill(list, ...sorted.map((p) => {
      const mine = p.by === me;
      const details = [
        `${p.blocks} blocks`, `${p.clues} clues`, p.rated ? 'rated' : 'unrated',
        p.colour === 'random' ? 'random colour' : `${p.by} plays ${p.colour}`,
        p.highlighting ? 'highlighting' : 'no highlighting',
      ].join(' · ');
      const action = mine
        ? h('button', { type: 'button', class: 'withdraw', onclick: () => this.withdraw(p.id) }, 'Withdraw')
        : h('button', { type: 'button', class: 'accept primary', onclick: () => this.accept(p.id) }, 'Accept');
      return h('li', { class: `proposal${mine ? ' mine' : ''}`, dataset: { id: p.id, by: p.by } },
        h('div', {},
          h('strong', {}, mine ? 'You' : p.by), ' — ',
          `${variantName(p.variant)} in ${this.roomById(p.room)?.title || p.room}`,
          h('div', { class: 'muted small' }, details)),
        action);
    }));
  }

  accept(proposalId) {
    this.page.request('accept', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        this.proposals = this.proposals.filter((p) => p.id !== proposalId);
        this.renderProposals();
        this.page.request('games', {}, null);
      } else this.page.request('proposals', {}, null);
    });
  }

  withdraw(proposalId) {
    this.page.request('withdraw', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        this.proposals = this.proposals.filter((p) => p.id !== proposalId);
        this.renderProposals();
      }
    });
  }

  // ---------------------------------------------------------------- my games

  renderGames() {
    const list = $('#games');
    const rows = [...this.games];
    for (const game of this.page.games().values()) {
      const view = game.view;
      if (view && view.you && !rows.some((row) => row.game === game.id)) {
        rows.unshift({
          game: game.id, status: view.status, result: view.result, variant: view.variant,
          room: view.room, you: view.you, opponent: view.players[other(view.you)]?.name,
        });
      }
    }
    $('#more-games').hidden = !this.gamesNext;
    if (!rows.length) {
      fill(list, h('li', { class: 'muted' }, 'No games yet.'));
      return;
    }
    const order = { playing: 0, adjourned: 1, finished: 2 };
    rows.sort((a, b) => (order[a.status] - order[b.status]) || ((b.updated_ms || 0) - (a.updated_ms || 0)));
    const shown = this.page.current();
    fill(list, ...rows.map((row) => {
      const known = this.page.games().get(row.game);
      const view = known && known.view;
      const status = view ? view.status : row.status;
      const result = view ? view.result : row.result;
      let badge = status;
      if (status === 'finished') {
        if (result && result.by === 'aborted') badge = 'aborted';
        else badge = !result || !result.winner ? 'draw' : result.winner === row.you ? 'won' : 'lost';
      } else if (status === 'playing' && view && view.turn === view.you) {
        badge = 'your move';
      }
      const rating = row.rating
        ? h('span', { class: 'muted small' },
          ` rating ${Math.round(row.rating.before)} → ${Math.round(row.rating.after)}`) : null;
      const isCurrent = shown === row.game;
      return h('li', { class: `game-row${isCurrent ? ' current' : ''}`, dataset: { game: row.game, status } },
        h('div', {},
          h('span', { class: `seat-dot ${row.you}` }), ' vs ', h('strong', {}, row.opponent || '?'),
          ` · ${variantName(row.variant)}`,
          h('div', { class: 'muted small' }, `${row.room} · `, h('span', { class: `badge ${badge.replace(' ', '-')}` }, badge), rating)),
        h('button', { type: 'button', class: 'open', onclick: () => this.page.open(row.game) },
          isCurrent ? 'Shown' : status === 'finished' ? 'Replay' : status === 'adjourned' ? 'Open' : 'Play'));
    }));
  }

  // --------------------------------------------------------------- live games

  renderLive() {
    const card = $('#live-card');
    card.hidden = this.live === null;
    if (card.hidden) return;
    const list = $('#live');
    const me = this.page.me();
    const rows = this.live.filter((row) => row && typeof row.game === 'string');
    if (!rows.length) {
      fill(list, h('li', { class: 'muted' }, 'No games in progress.'));
      return;
    }
    const shown = this.page.current();
    fill(list, ...rows.map((row) => {
      const players = row.players || {};
      const mine = players.blue === me || players.red === me;
      const isCurrent = shown === row.game;
      return h('li', { class: `live-game${isCurrent ? ' current' : ''}`, dataset: { game: row.game } },
        h('div', {},
          h('span', { class: 'seat-dot blue' }), h('strong', {}, players.blue || '?'), ' vs ',
          h('span', { class: 'seat-dot red' }), h('strong', {}, players.red || '?'),
          h('div', { class: 'muted small' },
            `${variantName(row.variant)} · ${row.room}`,
            typeof row.watchers === 'number' ? ` · ${plural(row.watchers, 'watcher')}` : '')),
        h('button', {
          type: 'button', class: 'watch',
          onclick: () => (mine ? this.page.open(row.game) : this.page.watch(row.game)),
        }, isCurrent ? 'Shown' : mine ? 'Play' : 'Watch'));
    }));
  }
}
