/* The club (the lobby): quick pairing, the bot, challenges, open proposals, live games
 * and the players online — kept from what the server pushes while the club is shown
 * (club-model.js; the subscription itself is club.js's) — then my games, a custom
 * proposal and the rooms. Nothing here asks again on a timer. */

import {
  addChallenge, addSent, applyChanges, dropChallenge, emptyClub, fromPage, waitingIn,
} from './club-model.js';
import { $, fill, h, toast } from './dom.js';
import {
  GRADES, blocksName, fmtDuration, gradeName, other, roomName, seatName, variantName, variantsBeside,
} from './format.js';
import { fmtMoment, fmtOr, t } from './i18n.js';

// A room that does not list its block layouts has the regular ones only.
const DEFAULT_BLOCKS = ['regular'];

/** A room's range of grades in words; null when it deals any grade. */
function gradesText(grades) {
  if (!Array.isArray(grades) || grades.length !== 2) return null;
  return grades[0] === grades[1] ? t('proposals.grade', { reading: gradeName(grades[0]) })
    : t('room.grades', { min: gradeName(grades[0]), max: gradeName(grades[1]) });
}

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
    this.club = emptyClub(); // proposals, seeks, live games, online, challenges to me and sent
    this.subscribed = false; // subscribed to `lobby` on this connection (club.js)
    this.pushless = false; // the server knows no `subscribe`: the lists asked once per showing
    this.seek = null; // the player's seek: {room, variant, id?} (no id: not answered yet)
    this.offered = null; // a proposal's id from a link (?proposal=PID), to accept
    this.games = [];
    this.gamesNext = null; // the `next` cursor of the last page of `games` shown
    this.gamesPages = 0;
  }

  get proposals() {
    return this.club.proposals;
  }

  get live() {
    return this.club.live;
  }

  reset() {
    this.club = emptyClub();
    this.subscribed = false;
    this.seek = null;
    this.games = [];
    this.gamesNext = null;
    this.gamesPages = 0;
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
    $('#refresh-games').addEventListener('click', () => this.page.request('games', {}, null));
    $('#challenge-form').addEventListener('submit', (event) => this.challenge(event));
    $('#cancel-seek').addEventListener('click', () => this.cancelSeek());
  }

  /** On every connection: the rooms and my games (the club's lists come with the
   * subscription, club.js); a seek ended with the old connection, so it is made again. */
  askAll() {
    this.page.request('rooms', {}, null);
    this.page.request('games', {}, null);
    if (this.seek) this.startSeek(this.seek.room, this.seek.variant);
  }

  /** A server without subscriptions: the lists once (the club shows them as of then). */
  askOnce() {
    this.page.request('proposals', {}, null, true);
    this.page.request('live', {}, null, true);
  }

  /** A lobby answer (`pending`: the request it answers); true if it was one. */
  onAnswer(frame, pending) {
    switch (frame.type) {
      case 'rooms':
        this.rooms = Array.isArray(frame.rooms) ? frame.rooms : [];
        this.renderRooms();
        return true;
      case 'lobby':
        this.club = fromPage(this.club, frame);
        this.renderClub();
        return true;
      case 'proposals':
        this.club = fromPage(this.club, { ...this.club, proposals: frame.proposals });
        this.renderClub();
        return true;
      case 'proposal':
        if (frame.proposal && frame.proposal.to) {
          // A challenge sent: it is listed for its sender only (nobody else sees it).
          this.club = addSent(this.club, frame.proposal);
          this.renderChallenges();
        } else if (frame.proposal) {
          this.club = applyChanges(this.club, {
            topic: 'lobby', changes: [{ kind: 'proposal_added', proposal: frame.proposal }],
          });
          this.renderProposals();
        }
        return true;
      case 'seek':
        if (frame.seek && typeof frame.seek.id === 'string' && this.seek) {
          this.seek = { ...this.seek, id: frame.seek.id };
          this.renderQuick();
        }
        return true;
      case 'games':
        this.onGames(frame, pending);
        return true;
      case 'live':
        this.club = fromPage(this.club, { ...this.club, live: frame.games });
        this.renderClub();
        return true;
      default:
        return false;
    }
  }

  /** A pushed frame of the club's (no request asked for it); true if it was one. */
  onPush(frame) {
    switch (frame.type) {
      case 'changes':
        this.club = applyChanges(this.club, frame);
        this.renderClub();
        return true;
      case 'challenge':
        if (!frame.proposal || typeof frame.proposal.id !== 'string') return true;
        this.club = addChallenge(this.club, frame.proposal);
        toast(t('challenge.received', { name: frame.proposal.by, room: this.roomTitle(frame.proposal.room) }), 'info');
        this.renderChallenges();
        return true;
      case 'declined': {
        const sent = this.club.sent.find((p) => p.id === frame.proposal);
        this.club = dropChallenge(this.club, frame.proposal);
        // Sent from another tab or device, it is not known here by name.
        toast(sent ? t('challenge.declined', { name: sent.to }) : t('challenge.declined_unnamed'), 'info');
        this.renderChallenges();
        return true;
      }
      default:
        return false;
    }
  }

  /** A game of mine was dealt: the seek is over. Dealt some other way (a proposal, a
   * challenge), the seek is cancelled, or it would deal a second game; the seek that
   * dealt it answers `not_found`, said to nobody. */
  dealt() {
    if (this.seek && this.seek.id) this.page.request('cancel_seek', { seek: this.seek.id }, null, true);
    this.seek = null;
    this.renderQuick();
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
    if (!further && this.page.gamesCame) this.page.gamesCame();
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
    this.renderClub();
    this.renderGames();
  }

  /** What the subscription keeps: quick pairing's counts, challenges, proposals, live games, online. */
  renderClub() {
    this.renderQuick();
    this.renderChallenges();
    this.renderOffered();
    this.renderProposals();
    this.renderLive();
    const online = this.club.online;
    $('#online').textContent = online === null ? '' : t('club.online', { count: online });
  }

  // ------------------------------------------------------------------- rooms

  roomById(id) {
    return this.rooms.find((room) => room.id === id) || null;
  }

  /** The name of the room `id`, in words (its title from `rooms` if it came). */
  roomTitle(id) {
    return roomName(id, this.roomById(id)?.title);
  }

  static settings(room, variant) {
    const byVariant = room.by_variant || {};
    return byVariant[variant] || { size: room.size, clues: room.clues, take_price: room.take_price };
  }

  renderRooms() {
    fill($('#rooms'), ...this.rooms.map((room) => {
      const variants = room.variants || [room.variant];
      const rows = variants.map((variant) => Lobby.settings(room, variant));
      const boards = fmtOr([...new Set(rows.map((r) => `${r.size}×${r.size}`))]);
      const clues = rows.length === 1 && rows[0].clues
        ? t('room.clues', { min: rows[0].clues.min, max: rows[0].clues.max }) : t('room.clues_by_variant');
      const prices = [...new Set(rows.map((r) => r.take_price))];
      const take = t('room.take_price', { price: fmtOr(prices.map((count) => t('player.tiles', { count }))) });
      return h('li', {
        class: 'room',
        dataset: { room: room.id },
        title: t('room.propose_title'),
        onclick: () => { $('#p-room').value = room.id; this.fillProposeForm(); },
      },
      h('div', {},
        h('strong', {}, roomName(room.id, room.title)), ' ',
        h('span', { class: 'muted small' },
          variantsBeside(roomName(room.id, room.title), variants.map(variantName)).join(' · ')),
        h('div', { class: 'small' }, [boards, clues, take, gradesText(room.grades)].filter(Boolean).join(' · ')),
        h('div', { class: 'small muted' }, [
          t('room.per_move', { time: fmtDuration(room.move_ms) }),
          room.game_ms ? t('room.per_game', { time: fmtDuration(room.game_ms) }) : t('room.no_game_clock'),
        ].join(' · '))));
    }));
    const select = $('#p-room');
    const chosen = select.value;
    fill(select, ...this.rooms.map((room) => h('option', { value: room.id }, roomName(room.id, room.title))));
    if (chosen && this.roomById(chosen)) select.value = chosen;
    this.fillProposeForm();
    const botRoom = $('#b-room');
    const botChosen = botRoom.value;
    fill(botRoom, ...this.rooms.map((room) => h('option', { value: room.id }, roomName(room.id, room.title))));
    if (botChosen && this.roomById(botChosen)) botRoom.value = botChosen;
    this.fillForm('b');
    const challengeRoom = $('#c-room');
    const challengeChosen = challengeRoom.value;
    fill(challengeRoom, ...this.quickChoices().map((choice) => h('option', { value: choice.key }, choice.label)));
    if (challengeChosen) challengeRoom.value = challengeChosen;
    this.renderQuick();
  }

  // ----------------------------------------------------------- quick pairing

  /** One choice per room and variant (a room of several variants: one for each), named
   * as a player says it: "Bridge · 45 sec", "Blitz · 30 sec". */
  quickChoices() {
    return this.rooms.flatMap((room) => {
      const variants = room.variants || [room.variant];
      const time = fmtDuration(room.move_ms);
      return variants.map((variant) => ({
        key: variants.length > 1 ? `${room.id}/${variant}` : room.id,
        room: room.id,
        variant: variants.length > 1 ? variant : null,
        label: variants.length > 1
          ? t('quick.choice_variant', { room: roomName(room.id, room.title), variant: variantName(variant), time })
          : t('quick.choice', { room: roomName(room.id, room.title), time }),
      }));
    });
  }

  renderQuick() {
    const seeking = this.seek;
    fill($('#quick'), ...this.quickChoices().map((choice) => {
      const waiting = waitingIn(this.club, choice.room);
      const mine = Boolean(seeking) && seeking.room === choice.room && (seeking.variant || null) === choice.variant;
      return h('button', {
        type: 'button', class: 'quick', dataset: { room: choice.room, variant: choice.variant },
        'aria-pressed': mine ? 'true' : 'false',
        onclick: () => (mine ? this.cancelSeek() : this.startSeek(choice.room, choice.variant)),
      }, choice.label, h('span', { class: 'muted small' },
        waiting ? t('quick.waiting', { count: waiting }) : t('quick.nobody')));
    }));
    $('#seeking').hidden = !seeking;
    if (seeking) {
      const choice = this.quickChoices().find((c) => c.room === seeking.room && c.variant === (seeking.variant || null));
      $('#seeking-text').textContent = t('quick.seeking', { choice: choice ? choice.label : this.roomTitle(seeking.room) });
    }
  }

  /** Quick pairing: a game in the room now, with whoever else seeks in it; its state opens it. */
  startSeek(room, variant) {
    const fields = { room };
    if (variant) fields.variant = variant;
    this.seek = { room, variant: variant || null };
    this.renderQuick();
    const id = this.page.request('seek', fields, (answer) => {
      if (answer.type === 'error' && this.seek && !this.seek.id) {
        this.seek = null;
        this.renderQuick();
      }
    });
    if (id === null) {
      this.seek = null;
      this.renderQuick();
    }
  }

  cancelSeek() {
    const seek = this.seek;
    this.seek = null;
    this.renderQuick();
    if (seek && seek.id) this.page.request('cancel_seek', { seek: seek.id }, null, true);
  }

  // -------------------------------------------------------------- challenges

  /** "A game with Bob": a private proposal only Bob sees; the room's default options. */
  challenge(event) {
    event.preventDefault();
    const name = $('#c-name').value.trim();
    const choice = this.quickChoices().find((c) => c.key === $('#c-room').value);
    if (!name) return;
    if (!choice) {
      toast(t('form.no_room'), 'error');
      return;
    }
    const fields = { room: choice.room, to: name };
    if (choice.variant) fields.variant = choice.variant;
    this.page.request('propose', fields, (answer) => {
      if (answer.type === 'proposal') {
        toast(t('challenge.sent', { name }), 'info');
        $('#c-name').value = '';
      }
    });
  }

  renderChallenges() {
    const rows = [];
    for (const p of this.club.challenges) {
      rows.push(h('li', { class: 'challenge incoming', dataset: { id: p.id, by: p.by } },
        h('div', {},
          h('strong', {}, t('challenge.from', { name: p.by })), ' — ', this.proposalTitle(p),
          h('div', { class: 'muted small' }, this.proposalDetails(p))),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'accept primary', onclick: () => this.acceptChallenge(p.id) },
            t('proposals.accept')),
          h('button', { type: 'button', class: 'decline', onclick: () => this.declineChallenge(p.id) },
            t('challenge.decline')))));
    }
    for (const p of this.club.sent) {
      rows.push(h('li', { class: 'challenge sent', dataset: { id: p.id, to: p.to } },
        h('div', {},
          t('challenge.waiting', { name: p.to }), ' — ', this.proposalTitle(p),
          h('div', { class: 'muted small' }, this.proposalDetails(p))),
        h('button', { type: 'button', class: 'withdraw', onclick: () => this.withdraw(p.id) }, t('proposals.withdraw'))));
    }
    fill($('#challenges'), ...rows);
  }

  acceptChallenge(pid) {
    this.club = dropChallenge(this.club, pid);
    this.renderChallenges();
    this.accept(pid);
  }

  declineChallenge(pid) {
    this.club = dropChallenge(this.club, pid);
    this.renderChallenges();
    this.page.request('decline', { proposal: pid }, null);
  }

  // ------------------------------------------------------- a link's proposal

  /** `?proposal=PID` in the page's address: that proposal, offered to accept once the club is shown. */
  offer(pid) {
    this.offered = pid;
    this.renderOffered();
  }

  renderOffered() {
    const pid = this.offered;
    $('#offered-card').hidden = !pid;
    if (!pid) return;
    const known = this.club.proposals.find((p) => p.id === pid);
    fill($('#offered'),
      h('p', {}, known
        ? t('link.known', { name: known.by, game: this.proposalTitle(known) })
        : t('link.unknown')),
      known ? h('p', { class: 'muted small' }, this.proposalDetails(known)) : null,
      h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'accept primary', id: 'accept-offered',
          onclick: () => { this.offered = null; this.renderOffered(); this.accept(pid); },
        }, t('proposals.accept')),
        h('button', {
          type: 'button', class: 'dismiss', onclick: () => { this.offered = null; this.renderOffered(); },
        }, t('link.dismiss'))));
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
    fill(blocks, ...(room.blocks || DEFAULT_BLOCKS).map((b) => h('option', { value: b }, blocksName(b))));
    if ((room.blocks || []).includes(chosenBlocks)) blocks.value = chosenBlocks;
    const clues = $f('clues');
    if (settings.clues) {
      clues.min = settings.clues.min;
      clues.max = settings.clues.max;
      if (clues.dataset.room !== `${room.id}/${variant}`) clues.value = settings.clues.default;
      clues.dataset.room = `${room.id}/${variant}`;
    }
    const grade = $f('grade');
    if (grade) {  // the proposal form only: a grade of the room's range, or any of them
      const range = Array.isArray(room.grades) ? room.grades : null;
      const offered = range ? GRADES.slice(GRADES.indexOf(range[0]), GRADES.indexOf(range[1]) + 1) : [];
      const chosenGrade = grade.value;
      fill(grade, h('option', { value: '' }, t('form.grade_any')),
        ...offered.map((g) => h('option', { value: g }, gradeName(g))));
      grade.value = offered.includes(chosenGrade) ? chosenGrade : '';
      $f('grade-label').hidden = offered.length === 0;
    }
    const highlighting = $f('highlighting');
    highlighting.disabled = !room.highlighting;
    if (!room.highlighting) highlighting.checked = false;
    $f('range').textContent = [
      t('form.variant_on', { variant: variantName(variant), size: `${settings.size}×${settings.size}` }),
      settings.clues ? t('form.clues_range', {
        min: settings.clues.min, max: settings.clues.max, default: settings.clues.default,
      }) : null,
      t('form.take_price', { count: settings.take_price }),
      t('room.per_move', { time: fmtDuration(room.move_ms) }),
      room.game_ms ? t('room.per_game', { time: fmtDuration(room.game_ms) }) : t('room.no_game_clock'),
    ].filter(Boolean).join(' · ');
  }

  propose(event) {
    event.preventDefault();
    const room = this.roomById($('#p-room').value);
    if (!room) {
      toast(t('form.no_room'), 'error');
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
    // Only where the room offers a choice: a server that knows no grade never sees one.
    if (Array.isArray(room.grades) && $('#p-grade').value) fields.grade = $('#p-grade').value;
    if (!Number.isInteger(fields.clues)) {
      toast(t('form.clues_whole'), 'error');
      return;
    }
    this.page.request('propose', fields, (answer) => {
      if (answer.type === 'proposal') toast(t('form.proposal_open'), 'info');
    });
  }

  /** Play the bot: `propose` with `bot` deals at once (docs/bot.md); its `state` opens the game. */
  playBot(event) {
    event.preventDefault();
    const room = this.roomById($('#b-room').value);
    if (!room) {
      toast(t('form.no_room'), 'error');
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
      toast(t('form.clues_whole'), 'error');
      return;
    }
    const button = $('#play-bot');
    button.disabled = true;
    if (this.page.expectBot) this.page.expectBot(true);
    this.page.request('propose', fields, (answer) => {
      button.disabled = false;
      if (answer.type === 'ack') toast(t('form.dealing_bot', { level: t(`bot.${fields.bot}`) }), 'info');
      else if (this.page.expectBot) this.page.expectBot(false);
    });
  }

  // --------------------------------------------------------------- proposals

  renderProposals() {
    const list = $('#proposals');
    if (!this.proposals.length) {
      fill(list, h('li', { class: 'muted' }, t('proposals.none')));
      return;
    }
    const me = this.page.me();
    const sorted = [...this.proposals].sort((a, b) => (b.created_ms || 0) - (a.created_ms || 0));
    fill(list, ...sorted.map((p) => {
      const mine = p.by === me;
      const action = mine
        ? h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'copy-link', title: t('proposals.link_title'), onclick: () => this.copyLink(p.id) },
            t('proposals.link')),
          h('button', { type: 'button', class: 'withdraw', onclick: () => this.withdraw(p.id) }, t('proposals.withdraw')))
        : h('button', { type: 'button', class: 'accept primary', onclick: () => this.accept(p.id) }, t('proposals.accept'));
      return h('li', { class: `proposal${mine ? ' mine' : ''}`, dataset: { id: p.id, by: p.by } },
        h('div', {},
          h('strong', {}, mine ? t('proposals.you') : p.by), ' — ', this.proposalTitle(p),
          h('div', { class: 'muted small' }, this.proposalDetails(p))),
        action);
    }));
  }

  proposalTitle(p) {
    return t('proposals.game_in', { variant: variantName(p.variant), room: this.roomTitle(p.room) });
  }

  /** The grade a proposal asked for, else the range its room deals (none: any grade). */
  gradeText(p) {
    if (p.grade) return t('proposals.grade', { reading: gradeName(p.grade) });
    return gradesText(this.roomById(p.room)?.grades);
  }

  proposalDetails(p) {
    return [
      p.blocks ? blocksName(p.blocks) : null,
      Number.isInteger(p.clues) ? t('proposals.clues', { count: p.clues }) : null,
      this.gradeText(p),
      p.rated ? t('proposals.rated') : t('proposals.unrated'),
      !p.colour || p.colour === 'random' ? t('proposals.random_colour')
        : t('proposals.plays', { name: p.by, colour: seatName(p.colour) }),
      p.highlighting ? t('proposals.highlighting') : t('proposals.no_highlighting'),
    ].filter(Boolean).join(' · ');
  }

  /** A link to this proposal, to send to someone (whoever opens it may accept it). */
  copyLink(pid) {
    // The page's own address (`/` on the local server, `/web/` where web/ is served as files).
    const link = `${location.origin}${location.pathname}?proposal=${encodeURIComponent(pid)}`;
    const said = () => toast(t('proposals.link_copied', { link }), 'info');
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(said, said);
    else said();
  }

  accept(proposalId) {
    this.page.request('accept', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        this.club = applyChanges(this.club, {
          topic: 'lobby', changes: [{ kind: 'proposal_removed', proposal: proposalId, why: 'accepted' }],
        });
        this.renderProposals();
        this.page.request('games', {}, null);
      }
    });
  }

  withdraw(proposalId) {
    this.page.request('withdraw', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        this.club = applyChanges(this.club, {
          topic: 'lobby', changes: [{ kind: 'proposal_removed', proposal: proposalId, why: 'withdrawn' }],
        });
        this.club = dropChallenge(this.club, proposalId);
        this.renderProposals();
        this.renderChallenges();
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
      fill(list, h('li', { class: 'muted' }, t('games.none')));
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
        badge = 'your-move';
      }
      const rating = row.rating
        ? h('span', { class: 'muted small' },
          ` ${t('games.rating', { before: Math.round(row.rating.before), after: Math.round(row.rating.after) })}`) : null;
      const when = status === 'finished' && row.updated_ms
        ? h('span', { class: 'muted small when' }, ` · ${fmtMoment(row.updated_ms)}`) : null;
      const isCurrent = shown === row.game;
      return h('li', { class: `game-row${isCurrent ? ' current' : ''}`, dataset: { game: row.game, status } },
        h('div', {},
          h('span', { class: `seat-dot ${row.you}` }), ` ${t('games.versus')} `, h('strong', {}, row.opponent || '?'),
          ` · ${variantName(row.variant)}`,
          h('div', { class: 'muted small' }, `${this.roomTitle(row.room)} · `,
            h('span', { class: `badge ${badge}` }, t(`games.badge.${badge}`)), rating, when)),
        h('button', { type: 'button', class: 'open', onclick: () => this.page.open(row.game) },
          isCurrent ? t('games.shown') : status === 'finished' ? t('games.replay')
            : status === 'adjourned' ? t('games.open') : t('games.play')));
    }));
  }

  // --------------------------------------------------------------- live games

  renderLive() {
    const list = $('#live');
    const me = this.page.me();
    const rows = this.live.filter((row) => row && typeof row.game === 'string');
    if (!rows.length) {
      fill(list, h('li', { class: 'muted' }, t('live.none')));
      return;
    }
    const shown = this.page.current();
    fill(list, ...rows.map((row) => {
      const players = row.players || {};
      const mine = players.blue === me || players.red === me;
      const isCurrent = shown === row.game;
      return h('li', { class: `live-game${isCurrent ? ' current' : ''}`, dataset: { game: row.game } },
        h('div', {},
          h('span', { class: 'seat-dot blue' }), h('strong', {}, players.blue || '?'), ` ${t('games.versus')} `,
          h('span', { class: 'seat-dot red' }), h('strong', {}, players.red || '?'),
          h('div', { class: 'muted small' },
            `${variantName(row.variant)} · ${this.roomTitle(row.room)}`,
            typeof row.watchers === 'number' ? ` · ${t('live.watchers', { count: row.watchers })}` : '',
            row.grade ? ` · ${t('game.grade', { reading: gradeName(row.grade) })}` : '')),
        h('button', {
          type: 'button', class: 'watch',
          onclick: () => (mine ? this.page.open(row.game) : this.page.watch(row.game)),
        }, isCurrent ? t('games.shown') : mine ? t('games.play') : t('live.watch')));
    }));
  }
}
