// @ts-check
// Storage: localStorage behind a versioned envelope.
//
// Every value is stored as {"app": APP, "v": VERSION, "data": …}. Data that cannot be read
// (not JSON, another app's, another version, or refused by its validator) never breaks the app:
// a copy is set aside under "spider:set-aside:<time>:<n>" and the player is told. Copies are never
// overwritten: several are kept, within SET_ASIDE_BUDGET characters in all, the oldest dropped
// first when a new one needs the room. Reading never depends on writing: a full storage still
// shows the saved game, and says at once (at start-up, by the probe) that nothing can be saved.
//
// A value that cannot be copied (too big for the budget, or the storage is full) is held: it stays
// under its key untouched, the app reads and writes that key in memory only, and the player
// chooses (`heldData` to download it, `release` to discard it): only then is the key saved again.
// No stored value, whatever it holds (set-aside copies included), can make reading throw.
//
// Every value written to or removed from localStorage is written to IndexedDB too (mirror.js),
// which a killed browser does not lose. Each value holds its write order `seq` (a clock that
// never goes back, shared by the tabs through the time). At start-up, before any module reads a
// value, a value of the mirror written later than the one in localStorage (or where localStorage
// has none) is put back into localStorage; a value only localStorage holds, or written later, or
// without an order (an earlier version's), is copied to the mirror. A damaged value is set aside
// and a readable copy put in its place. What is put back is then read like any stored value.
// Without IndexedDB, localStorage alone works as before.

import * as mirror from "./mirror.js";

export const APP = "spider-solitaire";
export const VERSION = 1;
const PREFIX = "spider:";
const ASIDE = `${PREFIX}set-aside:`;
const PROBE = `${PREFIX}probe`;
/** Characters all set-aside copies may take together (localStorage holds about 5 million). */
export const SET_ASIDE_BUDGET = 1_500_000;

/**
 * A problem the player is told about: `write` (the browser refused to save), or data that could
 * not be used (`corrupt`, `foreign`, `older`, `newer`, or `repaired`: partly used, partly reset),
 * `kept`: a copy is set aside (false: the value is held under its key, see `release`).
 * @typedef {{key: string, reason: string, kept: boolean}} Problem
 */

/** @type {Problem[]} */
const problems = [];
/** @type {Map<string, string>} held values (by full name): the data that could not be copied */
const held = new Map();
/** @type {Set<(writable: boolean) => void>} */
const writableListeners = new Set();
/** @type {Set<(key: string) => void>} */
const writeListeners = new Set();
// Not app state: the storage layer's own bookkeeping (whether writes work, the write order, the probe).
let writable = true;

/** @returns {Storage | null} */
function backend() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // blocked by the browser's settings
  }
}

const ls = backend();
/** @type {Map<string, string>} used when localStorage is unavailable, so the session still works */
const memory = new Map();

/** @param {string} name */
const inMemory = (name) => !ls || held.has(name);

/** @param {string} name */
function rawGet(name) {
  try {
    return inMemory(name) ? (memory.get(name) ?? null) : /** @type {Storage} */ (ls).getItem(name);
  } catch {
    return null;
  }
}

/** The order of the last write: a later write always has a higher one, in any tab (storage bookkeeping). */
let lastSeq = 0;
const nextSeq = () => (lastSeq = Math.max(lastSeq + 1, Date.now()));

/**
 * @param {string} name
 * @param {string} text
 * @param {number} seq the write's order, as `text` holds it
 */
function rawSet(name, text, seq) {
  if (!ls || inMemory(name)) {
    memory.set(name, text);
    return true;
  }
  try {
    ls.setItem(name, text);
  } catch {
    return false;
  }
  if (name !== PROBE) mirror.put(name, text, seq);
  return true;
}

/** @param {string} name */
function rawRemove(name) {
  try {
    if (!ls || inMemory(name)) {
      memory.delete(name);
      return;
    }
    ls.removeItem(name);
  } catch {
    return; // Nothing to do: the value stays.
  }
  if (name !== PROBE) mirror.put(name, null, nextSeq());
}

/**
 * The write order `text` holds under `name`, 0 for a value of this app written without one;
 * null when `text` is not a value of this app (it is then never replaced from the mirror: it is
 * read, and set aside, like any unreadable value).
 * @param {string} name
 * @param {string} text
 * @returns {number | null}
 */
function seqOf(name, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const ours = name.startsWith(ASIDE) ? typeof value.raw === "string" : value.app === APP && value.v === VERSION;
  if (!ours) return null;
  if (value.seq === undefined) return 0;
  return mirror.isSeq(value.seq) ? value.seq : null;
}

/** @returns {string[]} the names in localStorage of this app's values */
function storedNames() {
  if (!ls) return [];
  try {
    return Array.from({ length: ls.length }, (_, i) => ls.key(i) ?? "").filter((n) => n.startsWith(PREFIX));
  } catch {
    return [];
  }
}

/**
 * Compares the mirror's values with localStorage's, name by name: the later one is kept in
 * both (the mirror's is put back into localStorage; localStorage's is copied to the mirror).
 * @param {Map<string, import("./mirror.js").Entry> | null} records
 */
