// @ts-check
// Records and statistics, kept per game, suit count, rule and scoring.
//
// A deal counts as played from its first action. Winning it adds to the wins and the streak;
// leaving it unfinished for another deal (or letting the solver finish it) is a loss and ends
// the current streak. Best score, best time and fewest moves come from won games only, and so do
// the averages: each entry sums the time and moves of the wins it has seen (`timedWins` of
// them; statistics kept before these sums existed have none, and their averages are unknown).
//
// Beside the entries: the last RECENT results of every game in the order played (`recent`, for
// the chart of "All games"; each entry keeps its own last RECENT too), and the streak across
// every game (`all`; unknown in statistics kept before it existed, until the next result).
//
// Several tabs may play at once: every change re-reads the stored statistics and changes only
// its own entry, so one tab's records never overwrite another's. Each entry, the list of recent
// results and the streak across games stand alone: one that cannot be read is set aside (a copy
// kept, see storage.js) and the others stay.
//
// Statistics are kept per device (docs/backup.md): this device's slot under "stats", with a
// revision `rev` counted up on every change and the time `at` (ms) of the last result on each
// entry and on the streak across games; the slots of other devices (from a restored backup or
// from sync) under "stats-devices", as they came, never changed here. What the player sees is
// the sum over every slot: sums of the counts, the best of the records, and the current streak
// and recent results of the slot with the latest result. A result recorded here continues the
// streak of that latest slot, so wins on a phone then on a laptop make one streak.
//
// Resetting every game's statistics resets them on every device: the statistics count from a
// reset epoch (`epoch`: resets so far and the time of the last, stored with this device's slot;
// each slot says the epoch it counts in). A reset raises it and starts this device's slot afresh;
// a device that learns of a later reset from a backup or sync (`replaceSlots`) drops its own
// slot, and every other slot of an earlier epoch, and counts anew from there: a game played on
// a device before it learns of the reset is not counted. Resetting one game's statistics works
// alike, per game: `resets` keeps each game's resets, each entry the one it counts from
// (`epoch`); another device's entry of an earlier reset of its game is kept as it came but not
// counted, and this device drops its own when it learns of the reset. The daily results are
// not statistics: a reset keeps them.

import { isCount, isObject } from "./checks.js";
import * as storage from "./storage.js";

export const STATS_KEY = "stats";
export const DEVICES_KEY = "stats-devices";
/** How many results the chart shows, and the most each list of results keeps. */
export const RECENT = 30;

/**
 * @typedef {object} Entry
 * @property {number} played
 * @property {number} won
 * @property {number} streak
 * @property {number} bestStreak
 * @property {number | null} bestScore
 * @property {number | null} bestTime
 * @property {number | null} fewestMoves
 * @property {number} timedWins the wins whose time and moves are in the sums below
 * @property {number} wonTime the time of those wins, ms
 * @property {number} wonMoves the moves of those wins
 * @property {string} recent the last results, oldest first: "W" won, "L" lost
 * @property {number} [at] when the last result was recorded, ms since 1970
 * @property {number} [epoch] the reset of this game the entry counts from (absent: none)
 */

/** @typedef {{streak: number, bestStreak: number, at?: number}} Streaks */
/**
 * The stored statistics before their parts are checked: an object of entries, and the rest as
 * found.
 * @typedef {{variants: Record<string, unknown>, rev?: unknown, recent?: unknown, all?: unknown, epoch?: unknown, resets?: unknown}} RawStats
 */
/** @typedef {{n: number, at: number}} Epoch resets so far, and the time of the last (ms; 0: never) */
/** @typedef {[string, "W" | "L"]} Result a variant key and how its game ended */

/**
 * Everything stored: the entries as they were stored (checked; completed by `entry`), the recent
 * results of every game, and the streaks across games (null: not known yet).
 * @typedef {{variants: Record<string, Partial<Entry>>, recent: Result[], all: Streaks | null, rev: number, epoch: Epoch, resets: Record<string, Epoch>}} Stored
 */

