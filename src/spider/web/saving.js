// @ts-check
// The saved game: written after every action, with its whole history (the engine's `saved`), and
// shared safely between tabs.
//
// Each save carries a revision, counted across every game of every tab. A tab remembers the
// revision it last wrote or took up; before it writes, it re-reads the stored one, and when that
// is newer (another tab played since) it does not write: it takes up the newer game instead. It
// also takes it up as soon as another tab saves (the `storage` event). So a tab that is behind
// never overwrites newer progress.

import { freshMeta, newId } from "./state.js";
import * as storage from "./storage.js";

/** @typedef {import("./types.js").StoredGame} StoredGame */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./state.js").Store} Store */

export const GAME_KEY = "game";

/**
 * The stored game, checked enough to show it before the engine has read it (the engine checks
 * the rest when it loads `saved`). Older saves without a revision or a name get them.
 * @param {any} d
 * @returns {StoredGame}
 */
export function validateGame(d) {
  const okState =
    d &&
    typeof d.saved === "string" &&
    d.state &&
    Array.isArray(d.state.columns) &&
    d.state.columns.length > 0 &&
    d.state.columns.every(
      /** @param {any} c */
      (c) =>
        Number.isInteger(c.down) &&
        c.down >= 0 &&
        Array.isArray(c.up) &&
        c.up.every(/** @param {unknown} x */ (x) => typeof x === "string" && /^(A|[2-9]|10|J|Q|K)[SHDC]$/.test(x)) &&
        Array.isArray(c.dests),
    ) &&
    Array.isArray(d.state.completed) &&
    Number.isInteger(d.state.deals_left);
  if (!okState) throw new Error("saved game: bad shape");
  const updated = Number.isInteger(d.updated) && d.updated >= 0 ? d.updated : 0;
  return { saved: d.saved, state: d.state, meta: readMeta(d.meta), rev: revOf(d), id: typeof d.id === "string" ? d.id : newId(), updated };
}

/**
 * @param {any} meta
 * @returns {Meta}
 */
function readMeta(meta) {
  const m = meta && typeof meta === "object" ? meta : {};
  return {
    ...freshMeta(),
    elapsed: Number.isFinite(m.elapsed) ? m.elapsed : 0,
    started: m.started === true || m.counted === true,
    counted: m.counted === true,
    won: m.won === true,
    assisted: m.assisted === true,
    practice: m.practice === true,
  };
}

/** @param {any} d */
function revOf(d) {
  return Number.isInteger(d?.rev) && d.rev >= 0 ? d.rev : 0;
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
    this.timer = 0;
    storage.watch(GAME_KEY, () => this.#checkNewer());
  }

  /** Saves now, unless another tab saved since: then takes up its game and writes nothing. */
  save() {
    clearTimeout(this.timer);
    this.timer = 0;
    const { game, saved, meta, id, booted } = this.store.state;
    if (!game || !saved || !booted) return;
    const stored = storage.peek(GAME_KEY);
    const rev = revOf(stored);
    if (rev > this.synced) {
      this.#checkNewer();
      return;
    }
    const next = Math.max(rev, this.synced) + 1; // never back, even after a save was set aside
    /** @type {StoredGame} */
    const data = { saved, state: game, meta: { ...meta, elapsed: this.hooks.elapsed() }, rev: next, id, updated: Date.now() };
    if (storage.write(GAME_KEY, data)) this.synced = next;
  }

  /** Saves right after the coming frame is painted, so writing never delays what the player sees. */
  saveSoon() {
    if (this.timer) return;
    this.timer = -1;
    requestAnimationFrame(() => {
      if (this.timer) this.timer = window.setTimeout(() => this.save(), 0);
    });
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