function restore(records) {
  if (!ls || !records) return;
  const names = new Set([...storedNames(), ...records.keys()]);
  names.delete(PROBE);
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const stored = rawGet(name);
    const copy = records.get(name);
    if (copy) lastSeq = Math.max(lastSeq, copy.seq);
    if (copy && copy.text === stored) continue;
    const own = stored === null ? -1 : seqOf(name, stored);
    if (own !== null) lastSeq = Math.max(lastSeq, own);
    // A value of this app without an order was written by an earlier version: it is kept.
    if (copy && own !== null && own !== 0 && copy.seq > own) putBack(name, copy.text);
    else if (copy && own === null && usable(name, copy.text)) {
      // localStorage's value is damaged, the copy is not: the damaged one is set aside first.
      const reason = open(/** @type {string} */ (stored));
      if (setAside(name.slice(PREFIX.length), /** @type {string} */ (stored), "reason" in reason ? reason.reason : "corrupt")) {
        putBack(name, copy.text);
      }
    } else if (stored !== null) mirror.put(name, stored, own === 0 ? nextSeq() : (own ?? 0));
  }
}

/**
 * Whether `text` is a readable value of this app for `name` (not a set-aside copy: a damaged
 * copy is left as it is).
 * @param {string} name
 * @param {string | null} text
 */
function usable(name, text) {
  return text !== null && !name.startsWith(ASIDE) && seqOf(name, text) !== null;
}

/**
 * Puts the mirror's `text` back under `name` (null: removes it).
 * @param {string} name
 * @param {string | null} text
 */
function putBack(name, text) {
  try {
    if (text === null) /** @type {Storage} */ (ls).removeItem(name);
    else /** @type {Storage} */ (ls).setItem(name, text);
  } catch {
    // Storage full: localStorage's value stays as it is.
  }
}

restore(mirror.records);

/** @returns {string[]} the names of the set-aside copies, oldest first */
export function setAsideNames() {
  let names;
  try {
    names = ls ? Array.from({ length: ls.length }, (_, i) => ls.key(i) ?? "") : [...memory.keys()];
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(ASIDE)).sort((a, b) => stamp(a) - stamp(b) || a.localeCompare(b));
}

/** @param {string} name */
function stamp(name) {
  return Number(name.slice(ASIDE.length).split(":")[0]) || 0;
}

/** @param {boolean} ok */
function setWritable(ok) {
  if (ok === writable) return;
  writable = ok;
  if (!ok) problems.push({ key: "", reason: "write", kept: false });
  for (const fn of writableListeners) fn(ok);
}

/**
 * The key and raw value a set-aside copy holds; null when the copy itself is not one (not JSON,
 * another shape): such a copy is left as it is, never read further.
 * @param {string} name
 * @returns {{key: unknown, raw: string} | null}
 */
function copied(name) {
  try {
    const copy = JSON.parse(rawGet(name) ?? "null");
    return copy && typeof copy === "object" && typeof copy.raw === "string" ? copy : null;
  } catch {
    return null;
  }
}

/**
 * Keeps a copy of data that cannot be used, without overwriting any earlier copy; drops the
 * oldest copies when the new one needs room. An identical copy of the same key already kept is
 * not repeated (nor told again).
 * @param {string} key
 * @param {string} raw
 * @param {string} reason
 * @returns {boolean} whether the copy is kept
 */
export function setAside(key, raw, reason) {
  const names = setAsideNames();
  const same = (/** @type {string} */ n) => {
    const copy = copied(n);
    return copy !== null && copy.key === key && copy.raw === raw;
  };
  if (names.some(same)) return true; // kept and told already
  const kept = copyAside(names, { key, reason, time: new Date().toISOString(), raw });
  problems.push({ key, reason, kept });
  return kept;
}

/**
 * Writes the set-aside `copy`, dropping the oldest copies (`names`) when it needs their room.
 * @param {string[]} names
 * @param {{key: string, reason: string, time: string, raw: string}} value
 */
function copyAside(names, value) {
  const seq = nextSeq();
  const copy = JSON.stringify({ ...value, seq });
  if (copy.length > SET_ASIDE_BUDGET) return false;
  let used = names.reduce((sum, n) => sum + (rawGet(n)?.length ?? 0), 0);
  while (names.length && used + copy.length > SET_ASIDE_BUDGET) {
    const oldest = /** @type {string} */ (names.shift());
    used -= rawGet(oldest)?.length ?? 0;
    rawRemove(oldest);
  }
  const name = `${ASIDE}${Date.now()}:`;
  let n = names.length;
  while (rawGet(name + n) !== null) n += 1; // never over an earlier copy
  return rawSet(name + n, copy, seq);
}

/**
 * Moves the unusable value `raw` of `key` out of the way: set aside and removed from its key,
 * else (it cannot be copied) held there untouched until the player chooses.
 * @param {string} key
 * @param {string} raw
 * @param {string} reason
 */