/**
 * A device's statistics as a backup holds them (docs/backup.md).
 * @typedef {{rev: number, epoch?: number, variants: Record<string, Partial<Entry>>, recent: Result[], all: Streaks | null}} Slot
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
const RESULTS_SHAPE = new RegExp(`^[WL]{0,${RECENT}}$`);

/**
 * Every variant the player can choose, in menu order: the engine's list of games
 * (`state.variants`) under each scoring. Before the engine has answered, the variants that
 * already have statistics.
 * @param {{game: string, suits: number, rule: string}[] | undefined} variants
 * @returns {string[]}
 */
export function allVariants(variants) {
  if (!variants) return Object.keys(load().variants);
  const out = [];
  for (const scoring of ["standard", "reveal"]) {
    for (const v of variants) out.push(variantKey({ ...v, scoring }));
  }
  return out;
}

/** @returns {Entry} */
function empty() {
  return {
    played: 0,
    won: 0,
    streak: 0,
    bestStreak: 0,
    bestScore: null,
    bestTime: null,
    fewestMoves: null,
    timedWins: 0,
    wonTime: 0,
    wonMoves: 0,
    recent: "",
  };
}

/**
 * A stored entry with every field (those stored before a field existed get its empty value).
 * @param {Partial<Entry> | undefined} v
 * @returns {Entry}
 */
function entry(v) {
  return { ...empty(), ...(v ?? {}) };
}

/** @param {unknown} v */
const isOptional = (v) => v === null || Number.isFinite(v);
/** @param {string} s */
const wins = (s) => s.split("W").length - 1;

/**
 * A stored entry: the counts, the records, and (when stored) the sums of the wins and the
 * recent results, each consistent with the counts.
 * @param {unknown} v
 * @returns {v is Partial<Entry>}
 */
function validEntry(v) {
  if (!isObject(v)) return false;
  const { played, won } = v;
  if (!isCount(played) || !isCount(won) || !isCount(v.streak) || !isCount(v.bestStreak) || won > played) return false;
  if (!["bestScore", "bestTime", "fewestMoves"].every((k) => isOptional(v[k] ?? null))) return false;
  const { timedWins = 0, wonTime = 0, wonMoves = 0, recent = "" } = v;
  if (!isCount(timedWins) || !isCount(wonTime) || !isCount(wonMoves) || timedWins > won) return false;
  if (timedWins === 0 && (wonTime > 0 || wonMoves > 0)) return false;
  if (v.at !== undefined && !isCount(v.at)) return false;
  if (v.epoch !== undefined && !isCount(v.epoch)) return false;
  return typeof recent === "string" && RESULTS_SHAPE.test(recent) && recent.length <= played && wins(recent) <= won;
}

/**
 * @param {unknown} v
 * @returns {v is Result[]}
 */
function validRecent(v) {
  return (
    Array.isArray(v) &&
    v.length <= RECENT &&
    v.every((r) => Array.isArray(r) && r.length === 2 && typeof r[0] === "string" && KEY_SHAPE.test(r[0]) && (r[1] === "W" || r[1] === "L"))
  );
}

/**
 * @param {unknown} v
 * @returns {v is Streaks}
 */
function validStreaks(v) {
  return isObject(v) && isCount(v.streak) && isCount(v.bestStreak) && v.streak <= v.bestStreak && (v.at === undefined || isCount(v.at));
}

/** @type {Epoch} */
const NO_RESET = { n: 0, at: 0 };

/**
 * @param {unknown} v
 * @returns {v is Epoch}
 */
function validEpoch(v) {
  return isObject(v) && isCount(v.n) && isCount(v.at) && (v.n === 0) === (v.at === 0);
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, Epoch>}
 */
function validResets(v) {
  return isObject(v) && Object.entries(v).every(([k, e]) => KEY_SHAPE.test(k) && validEpoch(e) && e.n > 0);
}

/**
 * The stored statistics as they are (each part checked later on its own).
 * @param {unknown} data
 * @returns {RawStats}
 */
function validate(data) {
  if (!isObject(data) || !isObject(data.variants)) {
    throw new Error("stats: bad shape");
  }
  // Only the entries' object is checked here: each part is checked on its own (load).
  return /** @type {RawStats} */ (data);
}

/**
 * Parts that are bad but could not be copied aside: written back as they are, never dropped
 * (`variants`: entries; `recent`, `all`: the lists beside them).
 * @type {{variants: Record<string, unknown>, recent?: unknown, all?: unknown, epoch?: unknown, resets?: unknown}}
 */
