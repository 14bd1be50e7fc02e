// Storage: localStorage behind a versioned envelope.
//
// Every value is stored as {"app": APP, "v": VERSION, "data": …}. Data that cannot be read
// (not JSON, another app's, another version, or refused by its validator) never breaks the app:
// it is moved aside under "<key>:set-aside", removed from its key, and reported once through
// `takeProblems()` so the page can tell the player. Writes that fail (quota, private mode) are
// reported the same way, once per session.

export const APP = "spider-solitaire";
export const VERSION = 1;
const PREFIX = "spider:";

const problems = [];
let writeFailed = false;

function backend() {
  try {
    const ls = globalThis.localStorage;
    const probe = PREFIX + "probe";
    ls.setItem(probe, "1");
    ls.removeItem(probe);
    return ls;
  } catch {
    return null;
  }
}

const ls = backend();
const memory = new Map(); // used when localStorage is unavailable, so the session still works

function rawGet(key) {
  return ls ? ls.getItem(PREFIX + key) : (memory.get(key) ?? null);
}

function rawSet(key, text) {
  if (!ls) {
    memory.set(key, text);
    return true;
  }
  try {
    ls.setItem(PREFIX + key, text);
    return true;
  } catch {
    return false;
  }
}

function rawRemove(key) {
  if (ls) ls.removeItem(PREFIX + key);
  else memory.delete(key);
}

function setAside(key, raw, reason) {
  // Keep one copy of the unreadable data for inspection; never let it fill the quota.
  rawRemove(key);
  if (raw.length < 512 * 1024) rawSet(`${key}:set-aside`, raw);
  problems.push({ key, reason });
}

/**
 * Reads `key`. Returns `fallback` when nothing is stored. `validate(data)` must return the data
 * to use (possibly repaired) or throw; anything it rejects is set aside.
 */
export function read(key, validate = (d) => d, fallback = null) {
  const raw = rawGet(key);
  if (raw === null) return fallback;
  let envelope;
  try {
    envelope = JSON.parse(raw);
  } catch {
    setAside(key, raw, "corrupt");
    return fallback;
  }
  if (!envelope || typeof envelope !== "object" || envelope.app !== APP) {
    setAside(key, raw, "foreign");
    return fallback;
  }
  if (envelope.v !== VERSION) {
    setAside(key, raw, envelope.v < VERSION ? "older" : "newer");
    return fallback;
  }
  try {
    return validate(envelope.data);
  } catch {
    setAside(key, raw, "corrupt");
    return fallback;
  }
}

/** Writes `data` under `key`. Returns false (and reports once) if the browser refused it. */
export function write(key, data) {
  const ok = rawSet(key, JSON.stringify({ app: APP, v: VERSION, data }));
  if (!ok && !writeFailed) {
    writeFailed = true;
    problems.push({ key, reason: "write" });
  }
  return ok;
}

export function remove(key) {
  rawRemove(key);
}

/** Data that was set aside or could not be written since the last call (each reported once). */
export function takeProblems() {
  return problems.splice(0, problems.length);
}

/** Sets aside the value under `key` after a later check (such as the engine) rejected it. */
export function reject(key, reason = "corrupt") {
  const raw = rawGet(key);
  if (raw !== null) setAside(key, raw, reason);
}

export const persistent = ls !== null;