function putAside(key, raw, reason) {
  if (held.has(PREFIX + key)) return;
  if (setAside(key, raw, reason)) rawRemove(PREFIX + key);
  else held.set(PREFIX + key, raw);
}

/** The keys whose unreadable value is held (could not be copied), without the prefix. */
export function heldKeys() {
  return [...held.keys()].map((name) => name.slice(PREFIX.length));
}

/** The held values as they are stored, by key: what the player may download. */
export function heldData() {
  return Object.fromEntries([...held].map(([name, raw]) => [name.slice(PREFIX.length), raw]));
}

/**
 * The player's choice: the held values are discarded, and what the app kept in memory for
 * their keys meanwhile is saved in their place. Returns whether every key was saved.
 */
export function release() {
  let ok = true;
  for (const name of [...held.keys()]) {
    held.delete(name);
    const text = memory.get(name);
    memory.delete(name);
    rawRemove(name);
    if (text !== undefined) ok = rawSet(name, text, seqOf(name, text) ?? nextSeq()) && ok;
  }
  setWritable(ok);
  return ok;
}

/**
 * The data of the envelope `raw`, or why it cannot be used.
 * @param {string} raw
 * @returns {{data: unknown} | {reason: string}}
 */
function open(raw) {
  let envelope;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return { reason: "corrupt" };
  }
  if (!envelope || typeof envelope !== "object" || envelope.app !== APP) return { reason: "foreign" };
  if (envelope.v !== VERSION) return { reason: envelope.v < VERSION ? "older" : "newer" };
  return { data: envelope.data };
}

/**
 * Reads `key`. Returns `fallback` when nothing is stored. `validate(data, repaired)` returns the
 * data to use or throws; it calls `repaired()` when it had to set parts back (then the value as
 * stored is set aside and the repaired one written in its place). Anything unusable is set aside
 * (and removed from its key once the copy is safe; held there when it could not be copied).
 * @template T
 * @param {string} key
 * @param {(data: unknown, repaired: () => void) => T} validate
 * @param {T} fallback
 * @returns {T}
 */
export function read(key, validate, fallback) {
  const raw = rawGet(PREFIX + key);
  if (raw === null) return fallback;
  const opened = open(raw);
  if (!("data" in opened)) {
    putAside(key, raw, opened.reason);
    return fallback;
  }
  let fixed = false;
  let data;
  try {
    data = validate(opened.data, () => (fixed = true));
  } catch {
    putAside(key, raw, "corrupt");
    return fallback;
  }
  if (fixed) {
    putAside(key, raw, "repaired");
    write(key, data);
  }
  return data;
}

/**
 * Writes `data` under `key`. Returns false if the browser refused it: the storage is then not
 * writable until a write succeeds again, and the listeners of `onWritable` are told at once.
 * @param {string} key
 * @param {unknown} data
 */
export function write(key, data) {
  const seq = nextSeq();
  const ok = rawSet(PREFIX + key, JSON.stringify({ app: APP, v: VERSION, data, seq }), seq);
  setWritable(ok);
  if (ok) for (const fn of writeListeners) fn(key);
  return ok;
}

/**
 * Calls `fn(key)` after each value this page writes (sync.js sends what changed).
 * @param {(key: string) => void} fn
 */
export function onWrite(fn) {
  writeListeners.add(fn);
}

/** @param {string} key */
export function remove(key) {
  rawRemove(PREFIX + key);
}

/** Data that was set aside or could not be written since the last call (each reported once). */
export function takeProblems() {
  return problems.splice(0, problems.length);
}

/**
 * Sets aside the value under `key` after a later check (such as the engine) rejected it.
 * @param {string} key
 * @param {string} [reason]
 */
export function reject(key, reason = "corrupt") {
  const raw = rawGet(PREFIX + key);
  if (raw !== null) putAside(key, raw, reason);
}

/**
 * Whether progress can be saved: false when localStorage is unavailable or refused the last
 * write. Known at start-up: the first call writes a probe.
 */
export function canSave() {
  if (!ls) return false;
  if (writable && !probed) {
    probed = true;
    setWritable(rawSet(PROBE, "1", 0));
    rawRemove(PROBE);
  }
  return writable;
}
/** Whether the write probe has run (storage bookkeeping, not app state). */
let probed = false;

/**
 * Calls `fn(writable)` whenever saving starts or stops working.
 * @param {(writable: boolean) => void} fn
 */
export function onWritable(fn) {
  writableListeners.add(fn);
}

/**
 * Calls `fn()` when another tab of this app changes the value under `key`.
 * @param {string} key
 * @param {() => void} fn
 */
export function watch(key, fn) {
  addEventListener("storage", (e) => {
    if (e.key === PREFIX + key || e.key === null) fn();
  });
}

/**
 * The raw envelope's data under `key` without validating or setting anything aside (to compare
 * revisions before a write).
 * @param {string} key
 * @returns {unknown}
 */
export function peek(key) {
  const raw = rawGet(PREFIX + key);
  if (raw === null) return null;
  const opened = open(raw);
  return "data" in opened ? opened.data : null;
}