let uncopied = { variants: {} }; // storage bookkeeping of the statistics' store, not app state

/**
 * Sets aside a bad part of the statistics; false when its copy could not be kept.
 * @param {string} name
 * @param {unknown} v
 */
const setAside = (name, v) => storage.setAside(`${STATS_KEY}/${name}`, JSON.stringify(v ?? null), "corrupt");

/**
 * The stored statistics, read afresh. A bad part is set aside on its own and, once its copy is
 * safe, removed from the statistics; the others stay as they are.
 * @returns {Stored}
 */
function load() {
  const raw = storage.read(STATS_KEY, validate, { variants: {} });
  /** @type {Stored} */
  const out = { variants: {}, recent: [], all: null, rev: isCount(raw.rev) ? raw.rev : 0, epoch: NO_RESET, resets: {} };
  let dropped = false;
  uncopied = { variants: {} };
  for (const [key, v] of Object.entries(raw.variants)) {
    if (KEY_SHAPE.test(key) && validEntry(v)) out.variants[key] = v;
    else if (setAside(key, v)) dropped = true;
    else uncopied.variants[key] = v;
  }
  if (raw.recent !== undefined) {
    if (validRecent(raw.recent)) out.recent = raw.recent;
    else if (setAside("recent", raw.recent)) dropped = true;
    else uncopied.recent = raw.recent;
  }
  if (raw.all !== undefined) {
    if (validStreaks(raw.all)) out.all = raw.all;
    else if (setAside("all", raw.all)) dropped = true;
    else uncopied.all = raw.all;
  }
  if (raw.epoch !== undefined) {
    if (validEpoch(raw.epoch)) out.epoch = raw.epoch;
    else if (setAside("epoch", raw.epoch)) dropped = true;
    else uncopied.epoch = raw.epoch;
  }
  if (raw.resets !== undefined) {
    if (validResets(raw.resets)) out.resets = raw.resets;
    else if (setAside("resets", raw.resets)) dropped = true;
    else uncopied.resets = raw.resets;
  }
  if (dropped) save(out);
  return out;
}

/** @param {Stored} s */
function save({ variants, recent, all, rev, epoch, resets }) {
  /** @type {Record<string, unknown>} */
  const data = { rev, variants: { ...uncopied.variants, ...variants }, recent };
  if (all) data.all = all;
  if (epoch.n) data.epoch = epoch;
  if (Object.keys(resets).length) data.resets = resets;
  if ("recent" in uncopied) data.recent = uncopied.recent;
  if ("all" in uncopied) data.all = uncopied.all;
  if ("epoch" in uncopied) data.epoch = uncopied.epoch;
  if ("resets" in uncopied) data.resets = uncopied.resets;
  storage.write(STATS_KEY, data);
}

/**
 * Changes the statistics: re-reads them (another tab may have changed them), and writes them
 * back with only what `change` changed. Bad parts are dropped once they are set aside.
 * @param {(stored: Stored) => void} change
 */
function update(change) {
  const stored = load();
  change(stored);
  stored.rev += 1;
  // Every entry written here counts from the latest reset of its game.
  for (const [key, e] of Object.entries(stored.variants)) {
    if (stored.resets[key]) stored.variants[key] = { ...e, epoch: stored.resets[key].n };
  }
  save(stored);
}

/**
 * The slots of other devices, each checked as this device's own (a bad one is set aside whole).
 * @param {unknown} data
 * @returns {Record<string, Slot>}
 */
function validateDevices(data) {
  if (!isObject(data) || !isObject(data.devices)) throw new Error("stats-devices: bad shape");
  /** @type {Record<string, Slot>} */
  const out = {};
  for (const [id, v] of Object.entries(data.devices)) {
    if (!validSlot(v)) throw new Error("stats-devices: bad slot");
    out[id] = v;
  }
  return out;
}

/**
 * @param {unknown} v
 * @returns {v is Slot}
 */
function validSlot(v) {
  if (!isObject(v) || !isCount(v.rev) || !isObject(v.variants)) return false;
  if (v.epoch !== undefined && !isCount(v.epoch)) return false;
  if (!Object.entries(v.variants).every(([k, e]) => KEY_SHAPE.test(k) && validEntry(e))) return false;
  return (v.recent === undefined || validRecent(v.recent)) && (v.all === undefined || v.all === null || validStreaks(v.all));
}

