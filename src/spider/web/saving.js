// @ts-check
// The saved game: written as soon as the engine answers an action, with its whole history (the
// engine's `saved`) and the time it was written (`updated`, ms), and shared safely between tabs.
// Until then the action is kept in the pending-action log (pending.js), written at input time.
//
// Each save carries a revision, counted across every game of every tab. A tab remembers the
// revision it last wrote or took up; before it writes, it re-reads the stored one, and when that
// is newer (another tab played since) it does not write: it takes up the newer game instead. It
// also takes it up as soon as another tab saves (the `storage` event). So a tab that is behind
// never overwrites newer progress.

import { isCount, isObject } from "./checks.js";
import { entry, MAX_ACTIONS, readLog, replayable, writeLog } from "./pending.js";
import { freshMeta, newId } from "./state.js";
import * as storage from "./storage.js";

/** @typedef {import("./types.js").StoredGame} StoredGame */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./state.js").Store} Store */
/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./pending.js").Log} Log */

/** The requests that replace the game: no action is logged until they are answered. */
const REPLACES = new Set(["new", "open", "load"]);

export const GAME_KEY = "game";
/** Bounds of a view worth drawing before the engine has read the game (it holds 104 cards). */
const MAX_COLUMNS = 16;
const MAX_CARDS = 208;

/**
 * The stored game, checked enough to show it before the engine has read it (the engine checks
 * the rest when it loads `saved`). Older saves without a revision or a name get them.
 * @param {unknown} d
 * @returns {StoredGame}
 */
export function validateGame(d) {
  const state = isObject(d) ? d.state : undefined;
  if (
    !(
      isObject(d) &&
      typeof d.saved === "string" &&
      isObject(state) &&
      Array.isArray(state.columns) &&
      state.columns.length > 0 &&
      state.columns.length <= MAX_COLUMNS &&
      state.columns.every(
        (/** @type {unknown} */ c) =>
          isObject(c) &&
          isCount(c.down) &&
          c.down <= MAX_CARDS &&
          Array.isArray(c.up) &&
          c.up.length <= MAX_CARDS &&
          c.up.every(/** @param {unknown} x */ (x) => typeof x === "string" && /^(A|[2-9]|10|J|Q|K)[SHDC]$/.test(x)) &&
          Array.isArray(c.dests),
      ) &&
      Array.isArray(state.completed) &&
      Number.isInteger(state.deals_left)
    )
  ) {
    throw new Error("saved game: bad shape");
  }
  const updated = typeof d.updated === "number" && Number.isSafeInteger(d.updated) && d.updated > 0 ? d.updated : 0;
  const id = hasName(d) ? d.id : newId();
  // The view is checked enough to be drawn; the engine checks the rest when it loads `saved`.
  const view = /** @type {GameState} */ (/** @type {unknown} */ (state));
  return { saved: d.saved, state: view, meta: readMeta(d.meta), rev: revOf(d), id, updated };
}

/**
 * @param {unknown} meta
 * @returns {Meta}
 */
function readMeta(meta) {
  const m = isObject(meta) ? meta : {};
  return {
    ...freshMeta(),
    elapsed: typeof m.elapsed === "number" && Number.isFinite(m.elapsed) && m.elapsed >= 0 ? m.elapsed : 0,
    started: m.started === true || m.counted === true,
    counted: m.counted === true,
    won: m.won === true,
    assisted: m.assisted === true,
    practice: m.practice === true,
  };
}

/**
 * Whether a stored game carries its name (`id`); one without is named anew at each read.
 * @param {unknown} d
 * @returns {d is {id: string}}
 */
function hasName(d) {
  return isObject(d) && typeof d.id === "string" && d.id !== "";
}

/** @param {unknown} d */
function revOf(d) {
  return isObject(d) && isCount(d.rev) ? d.rev : 0;
}

/** @returns {StoredGame | null} the stored game (anything unreadable is set aside) */
export function readStored() {
  return storage.read(GAME_KEY, validateGame, null);
}

