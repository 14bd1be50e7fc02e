// @ts-check
// The app state: one plain object, and one function, `apply`, that applies an engine reply to
// it. Everything else (the table, the controls, saving, statistics, announcements, the no-moves
// check, hints, the demo) subscribes to its changes. The store holds no rule: what the game is,
// what may move and whether it is won all come from the engine's `state`.

/** @typedef {import("./types.js").AppState} AppState */
/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").StoredGame} StoredGame */

/** The requests that play: the first of them starts a game (its clock and its statistics). */
const PLAYS = new Set(["move", "auto", "deal"]);

/** @returns {Meta} */
export function freshMeta() {
  return { elapsed: 0, started: false, counted: false, won: false, assisted: false, practice: false };
}

/**
 * Whether leaving this game for another asks the player first: a move was made and it is not
 * won. (The page also leaves without asking once it has said "No more moves".)
 * @param {import("./types.js").GameState | null} game
 * @param {Meta} meta
 */
export function inProgress(game, meta) {
  return game !== null && meta.started && !game.won && game.moves > 0;
}

/** A name for a new game, unique across tabs. */
export function newId() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** @returns {AppState} */
function initial() {
  return { game: null, saved: null, meta: freshMeta(), id: newId(), engine: "loading", booted: false, demo: false, noMoves: false };
}

/** @typedef {(change: Change) => void} Listener */

export class Store {
  constructor() {
    /** @type {AppState} */
    this.state = initial();
    /** @type {Set<Listener>} */
    this.listeners = new Set();
  }

  /**
   * Calls `fn` after every change, in the order of subscription; returns the unsubscribe.
   * @param {Listener} fn
   */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Changes fields of the state that no reply carries (engine status, demo, bookkeeping).
   * @param {Partial<AppState>} patch
   */
  set(patch) {
    const prev = this.state;
    this.state = { ...prev, ...patch };
    this.#emit({ state: this.state, prev });
  }

  /**
   * Takes up a stored game (at start-up, or a newer one saved by another tab) before its `load`
   * reply is applied: its bookkeeping and its name come with it.
   * @param {StoredGame} stored
   */
  adopt(stored) {
    this.state = { ...this.state, game: stored.state, saved: stored.saved, meta: stored.meta, id: stored.id };
  }

  /**
   * Shows a game that the engine has not answered yet (the server's deal, at start-up).
   * @param {import("./types.js").GameState} game
   * @param {string} saved
   */
  preview(game, saved) {
    this.state = { ...this.state, game, saved };
  }

  /** Drops the game on the table (one the engine refused), so that nothing counts it. */
  forget() {
    this.state = { ...this.state, game: null, saved: null, meta: freshMeta() };
  }

  /**
   * Applies the engine's `reply` to request `req`. A refusal only refreshes the view; a success
   * replaces the game, and `new`/`open` start fresh bookkeeping (the change names the game they
   * abandoned). The first play starts the game; it counts in the statistics only when the engine
   * says the game began at its deal's first layout. A success drops the "no more moves" verdict:
   * it was for the position before.
   * @param {Reply} reply
   * @param {Request} req
   * @param {Context} [ctx]
   */
  apply(reply, req, ctx = {}) {
    const prev = this.state;
    if (!reply.ok) {
      this.state = reply.state ? { ...prev, game: reply.state } : prev;
      this.#emit({ state: this.state, prev, reply, req, ctx });
      return;
    }
    let { meta, id } = prev;
    /** @type {Change["abandoned"]} */
    let abandoned = null;
    if (req.op === "new" || req.op === "open") {
      if (prev.game) abandoned = { game: prev.game, meta: prev.meta };
      // A practice game (opened from a review) is never counted, even at a deal's first layout.
      meta = { ...freshMeta(), practice: ctx.practice === true };
      id = newId();
    }
    const game = /** @type {import("./types.js").GameState} */ (reply.state);
    const started = PLAYS.has(req.op) && !meta.started;
    if (started) meta = { ...meta, started: true, counted: game.from_deal_start === true && !meta.practice };
    const won = game.won && !meta.won && meta.started;
    if (won) meta = { ...meta, won: true };
    this.state = { ...prev, game, saved: reply.saved ?? prev.saved, meta, id, noMoves: false };
    this.#emit({ state: this.state, prev, reply, req, ctx, started, won, abandoned });
  }

  /** @param {Change} change */
  #emit(change) {
    for (const fn of this.listeners) fn(change);
  }
}