/**
 * Of the slots in `slots`, those that count from reset `n`.
 * @param {Record<string, Slot>} slots
 * @param {number} n
 */
function since(slots, n) {
  return Object.fromEntries(Object.entries(slots).filter(([, slot]) => (slot.epoch ?? 0) === n));
}

/** @returns {Record<string, Slot>} the statistics of other devices that count, by device id */
export function otherSlots() {
  return since(storage.read(DEVICES_KEY, validateDevices, {}), load().epoch.n);
}

/** @returns {Slot} this device's statistics, as a backup holds them */
export function ownSlot() {
  const { rev, epoch, variants, recent, all } = load();
  return { rev, epoch: epoch.n, variants, recent, all };
}

/** @returns {Epoch} the reset the statistics count from */
export function epoch() {
  return load().epoch;
}

/** @returns {Record<string, Epoch>} each game's own resets, by variant key */
export function resets() {
  return load().resets;
}

/**
 * `slot` with only the entries that count: those of the latest reset of their game.
 * @param {Slot} slot
 * @param {Record<string, Epoch>} resets
 * @returns {Slot}
 */
function counting(slot, resets) {
  const variants = Object.fromEntries(Object.entries(slot.variants).filter(([k, e]) => (e.epoch ?? 0) === (resets[k]?.n ?? 0)));
  return { ...slot, variants };
}

/** @returns {Slot[]} the statistics of other devices that count, their entries that count */
function countedOthers() {
  const { resets } = load();
  return Object.values(otherSlots()).map((slot) => counting(slot, resets));
}

/**
 * Takes each game's later resets: this device's entry (and recent results) of a game reset
 * since are dropped, one revision on.
 * @param {Record<string, Epoch>} resets
 */
function learnResets(resets) {
  const s = load();
  let changed = false;
  let dropped = false;
  for (const [key, e] of Object.entries(resets)) {
    const mine = s.resets[key] ?? NO_RESET;
    if (!validEpoch(e) || e.n < mine.n || (e.n === mine.n && e.at <= mine.at)) continue;
    s.resets = { ...s.resets, [key]: e };
    changed = true;
    if (e.n > mine.n && (s.variants[key] || s.recent.some((r) => r[0] === key))) {
      delete s.variants[key];
      s.recent = s.recent.filter((r) => r[0] !== key);
      dropped = true;
    }
  }
  if (dropped) s.rev += 1;
  if (changed) save(s);
}

/**
 * Takes the statistics of a merged backup that count from reset `reset`: this device's slot
 * when the backup's is newer (`own`, else null), and every other device's slot that is not older
 * than the one kept here. A later reset than this device's clears its statistics first (its own
 * slot starts afresh unless the backup has a newer one); an earlier one (a reset made here since
 * the backup was gathered) leaves them as they are.
 * Each game's resets (`resets`) are taken too: this device's entries of a game reset since are
 * dropped.
 * @param {Slot | null} own
 * @param {Record<string, Slot>} others
 * @param {Epoch} [reset]
 * @param {Record<string, Epoch>} [resets]
 */
export function replaceSlots(own, others, reset = NO_RESET, resets = {}) {
  const stored = load();
  if (reset.n < stored.epoch.n) {
    learnResets(resets);
    return;
  }
  const later = reset.n > stored.epoch.n;
  const epoch = later ? reset : { n: reset.n, at: Math.max(stored.epoch.at, reset.at) };
  if (own && (own.epoch ?? 0) === epoch.n && (later || own.rev > stored.rev)) {
    uncopied = { variants: {} };
    // One revision on at least: every tab, and every merge, takes this slot up.
    const rev = later ? Math.max(own.rev, stored.rev + 1) : own.rev;
    save({ rev, epoch, resets: stored.resets, variants: own.variants, recent: own.recent ?? [], all: own.all ?? null });
  } else if (later) {
    uncopied = { variants: {} };
    save({ rev: stored.rev + 1, epoch, resets: stored.resets, variants: {}, recent: [], all: { streak: 0, bestStreak: 0 } });
  } else if (epoch.at !== stored.epoch.at) {
    save({ ...stored, epoch });
  }
  learnResets(resets);
  // Another device's slot written here since the backup was gathered (by another tab) stays
  // when it is newer: a slot is only ever replaced by one of a higher revision.
  const out = later ? {} : otherSlots();
  for (const [id, slot] of Object.entries(since(others, epoch.n))) if (!out[id] || slot.rev >= out[id].rev) out[id] = slot;
  storage.write(DEVICES_KEY, { devices: out });
}