export class Saver {
  /**
   * @param {Store} store
   * @param {{elapsed: () => number, takeUp: (stored: StoredGame) => void}} hooks `elapsed()`: the
   *   game's time now; `takeUp(stored)`: load a newer game another tab saved
   */
  constructor(store, hooks) {
    this.store = store;
    this.hooks = hooks;
    /** The revision this tab last wrote or took up. */
    this.synced = 0;
    /** @type {Log | null} the actions sent and not yet answered, and the save they follow */
    this.log = null;
    /** Requests that replace the game, sent and not yet answered: no action is logged meanwhile. */
    this.replacing = 0;
    storage.watch(GAME_KEY, () => this.#checkNewer());
  }

  /**
   * A request is about to go to the engine: an action is written to the log at once. Returns
   * what the request is to the log (its reply is passed to `answered` with it, as `ctx.pending`).
   * @param {Request} req
   * @returns {Context["pending"]}
   */
  sent(req) {
    if (REPLACES.has(req.op)) {
      this.replacing += 1;
      this.#setLog(null); // what follows belongs to the game that replaces this one
      return "replace";
    }
    if (!replayable(req) || this.replacing || !this.store.state.booted) return undefined;
    const log = this.log ?? { id: this.store.state.id, rev: this.synced, actions: [] };
    if (log.actions.length >= MAX_ACTIONS) return undefined;
    this.#setLog({ ...log, actions: [...log.actions, entry(req)] });
    return "action";
  }

  /**
   * The engine answered: a successful action is saved at once (a loaded game is saved as it is
   * already, and one taken up from another tab must not echo), and leaves the log.
   * @param {Change} change
   */
  answered({ reply, req, ctx }) {
    if (!reply || !req) return;
    if (ctx?.pending === "replace") this.replacing = Math.max(0, this.replacing - 1);
    if (ctx?.pending === "action" && this.log) this.log = { ...this.log, actions: this.log.actions.slice(1) };
    if (reply.ok && req.op !== "load") this.save();
    else this.#setLog(this.log);
  }

  /** Saves now, unless another tab saved since: then takes up its game and writes nothing. */
  save() {
    const { game, saved, meta, id, booted } = this.store.state;
    if (!game || !saved || !booted) return;
    const stored = storage.peek(GAME_KEY);
    const rev = revOf(stored);
    if (rev > this.synced) {
      this.#setLog(null); // the actions followed a game that another tab has moved on from
      this.#checkNewer();
      return;
    }
    const next = Math.max(rev, this.synced) + 1; // never back, even after a save was set aside
    /** @type {StoredGame} */
    const data = { saved, state: game, meta: { ...meta, elapsed: this.hooks.elapsed() }, rev: next, id, updated: Date.now() };
    if (!storage.write(GAME_KEY, data)) return;
    this.synced = next;
    // The actions still unanswered now follow this save.
    this.#setLog(this.log && { id, rev: next, actions: this.log.actions });
  }

  /**
   * At start-up, once `stored` is loaded: plays again, through `send`, the logged actions that
   * follow it exactly (the engine refuses any that is not legal); any other log is dropped.
   * @param {StoredGame | null} stored the game loaded, or null when another game was opened
   * @param {(req: Request, ctx: Context) => Promise<Reply>} send
   */
  async replay(stored, send) {
    const log = readLog();
    const follows = log && stored && log.id === stored.id && log.rev === stored.rev && this.store.state.id === stored.id;
    if (log && follows) {
      this.log = log;
      for (const req of log.actions) await send(req, { quiet: true, boot: true, pending: "action" });
      return;
    }
    if (log && !this.log) writeLog(null); // another game's, or covered by a later save
    // A game stored without its name (written by hand or by an older version) is named each
    // time it is read: saved now under the name it has in this page, the actions logged from
    // here on follow it after a crash.
    if (stored && this.store.state.id === stored.id && !hasName(storage.peek(GAME_KEY))) this.save();
  }

  /** @param {Log | null} log */
  #setLog(log) {
    const next = log && log.actions.length ? log : null;
    if (!next && !this.log) return; // nothing of this page's: a stored log waits for `replay`
    this.log = next;
    writeLog(next);
  }

  /** Takes up the stored game when it is newer than this tab's. */
  #checkNewer() {
    const stored = storage.peek(GAME_KEY);
    if (revOf(stored) <= this.synced) return;
    let game;
    try {
      game = validateGame(stored);
    } catch {
      return; // a damaged save is set aside when a page next reads it
    }
    this.synced = game.rev;
    this.hooks.takeUp(game);
  }
}
