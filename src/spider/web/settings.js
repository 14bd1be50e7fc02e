// @ts-check
// Settings: full defaults, merged with what the player chose; remembered in storage with the
// time they were last changed (`updated`, ms), so that a backup or another device's settings
// replace them only when changed later.

import { isCount, isObject } from "./checks.js";
import { LANGUAGES } from "./i18n.js";
import * as storage from "./storage.js";

export const SETTINGS_KEY = "settings";
const coarse = globalThis.matchMedia?.("(pointer: coarse)").matches ?? false;

export const LANGS = Object.keys(LANGUAGES);
export const UNDO_LIMITS = [100, 400, null];
/** The seconds "Think harder" may search (think.js), offered in Settings. */
export const THINK_SECONDS = [2, 5, 15, 30];

/** What a tap on a card does (taps.js): send it to the best column, pick it up, nothing. */
export const TAP_MODES = ["best", "pick", "off"];
export const CARD_BACKS = ["blue", "red", "green", "graphite"];
export const FELTS = ["green", "blue", "wine", "slate"];
/** How fast a replay plays (replay.js): a multiple of its normal pace. */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4];
/** Animations: as the device's "reduce motion" says, always reduced (none), or always on. */
export const MOTIONS = ["system", "reduce", "full"];

/**
 * @typedef {object} Settings
 * @property {string} lang
 * @property {boolean} highlight
 * @property {boolean} doubleClick
 * @property {import("./taps.js").TapMode} tap
 * @property {boolean} sound
 * @property {string} back
 * @property {string} felt
 * @property {boolean} leftHanded
 * @property {boolean} autoPlace
 * @property {boolean} noMoves
 * @property {"system" | "reduce" | "full"} motion
 * @property {boolean} fourColor
 * @property {boolean} largeCards
 * @property {number | null} undoLimit
 * @property {number} thinkSeconds
 * @property {number} replaySpeed
 * @property {boolean} winnableOnly
 * @property {{game: string, suits: number, rule: string, scoring: string}} options
 */