/** @returns {Slot[]} every device's statistics that count, this device's first */
function allSlots() {
  return [ownSlot(), ...countedOthers()];
}

/**
 * Of several parts, the one with the latest result (`at`); the first (this device's) on a tie.
 * @template {{at?: number}} T
 * @param {T[]} parts
 * @returns {T | undefined}
 */
function latest(parts) {
  return parts.reduce((best, p) => ((p.at ?? 0) > (best.at ?? 0) ? p : best), parts[0]);
}

/**
 * An entry that counts as played every game it has a result of: a game that ends after its
 * statistics were reset still leaves a readable entry.
 * @param {Entry} e
 * @returns {Entry}
 */
function counted(e) {
  return { ...e, played: Math.max(e.played, e.won, e.recent.length) };
}

/**
 * Adds the end of a game of `key` to the recent results and the streaks across games.
 * @param {Stored} s
 * @param {string} key
 * @param {"W" | "L"} result
 */
function addResult(s, key, result) {
  s.recent = [...s.recent, /** @type {Result} */ ([key, result])].slice(-RECENT);
  const others = Object.values(otherSlots()).flatMap((slot) => (slot.all ? [slot.all] : []));
  const before = latest([s.all ?? { streak: 0, bestStreak: 0 }, ...others]);
  const streak = result === "W" ? (before?.streak ?? 0) + 1 : 0;
  s.all = { streak, bestStreak: Math.max(s.all?.bestStreak ?? 0, streak), at: Date.now() };
}

/**
 * The entry of `key` to add a result to: this device's, with the current streak of the entry
 * with the latest result of any device (a streak goes on from one device to the next).
 * @param {Stored} stored
 * @param {string} key
 * @returns {Entry}
 */
function entryToChange(stored, key) {
  const own = entry(stored.variants[key]);
  const others = countedOthers().flatMap((slot) => (slot.variants[key] ? [entry(slot.variants[key])] : []));
  const last = /** @type {Entry} */ (latest([own, ...others]));
  return { ...own, streak: last.streak };
}

/**
 * @param {string} recent
 * @param {"W" | "L"} result
 */
const pushResult = (recent, result) => (recent + result).slice(-RECENT);

/**
 * The statistics of `key` as the player sees them: the sums over every device's entry, the best
 * of their records, and the current streak and recent results of the entry with the latest
 * result.
 * @param {string} key
 * @returns {Entry}
 */
export function get(key) {
  const entries = allSlots().flatMap((slot) => (slot.variants[key] ? [entry(slot.variants[key])] : []));
  if (entries.length <= 1) return entry(entries[0]);
  const sum = sumEntries(entries);
  const last = /** @type {Entry} */ (latest(entries));
  return { ...sum, streak: last.streak, bestStreak: Math.max(...entries.map((e) => e.bestStreak)), recent: last.recent };
}

/**
 * The sums of `entries`' counts and the best of their records.
 * @param {Entry[]} entries
 * @returns {Entry}
 */
function sumEntries(entries) {
  const sum = empty();
  for (const e of entries) {
    for (const k of /** @type {const} */ (["played", "won", "timedWins", "wonTime", "wonMoves"])) sum[k] += e[k];
    if (e.bestScore !== null) sum.bestScore = Math.max(sum.bestScore ?? e.bestScore, e.bestScore);
    if (e.bestTime !== null) sum.bestTime = Math.min(sum.bestTime ?? e.bestTime, e.bestTime);
    if (e.fewestMoves !== null) sum.fewestMoves = Math.min(sum.fewestMoves ?? e.fewestMoves, e.fewestMoves);
  }
  return sum;
}

