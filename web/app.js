/* Numbridge — the reference browser client.
 *
 * Plain JavaScript, no build step, no dependencies, no network but the page's
 * own server, or the deployed stack it is pointed at: `?server=wss://…` (the
 * stack's WebSocketURI) and, for Cognito's managed login, `?login=https://…`
 * (CognitoLoginUrl) with `&client=…` (CognitoClientId); all three are remembered. It speaks the WebSocket protocol of ../shared/PROTOCOL.md and
 * docs/protocol.md: requests carry an `id` (unique per player: a random
 * per-page prefix and a counter); every game keeps its version `v`, events are
 * applied strictly in order (early ones wait in a buffer, a gap or a reconnect
 * sends `sync` with the last `v`), `hidden` only advances `v`.
 */
(() => {
  'use strict';

  // ------------------------------------------------------------------ helpers

  const $ = (selector) => document.querySelector(selector);
  const SVG_NS = 'http://www.w3.org/2000/svg';

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'dataset') {
        for (const [k, v] of Object.entries(value)) {
          if (v !== null && v !== undefined) node.dataset[k] = String(v);
        }
      } else if (key.startsWith('on') && typeof value === 'function') {
        node.addEventListener(key.slice(2), value);
      } else node.setAttribute(key, value === true ? '' : String(value));
    }
  }

  function addChildren(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  /** Replace a node's children (null, undefined and false are left out). */
  function fill(node, ...children) {
    node.replaceChildren();
    addChildren(node, children);
  }

  /** An HTML element: h('button', {class: 'x', onclick: f}, 'text'). */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    addChildren(node, children);
    return node;
  }

  /** An SVG element. */
  function s(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    addChildren(node, children);
    return node;
  }

  function fmtClock(ms) {
    if (ms === null || ms === undefined) return '—';
    const total = Math.max(0, Math.ceil(ms / 1000));
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, '0');
    return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
  }

  function fmtDuration(ms) {
    if (ms === null || ms === undefined) return 'no limit';
    if (ms % 60000 === 0) return `${ms / 60000} min`;
    return `${Math.round(ms / 1000)} s`;
  }

  const VARIANTS = { bridge: 'Bridge', blitz: 'Blitz', domains: 'Domains' };
  const SEATS = ['blue', 'red'];
  const other = (seat) => (seat === 'blue' ? 'red' : 'blue');
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const cellText = (cell) => `(${cell[0]},${cell[1]})`;

  // ------------------------------------------------------------------- token

  const TOKEN_KEY = 'numbridge.token';
  const GAME_KEY = 'numbridge.game';
  const SERVER_KEY = 'numbridge.server';
  const LOGIN_KEY = 'numbridge.login';
  const REFRESH_KEY = 'numbridge.refresh';
  const PKCE_KEY = 'numbridge.pkce';

  /** `?name=value` remembered in localStorage (`?name=` forgets it). */
  function setting(name, key) {
    const params = new URLSearchParams(location.search);
    if (params.has(name)) {
      const value = params.get(name).trim();
      if (value) localStorage.setItem(key, value);
      else localStorage.removeItem(key);
    }
    return localStorage.getItem(key) || '';
  }

  // A deployed stack's WebSocketURI; empty: this page's own server.
  const server = setting('server', SERVER_KEY);
  // Cognito managed login: the pool's domain URL and the app client id.
  const login = { url: setting('login', LOGIN_KEY).replace(/\/+$/, ''), client: setting('client', `${LOGIN_KEY}.client`) };

  /** The player a token names: Cognito's username (ID or access token), else `sub`. */
  function playerName(claims) {
    if (!claims) return '';
    for (const key of ['cognito:username', 'username', 'sub']) {
      if (typeof claims[key] === 'string') return claims[key];
    }
    return '';
  }

  function tokenClaims(token) {
    try {
      const part = token.split('.')[1];
      const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
      const json = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '='));
      const claims = JSON.parse(json);
      return claims && typeof claims === 'object' ? claims : null;
    } catch (_) {
      return null;
    }
  }

  function initialToken() {
    const params = new URLSearchParams(location.search);
    const fromUrl = params.get('token');
    // Keep settings for reloads of this tab, but not in the address bar (history, screenshots).
    for (const name of ['token', 'server', 'login', 'client', 'code', 'state']) params.delete(name);
    const query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? `?${query}` : '') + location.hash);
    if (fromUrl) return fromUrl.trim();
    return sessionStorage.getItem(TOKEN_KEY) || localStorage.getItem(TOKEN_KEY) || '';
  }

  // ------------------------------------------------- Cognito managed login (PKCE)

  const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const redirectUri = () => location.origin + location.pathname;

  async function startManagedLogin() {
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state }));
    const query = new URLSearchParams({
      response_type: 'code', client_id: login.client, redirect_uri: redirectUri(),
      scope: 'openid email profile', state, code_challenge_method: 'S256', code_challenge: challenge,
    });
    location.assign(`${login.url}/oauth2/authorize?${query}`);
  }

  /** Tokens from Cognito's token endpoint; the ID token is the player token. */
  async function cognitoTokens(grant) {
    const response = await fetch(`${login.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: login.client, ...grant }),
    });
    if (!response.ok) throw new Error(`sign-in failed (${response.status})`);
    const tokens = await response.json();
    if (tokens.refresh_token) localStorage.setItem(REFRESH_KEY, tokens.refresh_token);
    return tokens.id_token;
  }

  /** Back from managed login with `?code=`: the player token, or '' if this is no such return. */
  async function finishManagedLogin(params) {
    const code = params.get('code');
    const pending = JSON.parse(sessionStorage.getItem(PKCE_KEY) || 'null');
    sessionStorage.removeItem(PKCE_KEY);
    if (!code || !pending || !login.url || params.get('state') !== pending.state) return '';
    return cognitoTokens({
      grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: pending.verifier,
    });
  }

  /** A fresh ID token for an expired one, when Cognito gave us a refresh token. */
  async function renewedToken() {
    const refresh = localStorage.getItem(REFRESH_KEY);
    if (!refresh || !login.url) return '';
    try {
      return await cognitoTokens({ grant_type: 'refresh_token', refresh_token: refresh });
    } catch (_) {
      localStorage.removeItem(REFRESH_KEY);
      return '';
    }
  }

  const expired = (claims, marginMs = 0) =>
    claims && typeof claims.exp === 'number' && claims.exp * 1000 < Date.now() + marginMs;

  // -------------------------------------------------------------- connection

  /** Requests that only read: dropped while offline (they are asked again on connect). */
  const QUERIES = new Set(['rooms', 'proposals', 'games', 'record', 'candidates', 'sync', 'leaderboard']);

  const conn = {
    token: '',
    me: '',
    ws: null,
    state: 'idle', // idle | connecting | open | waiting
    attempt: 0,
    everOpened: false,
    retryAt: 0,
    timer: null,
    pending: new Map(), // id -> {frame, onAnswer}
  };

  const idPrefix = Array.from(crypto.getRandomValues(new Uint8Array(5)),
    (b) => b.toString(16).padStart(2, '0')).join('');
  let idCounter = 0;
  const nextId = () => `w${idPrefix}-${(++idCounter).toString(36)}`;

  /** Send a request; `onAnswer` gets its answer (ack, error, state or data); `quiet`: errors not shown. */
  function request(action, fields, onAnswer, quiet = false) {
    const id = nextId();
    const frame = { action, id, ...(fields || {}) };
    const open = conn.ws && conn.ws.readyState === WebSocket.OPEN;
    if (!open && QUERIES.has(action)) return null;
    conn.pending.set(id, { frame, onAnswer: onAnswer || null, quiet });
    if (open) conn.ws.send(JSON.stringify(frame));
    else toast('Not connected: the request is sent when the connection is back.', 'info');
    return id;
  }

  function setToken(token) {
    conn.token = token;
    const claims = tokenClaims(token);
    conn.me = playerName(claims);
    sessionStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(TOKEN_KEY, token);
    $('#who').textContent = conn.me ? `Playing as ${conn.me}` : '';
    $('#change-token').hidden = false;
    if (expired(claims) && !localStorage.getItem(REFRESH_KEY)) {
      toast('This token has expired: get a new one with `numbridge token NAME`.', 'error');
    }
  }

  function connect() {
    clearTimeout(conn.timer);
    conn.timer = null;
    if (!conn.token) return;
    if (conn.ws) {
      const old = conn.ws;
      conn.ws = null;
      old.close(1000, 'reconnecting');
    }
    if (expired(tokenClaims(conn.token), 30000) && localStorage.getItem(REFRESH_KEY)) {
      // A Cognito token lasts an hour: renew it before the server refuses it.
      renewedToken().then((token) => {
        if (token) setToken(token);
        else localStorage.removeItem(REFRESH_KEY);
        connect();
      });
      return;
    }
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const base = server || `${scheme}//${location.host}/`;
    const url = `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(conn.token)}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (err) {
      dropped();
      return;
    }
    conn.ws = ws;
    setConn('connecting');
    ws.onopen = () => {
      if (conn.ws !== ws) return;
      conn.attempt = 0;
      conn.everOpened = true;
      setConn('open');
      opened();
    };
    ws.onmessage = (event) => {
      if (conn.ws === ws) receive(event.data);
    };
    ws.onclose = () => {
      if (conn.ws !== ws) return;
      conn.ws = null;
      dropped();
    };
  }

  function dropped() {
    for (const [id, pending] of conn.pending) {
      if (QUERIES.has(pending.frame.action)) conn.pending.delete(id);
    }
    for (const game of games.values()) game.syncing = false;
    const delay = Math.round(Math.min(15000, 500 * 2 ** conn.attempt) * (0.75 + Math.random() * 0.5));
    conn.attempt += 1;
    conn.retryAt = Date.now() + delay;
    conn.timer = setTimeout(connect, delay);
    setConn('waiting');
    if (!conn.everOpened && conn.attempt === 2) explainRefusal();
  }

  /** Never connected with this token: is the server down, or did it refuse the token? */
  function explainRefusal() {
    const token = conn.token;
    if (server) {
      // No HTTP side to ask: API Gateway only answers the socket.
      showLogin(`${server} refused this token or cannot be reached (still retrying). `
        + 'Sign in again, or paste a token for this stack.');
      return;
    }
    fetch('/web/favicon.svg', { method: 'HEAD', cache: 'no-store' }).then(
      (response) => response.ok,
      () => false,
    ).then((serverUp) => {
      if (conn.everOpened || conn.token !== token) return;
      if (serverUp) {
        // The server answers HTTP but refuses the socket: retrying will not help.
        clearTimeout(conn.timer);
        conn.timer = null;
        setConn('refused');
      }
      showLogin(serverUp
        ? 'The server refused this token (forged, expired, or from another data directory). '
          + 'Paste a token from `numbridge token NAME` for this server.'
        : 'The server does not answer: is `numbridge serve` running? (Still retrying.)');
    });
  }

  function setConn(state) {
    conn.state = state;
    const node = $('#conn');
    node.dataset.state = state;
    updateConnText();
  }

  function updateConnText() {
    const node = $('#conn');
    if (conn.state === 'open') node.textContent = 'connected';
    else if (conn.state === 'connecting') node.textContent = 'connecting…';
    else if (conn.state === 'waiting') {
      const secs = Math.max(0, Math.ceil((conn.retryAt - Date.now()) / 1000));
      const why = conn.everOpened ? 'connection lost' : 'cannot connect (server down or token refused)';
      node.textContent = `${why} — retrying in ${secs} s`;
    } else if (conn.state === 'refused') node.textContent = 'token refused';
    else node.textContent = 'not connected';
  }

  /** A (re)connection: lobby lists, then catch up every game we know. */
  function opened() {
    const unanswered = [...conn.pending.values()];
    if (!$('#login').hidden) {
      $('#login').hidden = true;
      $('#app').hidden = false;
    }
    request('rooms', {}, null);
    request('proposals', {}, null);
    request('games', {}, null);
    for (const game of games.values()) syncGame(game);
    const wanted = sessionStorage.getItem(GAME_KEY);
    if (wanted && !games.has(wanted)) openGame(wanted);
    // Changes sent but not answered: the same ids again (the server applies each once).
    for (const pending of unanswered) conn.ws.send(JSON.stringify(pending.frame));
  }

  const ANSWERS = new Set(['ack', 'error', 'rooms', 'proposal', 'proposals', 'games', 'record',
    'candidates', 'leaderboard']);

  function receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch (_) {
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    const pending = typeof frame.id === 'string' ? conn.pending.get(frame.id) : undefined;
    if (frame.type === 'state') {
      onState(frame);
    } else if (ANSWERS.has(frame.type)) {
      onAnswer(frame, pending);
    } else if (typeof frame.type === 'string' && typeof frame.game === 'string'
               && Number.isInteger(frame.v)) {
      onGameFrame(frame);
      return;
    } else if (frame.type === undefined && typeof frame.message === 'string') {
      // API Gateway's own answer (e.g. "Forbidden", "Internal server error").
      toast(`Server: ${frame.message}`, 'error');
      return;
    }
    if (pending && (frame.type === 'state' || ANSWERS.has(frame.type))) {
      conn.pending.delete(frame.id);
      if (pending.onAnswer) pending.onAnswer(frame);
    }
  }

  const ERROR_TEXT = {
    malformed: 'malformed request',
    unknown_action: 'unknown action',
    unauthorized: 'not allowed',
    not_found: 'not found',
    not_your_turn: "it is not your turn",
    illegal: 'illegal',
    game_over: 'the game is over',
    conflict: 'a concurrent change won — try again',
    rate_limited: 'too many requests — slow down',
    internal: 'server error',
  };

  function onAnswer(frame, pending) {
    switch (frame.type) {
      case 'error': {
        const action = pending ? pending.frame.action : 'request';
        if (!(pending && pending.quiet)) {
          toast(`${action}: ${ERROR_TEXT[frame.code] || frame.code} — ${frame.message}`, 'error');
        }
        break;
      }
      case 'rooms':
        lobby.rooms = Array.isArray(frame.rooms) ? frame.rooms : [];
        renderRooms();
        break;
      case 'proposals':
        lobby.proposals = Array.isArray(frame.proposals) ? frame.proposals : [];
        renderProposals();
        break;
      case 'proposal':
        if (frame.proposal) {
          lobby.proposals = lobby.proposals.filter((p) => p.id !== frame.proposal.id);
          lobby.proposals.push(frame.proposal);
          renderProposals();
        }
        break;
      case 'games':
        lobby.games = Array.isArray(frame.games) ? frame.games : [];
        renderGames();
        if (current()) renderGame();
        break;
      case 'record': {
        const game = games.get(frame.game);
        if (game) {
          game.record = frame.record;
          if (game === current()) renderRecord();
        }
        break;
      }
      case 'candidates': {
        const game = games.get(frame.game);
        if (game && selectedDigit(game) === frame.digit) {
          const size = game.view.size;
          game.candidates = {
            digit: frame.digit,
            cells: new Set((frame.cells || []).map(([r, c]) => r * size + c)),
          };
          if (game === current()) renderBoard();
        }
        break;
      }
      default:
        break;
    }
  }

  // ------------------------------------------------------------------- lobby

  const lobby = { rooms: [], proposals: [], games: [] };

  function roomById(id) {
    return lobby.rooms.find((room) => room.id === id) || null;
  }

  function roomSettings(room, variant) {
    const byVariant = room.by_variant || {};
    return byVariant[variant] || { size: room.size, clues: room.clues, take_price: room.take_price };
  }

  function renderRooms() {
    fill($('#rooms'), ...lobby.rooms.map((room) => {
      const variants = room.variants || [room.variant];
      const rows = variants.map((variant) => roomSettings(room, variant));
      const boards = [...new Set(rows.map((r) => `${r.size}×${r.size}`))].join(' or ');
      const clues = rows.length === 1 && rows[0].clues
        ? `${rows[0].clues.min}–${rows[0].clues.max} clues` : 'clues as in the variant’s room';
      const take = [...new Set(rows.map((r) => r.take_price))].join(' or ');
      return h('li', {
        class: 'room',
        dataset: { room: room.id },
        title: 'Propose a game in this room',
        onclick: () => { $('#p-room').value = room.id; fillProposeForm(); },
      },
      h('div', {},
        h('strong', {}, room.title || room.id), ' ',
        h('span', { class: 'muted small' }, variants.map((v) => VARIANTS[v] || v).join(' · ')),
        h('div', { class: 'small' }, `${boards} · ${clues} · a clue costs ${take}`),
        h('div', { class: 'small muted' },
          `${fmtDuration(room.move_ms)} per move · ${room.game_ms ? `${fmtDuration(room.game_ms)} each` : 'no game clock'}`)));
    }));
    const select = $('#p-room');
    const chosen = select.value;
    fill(select, ...lobby.rooms.map((room) => h('option', { value: room.id }, room.title || room.id)));
    if (chosen && roomById(chosen)) select.value = chosen;
    fillProposeForm();
  }

  function fillProposeForm() {
    const room = roomById($('#p-room').value);
    if (!room) return;
    const variants = room.variants || [room.variant];
    const variantSelect = $('#p-variant');
    const chosenVariant = variantSelect.value;
    fill(variantSelect, ...variants.map((v) => h('option', { value: v }, VARIANTS[v] || v)));
    if (variants.includes(chosenVariant)) variantSelect.value = chosenVariant;
    $('#p-variant-label').hidden = variants.length < 2;
    const settings = roomSettings(room, variantSelect.value || variants[0]);
    const blocks = $('#p-blocks');
    const chosenBlocks = blocks.value;
    fill(blocks, ...(room.blocks || ['regular']).map((b) => h('option', { value: b }, b)));
    if ((room.blocks || []).includes(chosenBlocks)) blocks.value = chosenBlocks;
    const clues = $('#p-clues');
    if (settings.clues) {
      clues.min = settings.clues.min;
      clues.max = settings.clues.max;
      if (clues.dataset.room !== `${room.id}/${variantSelect.value}`) clues.value = settings.clues.default;
      clues.dataset.room = `${room.id}/${variantSelect.value}`;
    }
    const highlighting = $('#p-highlighting');
    highlighting.disabled = !room.highlighting;
    if (!room.highlighting) highlighting.checked = false;
    const variant = variantSelect.value || variants[0];
    $('#p-range').textContent = [
      `${VARIANTS[variant] || variant} on ${settings.size}×${settings.size}`,
      settings.clues ? `clues ${settings.clues.min}–${settings.clues.max} (default ${settings.clues.default})` : null,
      `a clue costs ${plural(settings.take_price, 'tile')}`,
      `${fmtDuration(room.move_ms)} per move`,
      room.game_ms ? `${fmtDuration(room.game_ms)} each per game` : 'no game clock',
    ].filter(Boolean).join(' · ');
  }

  function propose(event) {
    event.preventDefault();
    const room = roomById($('#p-room').value);
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
    request('propose', fields, (answer) => {
      if (answer.type === 'proposal') toast('Proposal open: waiting for an opponent to accept it.', 'info');
    });
  }

  function renderProposals() {
    const list = $('#proposals');
    if (!lobby.proposals.length) {
      fill(list, h('li', { class: 'muted' }, 'No open proposals.'));
      return;
    }
    const sorted = [...lobby.proposals].sort((a, b) => (b.created_ms || 0) - (a.created_ms || 0));
    fill(list, ...sorted.map((p) => {
      const mine = p.by === conn.me;
      const details = [
        `${p.blocks} blocks`, `${p.clues} clues`, p.rated ? 'rated' : 'unrated',
        p.colour === 'random' ? 'random colour' : `${p.by} plays ${p.colour}`,
        p.highlighting ? 'highlighting' : 'no highlighting',
      ].join(' · ');
      const button = mine
        ? h('button', { type: 'button', class: 'withdraw', onclick: () => withdraw(p.id) }, 'Withdraw')
        : h('button', { type: 'button', class: 'accept primary', onclick: () => accept(p.id) }, 'Accept');
      return h('li', { class: `proposal${mine ? ' mine' : ''}`, dataset: { id: p.id, by: p.by } },
        h('div', {},
          h('strong', {}, mine ? 'You' : p.by), ' — ',
          `${VARIANTS[p.variant] || p.variant} in ${roomById(p.room)?.title || p.room}`,
          h('div', { class: 'muted small' }, details)),
        button);
    }));
  }

  function accept(proposalId) {
    request('accept', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        lobby.proposals = lobby.proposals.filter((p) => p.id !== proposalId);
        renderProposals();
        request('games', {}, null);
      } else request('proposals', {}, null);
    });
  }

  function withdraw(proposalId) {
    request('withdraw', { proposal: proposalId }, (answer) => {
      if (answer.type === 'ack') {
        lobby.proposals = lobby.proposals.filter((p) => p.id !== proposalId);
        renderProposals();
      }
    });
  }

  function resultText(result, players, variant, you) {
    if (!result) return '';
    const name = (seat) => (players && players[seat] ? (players[seat].name || players[seat]) : seat);
    const winner = result.winner;
    if (!winner) return 'Draw by agreement';
    const loser = other(winner);
    const who = winner === you ? 'You win' : `${name(winner)} wins`;
    const lost = loser === you ? 'You' : name(loser);
    switch (result.by) {
      case 'goal':
        if (variant === 'domains') {
          const table = result.block_table;
          const score = table ? ` (${table[winner]}–${table[loser]}, ${table.undecided} undecided)` : '';
          return `${who}: a majority of the blocks${score}`;
        }
        return `${who}: sides connected (${winner === 'blue' ? 'top ↔ bottom' : 'left ↔ right'})`;
      case 'resign':
        return `${lost} resigned — ${who.charAt(0).toLowerCase()}${who.slice(1)}`;
      case 'time':
        return `${lost} ran out of time — ${who.charAt(0).toLowerCase()}${who.slice(1)}`;
      default:
        return `${who} (${result.by})`;
    }
  }

  function renderGames() {
    const list = $('#games');
    const rows = [...lobby.games];
    for (const game of games.values()) {
      if (game.view && !rows.some((row) => row.game === game.id)) {
        rows.unshift({
          game: game.id, status: game.view.status, result: game.view.result, variant: game.view.variant,
          room: game.view.room, you: game.view.you,
          opponent: game.view.players[other(game.view.you)]?.name,
        });
      }
    }
    if (!rows.length) {
      fill(list, h('li', { class: 'muted' }, 'No games yet.'));
      return;
    }
    const order = { playing: 0, adjourned: 1, finished: 2 };
    rows.sort((a, b) => (order[a.status] - order[b.status]) || ((b.updated_ms || 0) - (a.updated_ms || 0)));
    fill(list, ...rows.map((row) => {
      const known = games.get(row.game);
      const status = known && known.view ? known.view.status : row.status;
      const result = known && known.view ? known.view.result : row.result;
      let badge = status;
      if (status === 'finished') {
        badge = !result || !result.winner ? 'draw' : result.winner === row.you ? 'won' : 'lost';
      } else if (status === 'playing' && known && known.view && known.view.turn === known.view.you) {
        badge = 'your move';
      }
      const rating = row.rating
        ? h('span', { class: 'muted small' },
          ` rating ${Math.round(row.rating.before)} → ${Math.round(row.rating.after)}`) : null;
      const isCurrent = ui.current === row.game;
      return h('li', { class: `game-row${isCurrent ? ' current' : ''}`, dataset: { game: row.game, status } },
        h('div', {},
          h('span', { class: `seat-dot ${row.you}` }), ' vs ', h('strong', {}, row.opponent || '?'),
          ` · ${VARIANTS[row.variant] || row.variant}`,
          h('div', { class: 'muted small' }, `${row.room} · `, h('span', { class: `badge ${badge.replace(' ', '-')}` }, badge), rating)),
        h('button', { type: 'button', class: 'open', onclick: () => openGame(row.game) },
          isCurrent ? 'Shown' : status === 'finished' ? 'View' : status === 'adjourned' ? 'Open' : 'Play'));
    }));
  }

  // ------------------------------------------------------------------- games

  /** gid -> {id, v, view, buffer, syncing, log, candidates, flashes, record, clockAt} */
  const games = new Map();
  const ui = { current: null, tile: null, clue: null, resignArmed: 0, showSolution: false };
  let clockOffset = null; // server epoch ms − local epoch ms

  function gameOf(gid) {
    let game = games.get(gid);
    if (!game) {
      game = {
        id: gid, v: -1, view: null, buffer: new Map(), syncing: false, asked: false,
        log: [], candidates: null, flashes: [], record: null, recordTries: 0, clockAt: 0,
      };
      games.set(gid, game);
    }
    return game;
  }

  const current = () => (ui.current ? games.get(ui.current) || null : null);

  function serverNow() {
    return Date.now() + (clockOffset || 0);
  }

  function noteServerTime(nowMs, fresh) {
    if (typeof nowMs !== 'number') return;
    const offset = nowMs - Date.now();
    // A fresh view sets the offset; an event (maybe replayed after a reconnect,
    // so older than it looks) can only show that the server is further ahead.
    if (fresh || clockOffset === null || offset > clockOffset) clockOffset = offset;
  }

  function requestState(gid) {
    const game = gameOf(gid);
    game.asked = true;
    request('sync', { game: gid }, (answer) => {
      game.asked = false;
      if (answer.type === 'error' && ui.current === gid && !game.view) {
        ui.current = null;
        sessionStorage.removeItem(GAME_KEY);
        renderGame();
      }
    });
  }

  function syncGame(game) {
    if (!game.view) {
      if (!game.asked) requestState(game.id);
      return;
    }
    if (game.syncing) return;
    game.syncing = true;
    const id = request('sync', { game: game.id, v: game.v }, (answer) => {
      game.syncing = false;
      if (answer.type === 'error' || game.buffer.size) requestState(game.id);
    });
    if (id === null) game.syncing = false;
  }

  function onState(frame) {
    const view = frame.view;
    if (!view || typeof frame.game !== 'string') return;
    const game = gameOf(frame.game);
    const isNew = !game.view;
    if (game.view && frame.v < game.v) return; // older than what we have
    game.view = view;
    game.v = frame.v;
    game.clockAt = view.now_ms;
    game.candidates = null;
    noteServerTime(view.now_ms, true);
    for (const v of [...game.buffer.keys()]) if (v <= game.v) game.buffer.delete(v);
    if (isNew) {
      game.log.push({ kind: 'joined', text: view.moves ? `(shown from move ${view.moves + 1} on)` : 'New game' });
      request('proposals', {}, null); // the accepted proposal is gone
    }
    drain(game);
    const shown = current();
    if (isNew && (ui.current === game.id || !shown || !shown.view || shown.view.status !== 'playing')) {
      showGame(game.id);
    } else if (game === shown) {
      renderGame();
    } else if (isNew && frame.v === 0) {
      const opponent = view.players[other(view.you)];
      toast(`A new game with ${opponent ? opponent.name : 'your opponent'} is dealt: open it under My games.`, 'info');
    }
    renderGames();
  }

  function onGameFrame(frame) {
    const game = gameOf(frame.game);
    if (frame.v <= game.v) return; // a repeat
    game.buffer.set(frame.v, frame);
    if (!game.view) {
      if (!game.asked) requestState(game.id);
      return;
    }
    const before = game.v;
    drain(game);
    if (game.buffer.size) syncGame(game); // a gap: ask for what is missing
    if (game.v !== before) {
      if (game === current()) renderGame();
      renderGames();
    }
  }

  function drain(game) {
    while (game.buffer.has(game.v + 1)) {
      const frame = game.buffer.get(game.v + 1);
      game.buffer.delete(game.v + 1);
      applyEvent(game, frame);
      game.v = frame.v;
      game.view.v = frame.v;
    }
    for (const v of [...game.buffer.keys()]) if (v <= game.v) game.buffer.delete(v);
  }

  const BOARD_EVENTS = new Set(['placed', 'mistake', 'taken', 'swapped']);
  const TURN_EVENTS = new Set(['placed', 'mistake', 'taken', 'exchanged', 'swapped', 'timeout', 'passed']);

  function applyEvent(game, ev) {
    const view = game.view;
    const n = view.size;
    const idx = Array.isArray(ev.cell) ? ev.cell[0] * n + ev.cell[1] : null;
    const seatName = (seat) => {
      const player = view.players && view.players[seat];
      const name = player ? player.name : seat;
      return seat === view.you ? `${name} (you)` : name;
    };
    const setAt = (text, i, ch) => text.slice(0, i) + ch + text.slice(i + 1);
    const log = (text) => {
      const number = TURN_EVENTS.has(ev.type) ? `${view.moves}. ` : '';
      game.log.push({ kind: ev.type, seat: ev.seat, text: number + text, v: ev.v });
      if (game.log.length > 400) game.log.splice(0, game.log.length - 400);
    };
    if (TURN_EVENTS.has(ev.type)) view.moves = (view.moves || 0) + 1;
    switch (ev.type) {
      case 'placed':
        view.digits = setAt(view.digits, idx, String(ev.digit));
        view.owners = setAt(view.owners, idx, ev.seat[0]);
        log(`${seatName(ev.seat)} placed ${ev.digit} at ${cellText(ev.cell)}`);
        break;
      case 'mistake':
        view.last_mistake = { seat: ev.seat, cell: ev.cell, digit: ev.digit, v: ev.v };
        if (view.players[ev.seat]) view.players[ev.seat].mistakes += 1;
        game.flashes.push({ index: idx, digit: ev.digit, seat: ev.seat, at: Date.now() });
        setTimeout(() => { if (game === current()) renderBoard(); }, FLASH_MS + 50);
        log(`${seatName(ev.seat)}: mistake — ${ev.digit} does not go at ${cellText(ev.cell)}`);
        break;
      case 'taken':
        view.owners = setAt(view.owners, idx, ev.seat[0]);
        log(`${seatName(ev.seat)} took the clue at ${cellText(ev.cell)}${
          ev.paid ? ` for ${plural(ev.paid, 'tile')}` : ' for free'}`);
        break;
      case 'exchanged':
        log(`${seatName(ev.seat)} exchanged ${plural(ev.count, 'tile')}`);
        break;
      case 'swapped':
        view.owners = setAt(view.owners, idx, ev.seat[0]);
        view.swap_available = false;
        log(`${seatName(ev.seat)} swapped (pie rule): took over ${cellText(ev.cell)}`);
        break;
      case 'timeout':
        log(`${seatName(ev.seat)} ran out of time for the move`);
        break;
      case 'passed':
        log(`${seatName(ev.seat)} passed: nothing to play`);
        break;
      case 'timeouts':
        // A long absence, folded by the server: the turns it stands for still count.
        view.moves = (view.moves || 0) + (ev.count || 0) + (ev.passes || 0);
        log(`${plural(ev.count, 'more move')} lost to the clock`);
        break;
      case 'hand': {
        const before = selectedDigit(game);
        view.hand = Array.isArray(ev.hand) ? ev.hand : [];
        if (game === current()) {
          const again = before === null ? -1 : view.hand.indexOf(before);
          ui.tile = again >= 0 ? again : null;
          game.candidates = null;
        }
        break;
      }
      case 'turn':
        view.turn = ev.turn;
        view.deadline_ms = ev.deadline_ms;
        view.now_ms = ev.now_ms;
        game.clockAt = ev.now_ms;
        noteServerTime(ev.now_ms, false);
        if (typeof ev.bag === 'number') view.bag = ev.bag;
        for (const seat of SEATS) {
          const player = view.players[seat];
          if (!player) continue;
          if (ev.hand_sizes && seat in ev.hand_sizes) player.hand_size = ev.hand_sizes[seat];
          if (ev.clock_ms && seat in ev.clock_ms) player.clock_ms = ev.clock_ms[seat];
          if (ev.mistakes && seat in ev.mistakes) player.mistakes = ev.mistakes[seat];
        }
        if ('moves_left_in_pair' in ev) view.moves_left_in_pair = ev.moves_left_in_pair;
        if ('block_table' in ev) view.block_table = ev.block_table;
        if ('swap_available' in ev) view.swap_available = Boolean(ev.swap_available) && ev.turn === view.you;
        if (view.status === 'adjourned') view.status = 'playing';
        break;
      case 'draw_offered':
        view.offers.draw = ev.seat;
        log(`${seatName(ev.seat)} offers a draw`);
        break;
      case 'draw_declined':
        view.offers.draw = null;
        log(`${seatName(ev.seat)} declined the draw`);
        break;
      case 'draw_lapsed':
        view.offers.draw = null;
        log(`The draw offer of ${seatName(ev.seat)} lapsed`);
        break;
      case 'adjourn_offered':
        view.offers.adjourn = ev.seat;
        log(`${seatName(ev.seat)} proposes to adjourn`);
        break;
      case 'adjourn_lapsed':
        view.offers.adjourn = null;
        log(`The adjournment offer of ${seatName(ev.seat)} lapsed`);
        break;
      case 'adjourned':
        view.status = 'adjourned';
        view.offers.adjourn = null;
        view.deadline_ms = null;
        view.resume_requested = [];
        for (const seat of SEATS) {
          if (ev.clock_ms && seat in ev.clock_ms && view.players[seat]) {
            view.players[seat].clock_ms = ev.clock_ms[seat];
          }
        }
        log(ev.auto
          ? 'Four moves in a row lost to the clock: the game is adjourned'
          : `${seatName(ev.seat)} accepted: the game is adjourned, clocks stopped`);
        break;
      case 'resume_requested':
        view.resume_requested = [...new Set([...(view.resume_requested || []), ev.seat])];
        log(`${seatName(ev.seat)} asks to resume`);
        break;
      case 'resumed':
        view.status = 'playing';
        view.resume_requested = [];
        log('The game is resumed');
        break;
      case 'finished':
        view.status = 'finished';
        view.result = ev.result;
        view.deadline_ms = null;
        if (ev.result && ev.result.block_table) view.block_table = ev.result.block_table;
        view.offers = { draw: null, adjourn: null };
        log(resultText(ev.result, view.players, view.variant, view.you));
        if (game === current()) toast(resultText(ev.result, view.players, view.variant, view.you), 'info');
        setTimeout(() => request('games', {}, null), 300);
        break;
      case 'hidden':
        break;
      default:
        log(`(${ev.type})`);
        break;
    }
    if (BOARD_EVENTS.has(ev.type)) {
      game.candidates = null;
      if (view.variant === 'domains') {
        // The `turn` that closes the move brings the server's table; a final move has none.
        const owners = [...blockOwners(view).values()];
        const blue = owners.filter((o) => o === 'b').length;
        const red = owners.filter((o) => o === 'r').length;
        view.block_table = { blue, red, undecided: owners.length - blue - red };
      }
      if (game === current() && ev.type !== 'mistake') {
        if (ui.clue === idx) ui.clue = null;
      }
    }
    if (view.status !== 'playing' && game === current()) {
      ui.tile = null;
      ui.clue = null;
    }
  }

  function selectedDigit(game) {
    if (!game || game !== current() || ui.tile === null || !game.view) return null;
    const hand = game.view.hand || [];
    return ui.tile < hand.length ? hand[ui.tile] : null;
  }

  function openGame(gid) {
    const game = gameOf(gid);
    showGame(gid);
    syncGame(game);
  }

  function showGame(gid) {
    if (ui.current !== gid) {
      ui.tile = null;
      ui.clue = null;
      ui.showSolution = false;
    }
    ui.current = gid;
    sessionStorage.setItem(GAME_KEY, gid);
    renderGame();
    renderGames();
  }

  /** An in-game action for the shown game. */
  function act(action, fields, after) {
    const game = current();
    if (!game) return;
    request(action, { game: game.id, ...(fields || {}) }, (answer) => {
      if (after) after(answer);
    });
  }

  // ------------------------------------------------------------------ board

  const FLASH_MS = 2600;
  const R = 30; // hex radius (centre to corner), SVG units
  const W = Math.sqrt(3) * R; // hex width (pointy top)
  const ROW = 1.5 * R; // row pitch
  // Edge i runs from corner i to corner i+1 (corner 0 at the top, clockwise);
  // the neighbour across it, as [dr, dc] (RULES.md §2's six neighbours).
  const EDGE_NEIGHBOUR = [[-1, 1], [0, 1], [1, 0], [1, -1], [0, -1], [-1, 0]];

  function centre(r, c) {
    return [W / 2 + W * (c + r / 2), R + ROW * r];
  }

  function corner(x, y, i, radius = R) {
    const angle = (Math.PI / 180) * (60 * i - 90);
    return [x + radius * Math.cos(angle), y + radius * Math.sin(angle)];
  }

  const pts = (points) => points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');

  function blockOwners(view) {
    const n = view.size;
    const counts = new Map();
    for (let i = 0; i < n * n; i++) {
      const block = view.blocks[i];
      if (!counts.has(block)) counts.set(block, { b: 0, r: 0, size: 0 });
      const count = counts.get(block);
      count.size += 1;
      if (view.owners[i] === 'b' || view.owners[i] === 'r') count[view.owners[i]] += 1;
    }
    const owners = new Map();
    for (const [block, count] of counts) {
      const majority = Math.floor(count.size / 2) + 1;
      owners.set(block, count.b >= majority ? 'b' : count.r >= majority ? 'r' : '.');
    }
    return owners;
  }

  function renderBoard() {
    const game = current();
    const holder = $('#board');
    if (!game || !game.view) {
      fill(holder);
      return;
    }
    const view = game.view;
    const n = view.size;
    const playing = view.status === 'playing' && Boolean(view.you);
    const myTurn = playing && view.turn === view.you;
    const digit = selectedDigit(game);
    const candidates = game.candidates && game.candidates.digit === digit ? game.candidates.cells : null;
    const solution = ui.showSolution && game.record ? game.record.solution : null;
    const pad = 34;
    const width = W * (n + (n - 1) / 2);
    const height = 2 * R + ROW * (n - 1);
    const svg = s('svg', {
      class: `board size-${n} ${view.variant}`,
      viewBox: `${-pad} ${-pad} ${(width + 2 * pad).toFixed(1)} ${(height + 2 * pad).toFixed(1)}`,
      role: 'img',
      'aria-label': `${VARIANTS[view.variant]} board, ${n} by ${n}`,
    });
    const cells = s('g', { class: 'cells' });
    const lines = s('g', { class: 'lines' });
    const overlay = s('g', { class: 'overlay' });
    const labels = s('g', { class: 'labels' });
    const inBoard = (r, c) => r >= 0 && c >= 0 && r < n && c < n;
    const domains = view.variant === 'domains';
    const decided = domains ? blockOwners(view) : null;
    const winnerBlocks = new Set(
      domains && view.result && view.result.winner && Array.isArray(view.result.blocks)
        ? view.result.blocks.map(String) : []);

    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const [x, y] = centre(r, c);
        const hex = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k));
        const isClue = view.clues[i] === '1';
        const owner = view.owners[i];
        const shown = view.digits[i];
        const empty = shown === '.' && !isClue;
        const classes = ['cell'];
        if (isClue) classes.push('clue');
        if (owner === 'b' || owner === 'r') classes.push(`own-${owner}`);
        if (empty) classes.push('empty');
        if (candidates && candidates.has(i)) classes.push('cand');
        if (ui.clue === i) classes.push('sel');
        if (myTurn && ((empty && digit !== null) || (isClue && owner === '.'))) classes.push('playable');
        const whose = owner === 'b' ? 'blue' : owner === 'r' ? 'red' : null;
        const title = `(${r},${c})${isClue ? ' clue' : ''}${shown !== '.' ? ` ${shown}` : ''}${
          whose ? ` — ${whose}` : ''}`;
        const group = s('g', {
          class: classes.join(' '),
          tabindex: classes.includes('playable') ? 0 : null,
          dataset: {
            index: i, r, c, digit: shown === '.' ? '' : shown, owner: owner === '.' ? '' : owner,
            clue: isClue ? '1' : '0', candidate: candidates && candidates.has(i) ? '1' : '0',
          },
        }, s('title', {}, title), s('polygon', { points: pts(hex) }));
        if (shown !== '.') {
          group.append(s('text', { class: 'digit', x: x.toFixed(2), y: (y + 1).toFixed(2) }, shown));
        } else if (solution && solution[i] && solution[i] !== '.') {
          group.append(s('text', { class: 'digit solution', x: x.toFixed(2), y: (y + 1).toFixed(2) }, solution[i]));
        }
        if (isClue) {
          // Clue marker: a small notch at the top of the cell (filled once taken).
          group.append(s('circle', { class: 'clue-mark', cx: x.toFixed(2), cy: (y - R * 0.66).toFixed(2), r: 3.2 }));
        }
        cells.append(group);

        for (let k = 0; k < 6; k++) {
          const [dr, dc] = EDGE_NEIGHBOUR[k];
          const nr = r + dr;
          const nc = c + dc;
          const [x1, y1] = hex[k];
          const [x2, y2] = hex[(k + 1) % 6];
          const seg = { x1: x1.toFixed(2), y1: y1.toFixed(2), x2: x2.toFixed(2), y2: y2.toFixed(2) };
          if (!inBoard(nr, nc)) {
            // The board's edge: Bridge/Blitz colour it by whose side it is
            // (blue: top and bottom rows; red: left and right columns).
            let side = 'edge';
            if (!domains) side = nr < 0 || nr >= n ? 'side blue' : 'side red';
            lines.append(s('line', { class: side, ...seg }));
          } else if (nr * n + nc > i && view.blocks[nr * n + nc] !== view.blocks[i]) {
            lines.append(s('line', { class: 'blockline', ...seg }));
          }
        }
        if (domains && decided.get(view.blocks[i]) !== '.') {
          // A decided block: outlined just inside its boundary in its owner's colour.
          const block = view.blocks[i];
          const inner = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k, R - 4.5));
          for (let k = 0; k < 6; k++) {
            const [dr, dc] = EDGE_NEIGHBOUR[k];
            const nr = r + dr;
            const nc = c + dc;
            if (inBoard(nr, nc) && view.blocks[nr * n + nc] === block) continue;
            const [x1, y1] = inner[k];
            const [x2, y2] = inner[(k + 1) % 6];
            overlay.append(s('line', {
              class: `outline ${decided.get(block)}${winnerBlocks.has(block) ? ' won' : ''}`,
              x1: x1.toFixed(2), y1: y1.toFixed(2), x2: x2.toFixed(2), y2: y2.toFixed(2),
            }));
          }
        }
      }
    }

    // Bridge/Blitz: the winning chain.
    if (!domains && view.result && Array.isArray(view.result.path) && view.result.path.length) {
      const path = view.result.path.map(([r, c]) => centre(r, c));
      overlay.append(s('polyline', { class: `win-path ${view.result.winner}`, points: pts(path) }));
    }

    // Mistakes: the wrong digit on red, fading out (for both players).
    const now = Date.now();
    game.flashes = game.flashes.filter((flash) => now - flash.at < FLASH_MS);
    for (const flash of game.flashes) {
      const r = Math.floor(flash.index / n);
      const c = flash.index % n;
      const [x, y] = centre(r, c);
      const mark = s('g', { class: 'flash', dataset: { index: flash.index } },
        s('polygon', { points: pts([0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k, R - 1))) }),
        s('text', { class: 'digit', x: x.toFixed(2), y: (y + 1).toFixed(2) }, String(flash.digit)));
      mark.style.animationDelay = `${-(now - flash.at)}ms`;
      overlay.append(mark);
    }

    // Coordinates: column numbers above the first row, row numbers left of the first column.
    for (let c = 0; c < n; c++) {
      const [x] = centre(0, c);
      labels.append(s('text', { class: 'label', x: x.toFixed(2), y: -17 }, String(c)));
    }
    for (let r = 0; r < n; r++) {
      const [x, y] = centre(r, 0);
      labels.append(s('text', { class: 'label', x: (x - W / 2 - 15).toFixed(2), y: y.toFixed(2) }, String(r)));
    }

    svg.append(cells, lines, overlay, labels);
    fill(holder, svg);
  }

  function onBoardClick(event) {
    const target = event.target.closest('.cell');
    const game = current();
    if (!target || !game || !game.view) return;
    const view = game.view;
    if (view.status !== 'playing' || !view.you) return;
    const i = Number(target.dataset.index);
    const n = view.size;
    const cell = [Math.floor(i / n), i % n];
    const isClue = view.clues[i] === '1';
    const myTurn = view.turn === view.you;
    if (isClue) {
      if (view.owners[i] !== '.') {
        hint('That clue is already taken.');
        return;
      }
      ui.clue = ui.clue === i ? null : i;
      renderGame();
      if (ui.clue !== null) {
        hint(myTurn ? 'Take this clue with the button below (paying with the selected tile).'
          : 'Clue selected: you can take it on your move.');
      }
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
    const cell = [Math.floor(ui.clue / n), ui.clue % n];
    const hand = view.hand || [];
    const fields = { cell };
    if (hand.length) {
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
        renderGame();
      }
    });
  }

  function selectTile(index) {
    const game = current();
    if (!game || !game.view) return;
    ui.tile = ui.tile === index ? null : index;
    game.candidates = null;
    renderGame();
    askCandidates(game);
  }

  function askCandidates(game) {
    const digit = selectedDigit(game);
    const view = game.view;
    if (digit === null || !view.options || !view.options.highlighting || view.status !== 'playing') return;
    if (game.candidates && game.candidates.digit === digit) return;
    request('candidates', { game: game.id, digit }, null, true);
  }

  // --------------------------------------------------------------- the game

  let hintTimer = null;

  function hint(text) {
    const node = $('#hint');
    node.textContent = text;
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => { node.textContent = defaultHint(); }, 4000);
  }

  function defaultHint() {
    const game = current();
    if (!game || !game.view) return '';
    const view = game.view;
    if (view.status !== 'playing' || !view.you) return '';
    if (view.turn !== view.you) return 'Waiting for the opponent’s move.';
    if (!(view.hand || []).length) return 'Empty hand: take a free clue, or exchange to draw new tiles.';
    if (selectedDigit(game) === null) return 'Select a tile, then an empty cell (or a clue to take).';
    return 'Click an empty cell to place the tile, or select a clue to take it.';
  }

  function renderGame() {
    const game = current();
    const shown = Boolean(game && game.view);
    $('#no-game').hidden = shown;
    $('#game-view').hidden = !shown;
    if (!shown) return;
    const view = game.view;
    const variant = VARIANTS[view.variant] || view.variant;
    fill($('#game-title'),
      `${variant} · ${view.size}×${view.size} · `,
      h('span', { class: 'muted' }, `${view.room} room, ${view.options.blocks} blocks, ${view.options.clues} clues${
        view.options.rated ? ', rated' : ''}`),
      h('span', { class: 'muted small gid' }, ` ${game.id} · v${game.v}`));
    renderStatus();
    renderPlayers();
    renderBoard();
    renderHand();
    renderActions();
    renderDomains();
    renderResult();
    renderLog();
    renderRecord();
    $('#hint').textContent = defaultHint();
    if (view.status === 'finished' && !game.record && game.recordTries < 4) fetchRecord(game);
    askCandidates(game);
    tick();
  }

  function secondOfPair(view) {
    return view.variant === 'domains' && view.status === 'playing' && view.moves_left_in_pair === 1
      && (view.moves || 0) > 0;
  }

  function renderStatus() {
    const game = current();
    const view = game.view;
    const node = $('#status-line');
    const name = (seat) => (view.players[seat] ? view.players[seat].name : seat);
    node.className = '';
    if (view.status === 'finished') {
      node.className = 'finished';
      fill(node, resultText(view.result, view.players, view.variant, view.you));
    } else if (view.status === 'adjourned') {
      const asked = (view.resume_requested || []).map(name);
      node.className = 'adjourned';
      fill(node, `Adjourned — play resumes when both players ask to resume${
        asked.length ? ` (asked: ${asked.join(', ')})` : ''}.`);
    } else {
      const mine = view.turn === view.you;
      node.className = `turn ${view.turn}${mine ? ' mine' : ''}`;
      fill(node,
        h('span', { class: `seat-dot ${view.turn}` }),
        mine ? 'Your move' : `${name(view.turn)} to move`,
        secondOfPair(view) ? h('span', { class: 'pair' }, ' — one more move in this pair') : null,
        ' · ', h('span', { id: 'move-clock', class: 'clock' }, ''));
    }
  }

  function renderPlayers() {
    const game = current();
    const view = game.view;
    const domains = view.variant === 'domains';
    fill($('#players'), ...SEATS.map((seat) => {
      const player = view.players[seat] || { name: seat, hand_size: 0, mistakes: 0, clock_ms: null };
      const moving = view.status === 'playing' && view.turn === seat;
      const goal = domains ? 'majority of blocks' : seat === 'blue' ? 'connects top ↔ bottom' : 'connects left ↔ right';
      return h('div', { class: `player ${seat}${moving ? ' moving' : ''}${view.you === seat ? ' you' : ''}`, dataset: { seat } },
        h('div', { class: 'player-name' },
          h('span', { class: `seat-dot ${seat}` }), h('strong', {}, player.name),
          view.you === seat ? h('span', { class: 'muted' }, ' (you)') : null,
          h('span', { class: 'clock game-clock', dataset: { seat } }, fmtClock(player.clock_ms))),
        h('div', { class: 'muted small' }, `${seat} · ${goal}`),
        h('div', { class: 'player-stats small' },
          h('span', { title: 'tiles in hand' }, `tiles ${player.hand_size}`),
          h('span', { class: player.mistakes ? 'mistakes some' : 'mistakes', title: 'mistakes' },
            `mistakes ${player.mistakes}`),
          domains && view.block_table ? h('span', {}, `blocks ${view.block_table[seat]}`) : null));
    }), h('div', { class: 'bag small muted' }, `bag: ${plural(view.bag, 'tile')}`));
  }

  function renderHand() {
    const game = current();
    const view = game.view;
    const hand = view.hand || [];
    const holder = $('#hand');
    if (!view.you) {
      fill(holder);
      return;
    }
    const playing = view.status === 'playing';
    $('#hand-row').hidden = view.status === 'finished';
    fill(holder,
      h('span', { class: 'muted small' }, 'Your tiles'),
      ...hand.map((digit, index) => h('button', {
        type: 'button',
        class: `tile${ui.tile === index ? ' selected' : ''}`,
        dataset: { digit, index },
        'aria-pressed': ui.tile === index ? 'true' : 'false',
        disabled: !playing,
        onclick: () => selectTile(index),
      }, String(digit))),
      hand.length ? null : h('span', { class: 'muted' }, ' (empty)'));
  }

  function renderActions() {
    const game = current();
    const view = game.view;
    const holder = $('#actions');
    if (!view.you) {
      fill(holder);
      return;
    }
    const me = view.you;
    const them = other(me);
    const theirName = view.players[them] ? view.players[them].name : them;
    const myTurn = view.status === 'playing' && view.turn === me;
    const button = (label, cls, onclick, enabled = true, title = null) => h('button', {
      type: 'button', class: cls, onclick, disabled: !enabled, title,
    }, label);
    const items = [];
    const offers = view.offers || {};
    if (view.status === 'playing') {
      const hand = view.hand || [];
      const price = view.options.take_price;
      const canTake = myTurn && ui.clue !== null && (hand.length === 0 || (selectedDigit(game) !== null && hand.length >= price));
      items.push(button(ui.clue !== null ? `Take clue ${cellText([Math.floor(ui.clue / view.size), ui.clue % view.size])}` : 'Take clue',
        'take', takeClue, canTake,
        hand.length ? `select a clue cell and the tile to pay with (costs ${plural(price, 'tile')})` : 'free with an empty hand'));
      items.push(button('Exchange hand', 'exchange', () => act('exchange'), myTurn && view.bag > 0,
        'put your hand into the bag and draw a new one'));
      if (view.swap_available) {
        items.push(button('Swap (pie rule)', 'swap primary', () => act('swap'), myTurn,
          'take over blue’s first cell instead of moving'));
      }
      items.push(h('span', { class: 'sep' }));
      if (offers.draw === them) {
        items.push(h('span', { class: 'offer' }, `${theirName} offers a draw:`));
        items.push(button('Accept draw', 'accept-draw primary', () => act('accept_draw')));
        items.push(button('Decline', 'decline-draw', () => act('decline_draw')));
      } else {
        items.push(button(offers.draw === me ? 'Draw offered…' : 'Offer draw', 'offer-draw',
          () => act('offer_draw'), offers.draw !== me));
      }
      if (offers.adjourn === them) {
        items.push(h('span', { class: 'offer' }, `${theirName} proposes to adjourn:`));
        items.push(button('Accept adjournment', 'accept-adjourn primary', () => act('accept_adjourn')));
      } else {
        items.push(button(offers.adjourn === me ? 'Adjournment offered…' : 'Offer adjournment', 'offer-adjourn',
          () => act('offer_adjourn'), offers.adjourn !== me));
      }
    }
    if (view.status === 'adjourned') {
      const asked = (view.resume_requested || []).includes(me);
      items.push(button(asked ? 'Waiting for the opponent to resume…' : 'Resume', 'resume primary',
        () => act('resume'), !asked));
    }
    if (view.status !== 'finished') {
      const armed = ui.resignArmed > Date.now();
      items.push(button(armed ? 'Really resign?' : 'Resign', `resign${armed ? ' armed' : ''}`, () => {
        if (ui.resignArmed > Date.now()) {
          ui.resignArmed = 0;
          act('resign');
        } else {
          ui.resignArmed = Date.now() + 4000;
          setTimeout(() => { if (current() === game) renderActions(); }, 4100);
        }
        renderActions();
      }));
    } else {
      items.push(button(game.record ? 'Reload record' : 'Show the game record', 'record-button',
        () => fetchRecord(game, true)));
    }
    fill(holder, ...items);
  }

  function renderDomains() {
    const game = current();
    const view = game.view;
    const holder = $('#domains');
    holder.hidden = view.variant !== 'domains';
    if (holder.hidden) return;
    const table = view.block_table || { blue: 0, red: 0, undecided: 0 };
    const name = (seat) => (view.players[seat] ? view.players[seat].name : seat);
    fill(holder,
      h('h3', {}, 'Blocks'),
      h('table', { class: 'block-table' },
        h('tbody', {},
          h('tr', { class: 'blue' }, h('td', {}, h('span', { class: 'seat-dot blue' }), name('blue')), h('td', { class: 'num' }, table.blue)),
          h('tr', { class: 'red' }, h('td', {}, h('span', { class: 'seat-dot red' }), name('red')), h('td', { class: 'num' }, table.red)),
          h('tr', {}, h('td', {}, 'undecided'), h('td', { class: 'num' }, table.undecided)))),
      h('p', { class: 'small muted' }, 'A block is won with 5 of its 9 cells.'),
      secondOfPair(view) ? h('p', { class: 'pair-note' }, 'One more move in this pair') : null);
  }

  function renderResult() {
    const game = current();
    const view = game.view;
    const holder = $('#result');
    holder.hidden = view.status !== 'finished';
    if (holder.hidden) return;
    const summary = lobby.games.find((row) => row.game === game.id);
    const result = view.result || {};
    const cls = !result.winner ? 'draw' : result.winner === view.you ? 'won' : 'lost';
    fill(holder,
      h('h3', {}, 'Result'),
      h('p', { class: `result ${cls}` }, resultText(result, view.players, view.variant, view.you)),
      summary && summary.rating ? h('p', { class: 'small' },
        `Your rating: ${Math.round(summary.rating.before)} → ${Math.round(summary.rating.after)}${
          summary.rating.provisional ? ' (provisional)' : ''}`) : null);
  }

  function renderLog() {
    const game = current();
    const list = $('#log');
    const entries = game.log.slice(-120);
    fill(list, ...entries.map((entry) => h('li', {
      class: `log-entry ${entry.kind}${entry.seat ? ` ${entry.seat}` : ''}`,
      dataset: { kind: entry.kind, v: entry.v },
    }, entry.text)));
    list.scrollTop = list.scrollHeight;
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

  function renderRecord() {
    const game = current();
    const holder = $('#record');
    const record = game && game.record;
    holder.hidden = !record;
    if (!record) return;
    const players = record.players || {};
    const moves = Array.isArray(record.moves) ? record.moves : [];
    const options = record.options || {};
    const label = (move) => {
      switch (move.action) {
        case 'place': return move.mistake ? 'mistake' : 'place';
        default: return move.action.replace('_', ' ');
      }
    };
    fill(holder,
      h('h3', {}, 'Game record ',
        h('label', { class: 'small' },
          h('input', {
            type: 'checkbox', id: 'show-solution', checked: ui.showSolution,
            onchange: (e) => { ui.showSolution = e.target.checked; renderBoard(); },
          }), ' show the solution on the board')),
      h('p', { class: 'small muted' },
        `${players.blue || 'blue'} (blue) vs ${players.red || 'red'} (red) · ${VARIANTS[options.variant] || options.variant}, `,
        `${options.blocks} blocks, ${options.clues} clues · mistakes ${record.mistakes ? `${record.mistakes.blue}–${record.mistakes.red}` : '?'} · `,
        resultText(record.result, { blue: { name: players.blue }, red: { name: players.red } }, options.variant, null)),
      h('table', { class: 'moves' },
        h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, 'player'), h('th', {}, 'action'),
          h('th', {}, 'cell'), h('th', { class: 'num' }, 'digit'), h('th', {}, 'paid'), h('th', { class: 'num' }, 'time'))),
        h('tbody', {}, moves.map((move, k) => h('tr', { class: `${move.seat}${move.mistake ? ' mistake' : ''}` },
          h('td', { class: 'num' }, k + 1),
          h('td', {}, h('span', { class: `seat-dot ${move.seat}` }), players[move.seat] || move.seat),
          h('td', {}, label(move)),
          h('td', {}, move.cell ? cellText(move.cell) : ''),
          h('td', { class: 'num' }, move.digit ?? ''),
          h('td', {}, (move.discarded || []).join(' ')),
          h('td', { class: 'num' }, move.time_ms ? `${(move.time_ms / 1000).toFixed(1)} s` : ''))))));
  }

  // ------------------------------------------------------------------ clocks

  function tick() {
    if (conn.state === 'waiting') updateConnText();
    const game = current();
    if (!game || !game.view) return;
    const view = game.view;
    const now = serverNow();
    const running = view.status === 'playing';
    for (const node of document.querySelectorAll('.game-clock')) {
      const seat = node.dataset.seat;
      const player = view.players[seat];
      if (!player) continue;
      let left = player.clock_ms;
      if (running && left !== null && left !== undefined && seat === view.turn) {
        left = player.clock_ms - Math.max(0, now - game.clockAt);
      }
      node.textContent = left === null || left === undefined ? 'no clock' : fmtClock(left);
      node.classList.toggle('low', left !== null && left !== undefined && left < 30000);
    }
    const moveClock = $('#move-clock');
    if (moveClock) {
      if (running && typeof view.deadline_ms === 'number') {
        const left = view.deadline_ms - now;
        moveClock.textContent = `${fmtClock(left)} for this move`;
        moveClock.classList.toggle('low', left < 10000);
      } else moveClock.textContent = '';
    }
  }

  // ------------------------------------------------------------------ toasts

  function toast(text, kind = 'info') {
    const node = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
    node.addEventListener('click', () => node.remove());
    $('#toasts').append(node);
    setTimeout(() => node.remove(), kind === 'error' ? 8000 : 5000);
    while ($('#toasts').children.length > 5) $('#toasts').firstChild.remove();
  }

  // ------------------------------------------------------------------- start

  function showLogin(problem) {
    $('#login').hidden = false;
    $('#app').hidden = true;
    const node = $('#token-problem');
    node.hidden = !problem;
    node.textContent = problem || '';
    $('#token-input').focus();
  }

  function startWith(token) {
    const claims = tokenClaims(token);
    if (!playerName(claims)) {
      showLogin('That does not look like a Numbridge token (a JWT from `numbridge token NAME`).');
      return;
    }
    if (conn.me && playerName(claims) !== conn.me) {
      // Another player: forget this one's games.
      games.clear();
      ui.current = null;
      sessionStorage.removeItem(GAME_KEY);
      lobby.games = [];
    }
    conn.pending.clear(); // nothing of another token's is sent again
    setToken(token);
    $('#login').hidden = true;
    $('#app').hidden = false;
    conn.attempt = 0;
    conn.everOpened = false;
    renderGames();
    renderProposals();
    renderGame();
    connect();
  }

  function start() {
    $('#token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = $('#token-input').value.trim();
      if (token) startWith(token);
    });
    $('#change-token').addEventListener('click', () => {
      $('#token-input').value = '';
      localStorage.removeItem(REFRESH_KEY);
      showLogin('');
    });
    $('#cognito-login').hidden = !(login.url && login.client);
    $('#cognito-button').addEventListener('click', () => {
      startManagedLogin().catch((err) => showLogin(String(err.message || err)));
    });
    $('#propose-form').addEventListener('submit', propose);
    $('#p-room').addEventListener('change', fillProposeForm);
    $('#p-variant').addEventListener('change', fillProposeForm);
    $('#refresh-proposals').addEventListener('click', () => request('proposals', {}, null));
    $('#refresh-games').addEventListener('click', () => request('games', {}, null));
    $('#board').addEventListener('click', onBoardClick);
    $('#board').addEventListener('keydown', (event) => {
      if ((event.key === 'Enter' || event.key === ' ') && event.target.closest('.cell')) {
        event.preventDefault();
        onBoardClick(event);
      }
    });
    document.addEventListener('keydown', (event) => {
      if (event.target.closest('input, textarea, select')) return;
      const game = current();
      if (!game || !game.view) return;
      if (event.key === 'Escape') {
        ui.tile = null;
        ui.clue = null;
        renderGame();
      } else if (/^[1-9]$/.test(event.key)) {
        const index = (game.view.hand || []).indexOf(Number(event.key));
        if (index >= 0) selectTile(index);
      }
    });
    window.addEventListener('online', () => { if (conn.state === 'waiting') connect(); });
    setInterval(tick, 250);
    // The lobby has no push for proposals: ask now and then while the page is seen.
    setInterval(() => {
      if (conn.state === 'open' && !document.hidden) request('proposals', {}, null);
    }, 4000);
    renderProposals();
    renderGames();
    const params = new URLSearchParams(location.search);
    const token = initialToken();
    finishManagedLogin(params).then(
      (signedIn) => {
        if (signedIn || token) startWith(signedIn || token);
        else showLogin('');
      },
      (err) => showLogin(String(err.message || err)),
    );
  }

  start();
})();