/** @returns {Settings} */
export function defaults() {
  return {
    lang: "", // "" follows the browser
    highlight: true,
    doubleClick: true,
    tap: coarse ? "best" : "off", // a tap sends cards on touch screens; a click does nothing
    sound: false, // sound effects (sound.js), off until the player turns them on
    back: "blue",
    felt: "green",
    leftHanded: false, // the stock on the left, the completed runs on the right
    autoPlace: false,
    noMoves: true, // say "No more moves" on its own when the game is blocked (H says it anyway)
    motion: "system", // animations unless the device asks for reduced motion
    fourColor: false,
    largeCards: false, // bigger corner indices, face-down cards stacked tighter (render.js)
    undoLimit: 400, // 100, 400 or null (unlimited)
    thinkSeconds: 5, // "Think harder" searches this long (THINK_SECONDS)
    replaySpeed: 1, // replays play at this multiple of their normal pace (REPLAY_SPEEDS)
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

/** @typedef {Partial<Omit<Settings, "options">> & {options?: Partial<Settings["options"]>}} Patch */

/**
 * The settings in `data`, each one checked: one of the wrong type or value is set back to its
 * default, and `repaired()` is called (storage.js then keeps the stored value aside and tells the
 * player). Settings of older versions are carried over; names this version does not know are
 * left out.
 * @param {unknown} data
 * @param {() => void} [repaired]
 * @returns {Settings}
 */
function validate(data, repaired = () => {}) {
  if (!isObject(data) || Array.isArray(data)) throw new Error("settings: not an object");
  const out = defaults();
  /** @type {Record<string, unknown>} */
  const set = out;
  // Settings saved before "tap" existed said `singleTap: true | false`.
  if (typeof data.singleTap === "boolean" && data.tap === undefined) out.tap = data.singleTap ? "best" : "off";
  // Settings saved before "motion" existed said `animations: true | false`.
  if (data.animations === false && data.motion === undefined) out.motion = "reduce";
  for (const [k, ok] of Object.entries(SHAPES)) {
    if (data[k] === undefined) continue;
    if (ok(data[k])) set[k] = data[k];
    else repaired();
  }
  if (data.options === undefined) return out;
  const options = data.options;
  if (!isObject(options)) {
    repaired();
    return out;
  }
  for (const [k, ok] of Object.entries(OPTION_SHAPES)) {
    const v = options[k];
    if (v === undefined) continue;
    if (ok(v)) /** @type {Record<string, unknown>} */ (out.options)[k] = v;
    else repaired();
  }
  return out;
}

/** @param {unknown[]} list */
const oneOf = (list) => (/** @type {unknown} */ v) => list.includes(v);
const isBoolean = (/** @type {unknown} */ v) => typeof v === "boolean";

/** @type {Record<string, (v: unknown) => boolean>} the values each setting may take */
const SHAPES = {
  highlight: isBoolean,
  doubleClick: isBoolean,
  autoPlace: isBoolean,
  noMoves: isBoolean,
  fourColor: isBoolean,
  largeCards: isBoolean,
  winnableOnly: isBoolean,
  sound: isBoolean,
  leftHanded: isBoolean,
  tap: oneOf(TAP_MODES),
  motion: oneOf(MOTIONS),
  back: oneOf(CARD_BACKS),
  felt: oneOf(FELTS),
  lang: oneOf(["", ...LANGS]),
  undoLimit: oneOf(UNDO_LIMITS),
  thinkSeconds: oneOf(THINK_SECONDS),
  replaySpeed: oneOf(REPLAY_SPEEDS),
};

// The settings' own store (persisted, stamped for sync and backups, with its own subscribers);
// the app state holds what the page is doing, the settings what the player chose.
let current = storage.read(SETTINGS_KEY, validate, null) ?? defaults();
/** @param {unknown} data */
const stampOf = (data) => (isObject(data) && isCount(data.updated) && data.updated > 0 ? data.updated : 0);
/** When the settings were last changed (ms since 1970; 0: never, or before this was kept). */
let updated = stampOf(storage.peek(SETTINGS_KEY));
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
  /** @type {Record<string, unknown>} */
  const after = current;
  const changed = Object.keys(patch).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length) updated = Math.max(Date.now(), updated + 1);
  storage.write(SETTINGS_KEY, { ...current, updated });
  if (changed.length) for (const fn of listeners) fn(current, changed);
}

/** @returns {{updated: number, values: Settings}} the settings and when they were last changed */
export function stamped() {
  return { updated, values: current };
}

/**
 * Takes the settings of a merged backup unless these were changed later (the engine's merge
 * picks settings of the same time by their values, so every device takes the same ones). The
 * values are checked as stored ones are: unknown or bad ones keep their defaults.
 * @param {{updated: number, values: Record<string, unknown>}} other
 */
export function replace(other) {
  if (other.updated < updated || JSON.stringify(validate(other.values)) === JSON.stringify(current)) return;
  /** @type {Record<string, unknown>} */
  const before = current;
  current = validate(other.values);
  updated = other.updated;
  storage.write(SETTINGS_KEY, { ...current, updated });
  /** @type {Record<string, unknown>} */
  const after = current;
  const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length) for (const fn of listeners) fn(current, changed);
}

/** @param {(settings: Settings, changed: string[]) => void} fn */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Shows the look settings on the page: table colour, card back, left-handed, four colours, large
 * cards, and whether anything moves (`reduce-motion`: app.css stops its animations; `full-motion`:
 * the player wants them even though the device asks for reduced motion).
 */
export function applyLook(s = current) {
  const root = document.documentElement;
  root.dataset.felt = s.felt;
  root.dataset.back = s.back;
  root.classList.toggle("left-handed", s.leftHanded);
  root.classList.toggle("four-color", s.fourColor);
  root.classList.toggle("large-cards", s.largeCards);
  root.classList.toggle("reduce-motion", !animate(s));
  root.classList.toggle("full-motion", s.motion === "full");
}

const reduceQuery = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");
// The device's setting may change while the page is open.
reduceQuery?.addEventListener?.("change", () => applyLook());

export function reducedMotion() {
  return reduceQuery?.matches ?? false;
}

/** Whether cards and dialogs move: the setting, else the device's "reduce motion". */
export function animate(s = current) {
  return s.motion === "full" || (s.motion === "system" && !reducedMotion());
}
