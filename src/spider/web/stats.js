// @ts-check
// Records and statistics, kept per game, suit count, rule and scoring.
//
// A deal counts as played from its first action. Winning it adds to the wins and the streak;
// leaving it unfinished for another deal ends the current streak. Best score, best time and
// fewest moves come from won games only.
//
// Several tabs may play at once: every change re-reads the stored statistics and changes only
// its own entry, so one tab's records never overwrite another's. Each entry stands alone: one
// that cannot be read is set aside (a copy kept, see storage.js) and the others stay.

import * as storage from "./storage.js";

const KEY = "stats";

/**
 * @typedef {object} Entry
 * @property {number} played
 * @property {number} won
 * @property {number} streak
 * @property {number} bestStreak
 * @property {number | null} bestScore
 * @property {number | null} bestTime
 * @property {number | null} fewestMoves
 */

/**
 * The statistics key of a game. The rule is the one the engine plays: a game state's own, or for
 * chosen options, the engine's variant of that game and suit count (`state.variants`) with the
 * rule chosen, else with the only rule it has.
 * @param {{game: string, suits: number, rule: string, scoring: string}} options
 * @param {{game: string, suits: number, rule: string}[]} [variants]
 */
export function variantKey({ game, suits, rule, scoring }, variants = []) {
  const same = variants.filter((v) => v.game === game && v.suits === suits);
  const played = same.find((v) => v.rule === rule) ?? (same.length === 1 ? same[0] : null);
  return `${game}/${suits}/${played?.rule ?? rule}/${scoring}`;
}

/** @param {string} key */
export function parseVariant(key) {
  const [game, suits, rule, scoring] = key.split("/");
  return { game, suits: Number(suits), rule, scoring };
}

/** The shape of a statistics key; which games exist is the engine's to say (`state.variants`). */
const KEY_SHAPE = /^[a-z]+\/\d+\/[a-z]+\/[a-z]+$/;

/**
 * Every variant the player can choose, in menu order: the engine's list of games
 * (`state.variants`) under each scoring. Before the engine has answered, the variants that
 * already have statistics.
 * @param {{game: string, suits: number, rule: string}[] | undefined} variants
 * @returns {string[]}
 */
export function allVariants(variants) {
  if (!variants) return Object.keys(load());
  const out = [];
  for (const scoring of ["standard", "reveal"]) {
    for (const v of variants) out.push(variantKey({ ...v, scoring }));
  }
  return out;
}

/** @returns {Entry} */
function empty() {
  return { played: 0, won: 0, streak: 0, bestStreak: 0, bestScore: null, bestTime: null, fewestMoves: null };
}

/** @param {unknown} v */
const isCount = (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 0;
/** @param {unknown} v */
const isOptional = (v) => v === null || Number.isFinite(v);

/**
 * @param {any} v
 * @returns {v is Entry}
 */
function validEntry(v) {
  return (
    !!v &&
    typeof v === "object" &&
    ["played", "won", "streak", "bestStreak"].every((k) => isCount(v[k])) &&
    ["bestScore", "bestTime", "fewestMoves"].every((k) => isOptional(v[k] ?? null)) &&
    v.won <= v.played
  );
}

/**
 * The stored entries as they are (each checked later on its own).
 * @param {any} data
 * @returns {Record<string, unknown>}
 */
function validate(data) {
  if (!data || typeof data !== "object" || typeof data.variants !== "object" || data.variants === null) {
    throw new Error("stats: bad shape");
  }
  return data.variants;
}

/**
 * Bad entries that could not be copied aside: written back as they are, never dropped.
 * @type {Record<string, unknown>}
 */
let uncopied = {};

/**
 * The stored entries, read afresh. A bad entry is set aside on its own and, once its copy is
 * safe, removed from the statistics; the others stay as they are.
 * @returns {Record<string, Entry>}
 */
function load() {
  const raw = storage.read(KEY, validate, {});
  /** @type {Record<string, Entry>} */
  const out = {};
  let dropped = false;
  uncopied = {};
  for (const [key, v] of Object.entries(raw)) {
    if (KEY_SHAPE.test(key) && validEntry(v)) out[key] = { ...empty(), ...v };
    else if (storage.setAside(`${KEY}/${key}`, JSON.stringify(v ?? null), "corrupt")) dropped = true;
    else uncopied[key] = v;
  }
  if (dropped) storage.write(KEY, { variants: { ...uncopied, ...out } });
  return out;
}

/**
 * Changes one entry: re-reads the stored statistics (another tab may have changed them), and
 * writes them back with only this entry changed. Bad entries are dropped once they are set aside.
 * @param {string} key
 * @param {(entry: Entry) => Entry | null} change null removes the entry
 */
function update(key, change) {
  const variants = load();
  const next = change(variants[key] ?? empty());
  if (next === null) delete variants[key];
  else variants[key] = next;
  storage.write(KEY, { variants: { ...uncopied, ...variants } });
}

/** @param {string} key */
export function get(key) {
  return { ...empty(), ...(load()[key] ?? {}) };
}

/** @param {string} key */
export function recordStart(key) {
  update(key, (s) => ({ ...s, played: s.played + 1 }));
}

/**
 * Records a win; returns which records it set.
 * @param {string} key
 * @param {{score: number, moves: number, time: number}} result
 */
export function recordWin(key, { score, moves, time }) {
  const s = get(key);
  const records = {
    score: s.bestScore === null || score > s.bestScore,
    time: s.bestTime === null || time < s.bestTime,
    moves: s.fewestMoves === null || moves < s.fewestMoves,
  };
  update(key, (e) => {
    const streak = e.streak + 1;
    return {
      ...e,
      won: e.won + 1,
      streak,
      bestStreak: Math.max(e.bestStreak, streak),
      bestScore: e.bestScore === null ? score : Math.max(e.bestScore, score),
      bestTime: e.bestTime === null ? time : Math.min(e.bestTime, time),
      fewestMoves: e.fewestMoves === null ? moves : Math.min(e.fewestMoves, moves),
    };
  });
  return { ...records, first: s.won === 0 };
}

/**
 * A played game was left unfinished: the streak ends.
 * @param {string} key
 */
export function recordLoss(key) {
  if (get(key).streak === 0) return;
  update(key, (s) => ({ ...s, streak: 0 }));
}

/** @param {string} key */
export function reset(key) {
  update(key, () => null);
}

/** @param {Entry} s */
export function winRate(s) {
  return s.played ? s.won / s.played : 0;
}

// Read once at start-up, so damaged entries are set aside, and told, at once.
load();
