// @ts-check
// Settings: full defaults, merged with what the player chose; remembered in storage.

import * as storage from "./storage.js";

const KEY = "settings";
const coarse = globalThis.matchMedia?.("(pointer: coarse)").matches ?? false;

export const LANGS = ["en", "ca", "es", "it"];
export const UNDO_LIMITS = [100, 400, null];

export function defaults() {
  return {
    lang: "", // "" follows the browser
    highlight: true,
    doubleClick: true,
    singleTap: coarse, // on by default on touch screens, off on desktops
    autoPlace: false,
    noMoves: true, // say "No more moves" on its own when the game is blocked (H says it anyway)
    animations: true,
    fourColor: false,
    undoLimit: 400, // 100, 400 or null (unlimited)
    winnableOnly: false, // new games: only deals the solver proves winnable
    options: { game: "spider", suits: 1, rule: "classic", scoring: "standard" },
  };
}

/**
 * The shape of each game option. Which games exist is the engine's to say (`state.variants`):
 * a new game with options it does not play is refused, and the page deals the default game.
 * @type {Record<string, (v: unknown) => boolean>}
 */
const OPTION_SHAPES = {
  game: (v) => typeof v === "string" && /^[a-z]{1,20}$/.test(v),
  suits: (v) => Number.isInteger(v) && Number(v) > 0 && Number(v) <= 8,
  rule: (v) => typeof v === "string" && /^[a-z]{1,20}$/.test(v),
  scoring: (v) => typeof v === "string" && /^[a-z]{1,20}$/.test(v),
};

/** @typedef {ReturnType<typeof defaults>} Settings */
/** @typedef {Partial<Omit<Settings, "options">> & {options?: Partial<Settings["options"]>}} Patch */

/**
 * @param {any} data
 * @returns {Settings}
 */
function validate(data) {
  if (!data || typeof data !== "object") throw new Error("settings: not an object");
  const out = defaults();
  for (const k of ["highlight", "doubleClick", "singleTap", "autoPlace", "noMoves", "animations", "fourColor", "winnableOnly"]) {
    if (typeof data[k] === "boolean") /** @type {Record<string, unknown>} */ (out)[k] = data[k];
  }
  if (data.lang === "" || LANGS.includes(data.lang)) out.lang = data.lang;
  if (UNDO_LIMITS.includes(data.undoLimit)) out.undoLimit = data.undoLimit;
  if (data.options && typeof data.options === "object") {
    for (const [k, ok] of Object.entries(OPTION_SHAPES)) {
      if (ok(data.options[k])) /** @type {Record<string, unknown>} */ (out.options)[k] = data.options[k];
    }
  }
  return out;
}

let current = storage.read(KEY, validate, null) ?? defaults();
/** @type {Set<(settings: Settings, changed: string[]) => void>} */
const listeners = new Set();

export function get() {
  return current;
}

/** Merges `patch` into the settings, saves them and tells the listeners what changed. */
/** @param {Patch} patch */
export function update(patch) {
  /** @type {Record<string, unknown>} */
  const before = current;
  current = validate({ ...current, ...patch, options: { ...current.options, ...(patch.options ?? {}) } });
  storage.write(KEY, current);
  /** @type {Record<string, unknown>} */
  const after = current;
  const changed = Object.keys(patch).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length) for (const fn of listeners) fn(current, changed);
}

/** @param {(settings: Settings, changed: string[]) => void} fn */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function reducedMotion() {
  return globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

export function animate() {
  return current.animations && !reducedMotion();
}