/**
 * The statistics of every game together: the sums of the entries, the streaks across games
 * (null when not known yet) and the recent results of every game ("W"/"L", oldest first).
 * @returns {Omit<Entry, "streak" | "bestStreak"> & {streak: number | null, bestStreak: number | null}}
 */
export function totals() {
  const slots = allSlots();
  const sum = sumEntries(slots.flatMap((slot) => Object.values(slot.variants).map(entry)));
  const known = slots.filter((slot) => slot.all);
  // The slot with the latest result gives the current streak and the recent results.
  const last = latest(known.map((slot) => ({ ...slot, at: slot.all?.at })));
  const recent = (last ?? slots[0]).recent ?? [];
  /** @type {Streaks | null} */
  let streaks = last?.all ? { streak: last.all.streak, bestStreak: Math.max(...known.map((slot) => slot.all?.bestStreak ?? 0)) } : null;
  // No game yet: the streaks are known (0); games counted before they were kept: not known.
  if (!streaks && sum.played === 0) streaks = { streak: 0, bestStreak: 0 };
  return { ...sum, recent: recent.map((r) => r[1]).join(""), streak: streaks?.streak ?? null, bestStreak: streaks?.bestStreak ?? null };
}

/** @param {string} key */
export function recordStart(key) {
  update((stored) => {
    // The first game of all: the streaks across games are kept from here on, from 0.
    if (!stored.all && !Object.keys(stored.variants).length) stored.all = { streak: 0, bestStreak: 0 };
    const e = entry(stored.variants[key]);
    stored.variants[key] = { ...e, played: e.played + 1 };
  });
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
  update((stored) => {
    const e = entryToChange(stored, key);
    const streak = e.streak + 1;
    stored.variants[key] = counted({
      ...e,
      won: e.won + 1,
      streak,
      bestStreak: Math.max(e.bestStreak, streak),
      bestScore: e.bestScore === null ? score : Math.max(e.bestScore, score),
      bestTime: e.bestTime === null ? time : Math.min(e.bestTime, time),
      fewestMoves: e.fewestMoves === null ? moves : Math.min(e.fewestMoves, moves),
      timedWins: e.timedWins + 1,
      wonTime: e.wonTime + Math.max(0, Math.floor(time)),
      wonMoves: e.wonMoves + moves,
      recent: pushResult(e.recent, "W"),
      at: Date.now(),
    });
    addResult(stored, key, "W");
  });
  return { ...records, first: s.won === 0 };
}

/**
 * A played game was left unfinished (or the solver finished it): a loss, the streaks end.
 * @param {string} key
 */
export function recordLoss(key) {
  update((stored) => {
    const e = entry(stored.variants[key]);
    stored.variants[key] = counted({ ...e, streak: 0, recent: pushResult(e.recent, "L"), at: Date.now() });
    addResult(stored, key, "L");
  });
}

/**
 * Deletes the statistics of `key`, or of every game when `key` is null, on every device: the
 * next reset of that game (or of all), after which the other devices' statistics from before
 * it no longer count, and they drop their own when they learn of it.
 * @param {string | null} key
 */
export function reset(key) {
  if (key !== null) {
    update((s) => {
      delete s.variants[key];
      s.recent = s.recent.filter((r) => r[0] !== key);
      s.resets = { ...s.resets, [key]: { n: (s.resets[key]?.n ?? 0) + 1, at: Date.now() } };
    });
    return;
  }
  const stored = load();
  const epoch = { n: stored.epoch.n + 1, at: Date.now() };
  uncopied = { variants: {} };
  save({ rev: stored.rev + 1, epoch, resets: stored.resets, variants: {}, recent: [], all: { streak: 0, bestStreak: 0 } });
  storage.write(DEVICES_KEY, { devices: {} });
}

/** @param {{played: number, won: number}} s */
export function winRate(s) {
  return s.played ? s.won / s.played : 0;
}

/**
 * The average time (ms) and moves of the won games in the sums, null when there are none.
 * @param {{timedWins: number, wonTime: number, wonMoves: number}} s
 */
export function averages(s) {
  if (!s.timedWins) return { time: null, moves: null };
  return { time: s.wonTime / s.timedWins, moves: s.wonMoves / s.timedWins };
}

// Read once at start-up, so damaged entries are set aside, and told, at once.
load();
