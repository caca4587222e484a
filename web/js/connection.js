/* The WebSocket to the server: connect and reconnect, request ids, answers matched to
 * their requests, and changes sent again (same id) until the server has answered them.
 *
 * Request ids are unique per player (docs/contract.md): a random per-page prefix and a
 * counter. The server applies a repeated id at most once, so a change whose answer was
 * lost with the connection is simply sent again on the next one. Reads are not queued:
 * they are dropped while offline and asked again once connected (`onOpen`), where the
 * page also catches its games up with `sync` by version (games.js). */

/** Requests that only read: dropped while offline. */
export const QUERIES = new Set(['rooms', 'proposals', 'games', 'record', 'candidates', 'sync',
  'leaderboard', 'live', 'tournaments', 'tournament']);
/** Requests about the connection they are sent on (a subscription, a seek: each ends with
 * it): dropped while offline too, and made again on the next one by the page (club.js,
 * lobby.js), never sent again as they were. */
export const CONNECTION_BOUND = new Set(['subscribe', 'unsubscribe', 'seek', 'cancel_seek']);
const DROPPED = new Set([...QUERIES, ...CONNECTION_BOUND]);
/** Frame types that answer a request (each carries its request's id). */
export const ANSWERS = new Set(['ack', 'error', 'rooms', 'proposal', 'proposals', 'games', 'record',
  'candidates', 'leaderboard', 'live', 'lobby', 'seek', 'tournaments', 'tournament']);

const MAX_BACKOFF_MS = 15000;
/** API Gateway closes a connection that carried nothing for 10 minutes: after 9 minutes in
 * which the page sent nothing, one `ping` (a route API Gateway answers itself, with no
 * function and no reply; `numbridge serve` drops it the same way: docs/aws.md, "Idle
 * connections"). The only frame the page ever sends on a timer. */
export const KEEP_ALIVE_MS = 9 * 60 * 1000;
export const KEEP_ALIVE_FRAME = '{"action":"ping"}';

function randomPrefix() {
  return Array.from(crypto.getRandomValues(new Uint8Array(5)),
    (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Connection {
  /**
   * @param {object} hooks
   * @param {() => string} hooks.url        the endpoint, without the token
   * @param {(token: string) => Promise<string>} hooks.freshToken  a renewed token, or the same
   * @param {(frame, pending) => void} hooks.onFrame  every frame received
   * @param {() => void} hooks.onOpen       each (re)connection
   * @param {(state: string) => void} hooks.onState  idle | connecting | open | waiting | refused
   * @param {() => void} hooks.onNeverOpened  the second failed attempt with a token never accepted
   * @param {() => void} hooks.onQueued  a change kept for the next connection
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.token = '';
    this.ws = null;
    this.state = 'idle';
    this.attempt = 0;
    this.everOpened = false;
    this.retryAt = 0;
    this.timer = null;
    this.keepAlive = null;
    this.pending = new Map(); // id -> {frame, onAnswer, quiet}
    this.prefix = randomPrefix();
    this.counter = 0;
    this.generation = 0; // bumped by connect and stop: a late token renewal opens nothing stale
  }

  get isOpen() {
    return Boolean(this.ws) && this.ws.readyState === WebSocket.OPEN;
  }

  nextId() {
    this.counter += 1;
    return `w${this.prefix}-${this.counter.toString(36)}`;
  }

  /** Send a request; `onAnswer` gets its answer (ack, error, state or data). Null: not sent. */
  request(action, fields, onAnswer, quiet = false) {
    const frame = { action, id: this.nextId(), ...(fields || {}) };
    if (!this.isOpen && DROPPED.has(action)) return null;
    this.pending.set(frame.id, { frame, onAnswer: onAnswer || null, quiet });
    if (this.isOpen) this.send(JSON.stringify(frame));
    else this.hooks.onQueued();
    return frame.id;
  }

  send(text) {
    this.ws.send(text);
    this.quietFromNow();
  }

  /** The keep-alive counts from the last frame sent on the open socket. */
  quietFromNow() {
    clearTimeout(this.keepAlive);
    this.keepAlive = setTimeout(() => {
      this.keepAlive = null;
      if (this.isOpen) this.send(KEEP_ALIVE_FRAME);
    }, KEEP_ALIVE_MS);
  }

  /** Use this token from now on (nothing another token had asked is sent again). */
  use(token) {
    this.token = token;
    this.pending.clear();
    this.attempt = 0;
    this.everOpened = false;
  }

  setState(state) {
    this.state = state;
    this.hooks.onState(state);
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.token) return;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close(1000, 'reconnecting');
    }
    const token = this.token;
    this.generation += 1;
    const generation = this.generation;
    this.hooks.freshToken(token).then((fresh) => {
      // Stopped, reconnected or signed in as someone else meanwhile: not this attempt.
      if (this.generation !== generation || this.token !== token) return;
      this.token = fresh || token;
      this.open();
    });
  }

  open() {
    const base = this.hooks.url();
    const url = `${base}${base.includes('?') ? '&' : '?'}token=${encodeURIComponent(this.token)}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (_) {
      this.dropped();
      return;
    }
    this.ws = ws;
    this.setState('connecting');
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.everOpened = true;
      this.setState('open');
      this.opened();
    };
    ws.onmessage = (event) => {
      if (this.ws === ws) this.receive(event.data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearTimeout(this.keepAlive);
      this.dropped();
    };
  }

  /** Stop for good (until `connect`): no retries. */
  stop(state = 'idle') {
    this.generation += 1;
    clearTimeout(this.timer);
    clearTimeout(this.keepAlive);
    this.timer = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close(1000, 'signed out');
    }
    this.setState(state);
  }

  opened() {
    const unanswered = [...this.pending.values()];
    this.quietFromNow();
    this.hooks.onOpen();
    // Changes sent but not answered: the same ids again (the server applies each once).
    for (const pending of unanswered) this.send(JSON.stringify(pending.frame));
  }

  dropped() {
    for (const [id, pending] of this.pending) {
      if (DROPPED.has(pending.frame.action)) this.pending.delete(id);
    }
    const delay = Math.round(Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    this.timer = setTimeout(() => this.connect(), delay);
    this.setState('waiting');
    if (!this.everOpened && this.attempt === 2) this.hooks.onNeverOpened();
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch (_) {
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    const pending = typeof frame.id === 'string' ? this.pending.get(frame.id) : undefined;
    this.hooks.onFrame(frame, pending);
    if (pending && (frame.type === 'state' || ANSWERS.has(frame.type))) {
      this.pending.delete(frame.id);
      if (pending.onAnswer) pending.onAnswer(frame);
    }
  }
}
