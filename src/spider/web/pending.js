// @ts-check
// The actions not yet in the saved game: written to local storage (key "pending") at input time,
// before the request goes to the engine, so that an action made just before the page closes (a
// tab closed, a phone switching apps) is not lost while the engine's answer and the save are on
// their way.
//
// The log names the saved game it follows: its `id` and its revision `rev` (saving.js). Each save
// moves the log onto the revision it wrote, minus the actions that save holds; at start-up the
// actions of a log that follows the loaded game exactly are played again through the engine,
// which refuses anything illegal. A log that follows another game or revision (a later save
// covered it, another tab saved since) is dropped; one that cannot be read is set aside.

import { isCount, isObject } from "./checks.js";
import * as storage from "./storage.js";

/** @typedef {import("./types.js").Request} Request */
/** @typedef {{id: string, rev: number, actions: Request[]}} Log */

export const PENDING_KEY = "pending";
/** The actions that change the game and play the same again from the same game. */
const REPLAYABLE = new Set(["move", "auto", "deal", "undo", "redo", "restart"]);
/** More actions than this waiting for the engine: the engine is not answering; keep no more. */
const MAX_ACTIONS = 500;

/**
 * An action of the log as it is sent again: only the fields its op takes, each a count.
 * @param {unknown} a
 * @returns {Request}
 */
function action(a) {
  if (!isObject(a) || typeof a.op !== "string" || !REPLAYABLE.has(a.op)) throw new Error("pending: bad action");
  /** @type {Request} */
  const out = { op: a.op };
  for (const k of ["src", "dst", "count"]) {
    const v = a[k];
    if (v === undefined) continue;
    if (!isCount(v)) throw new Error("pending: bad field");
    out[k] = v;
  }
  return out;
}

/**
 * @param {unknown} d
 * @returns {Log}
 */
function validate(d) {
  if (!isObject(d) || typeof d.id !== "string" || !isCount(d.rev) || !Array.isArray(d.actions)) {
    throw new Error("pending: bad shape");
  }
  if (d.actions.length > MAX_ACTIONS) throw new Error("pending: too long");
  return { id: d.id, rev: d.rev, actions: d.actions.map(action) };
}

/** Whether request `req` is kept in the log (it changes the game and replays as it is). */
export function replayable(/** @type {Request} */ req) {
  return REPLAYABLE.has(req.op);
}

/** @returns {Log | null} the stored log (one that cannot be read is set aside) */
export function readLog() {
  return storage.read(PENDING_KEY, validate, null);
}

/**
 * Writes the log now (an empty one is removed).
 * @param {Log | null} log
 */
export function writeLog(log) {
  if (!log || !log.actions.length) storage.remove(PENDING_KEY);
  else storage.write(PENDING_KEY, log);
}

/**
 * A copy of the request with only what the log keeps.
 * @param {Request} req
 * @returns {Request}
 */
export function entry(req) {
  return action(req);
}

export { MAX_ACTIONS };
