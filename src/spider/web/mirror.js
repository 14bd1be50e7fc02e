// @ts-check
// The copy in IndexedDB of what storage.js keeps in localStorage.
//
// A browser that is killed (or a phone that runs out of battery) loses what localStorage had not
// yet written to disk, which Chromium does in batches, seconds later. IndexedDB written with
// `durability: "strict"` is on disk when its transaction completes. Every value storage.js writes
// or removes is therefore written here too, as a record {seq, text} under the value's full name
// (`text` null: removed), where `seq` is the write's order, also kept inside the value itself.
//
// This module's top-level await reads every record before any module reads localStorage
// (storage.js imports it; storage.js compares and restores). When IndexedDB is missing, refused,
// of another version, or slow to open, `records` is null and the app works on localStorage alone.

import { isObject } from "./checks.js";

const DB = "spider-solitaire";
const STORE = "mirror";
/** Longest wait for the database at start-up (ms): never longer, whatever the browser does. */
const OPEN_TIMEOUT_MS = 1500;
/** A write order further ahead of the clock than this is damaged, not a write of this app. */
const AHEAD_MS = 366 * 24 * 3600 * 1000;

/** @typedef {{seq: number, text: string | null}} Entry */

// The open database (a connection handle, not app state).
/** @type {IDBDatabase | null} */
let db = null;
/** @type {Map<string, Entry>} writes waiting for the next transaction */
const queue = new Map();

/**
 * A record as stored, or null when it is not one of this module's (another shape, damaged).
 * @param {unknown} name
 * @param {unknown} value
 * @returns {Entry | null}
 */
function entry(name, value) {
  if (typeof name !== "string" || !isObject(value)) return null;
  const { seq, text } = value;
  if (!isSeq(seq) || !(text === null || typeof text === "string")) return null;
  return { seq, text };
}

/**
 * Whether `seq` can be a write order of this app.
 * @param {unknown} seq
 * @returns {seq is number}
 */
export function isSeq(seq) {
  return Number.isSafeInteger(seq) && /** @type {number} */ (seq) >= 0 && /** @type {number} */ (seq) <= Date.now() + AHEAD_MS;
}

/** @returns {Promise<IDBDatabase | null>} */
function open() {
  return new Promise((resolve) => {
    let done = false;
    /** @param {IDBDatabase | null} result */
    const finish = (result) => {
      if (done) {
        result?.close(); // opened after the timeout: not used
        return;
      }
      done = true;
      resolve(result);
    };
    setTimeout(() => finish(null), OPEN_TIMEOUT_MS);
    try {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => finish(req.result);
      req.onerror = () => finish(null);
      req.onblocked = () => finish(null);
    } catch {
      finish(null); // no IndexedDB, or refused by the browser's settings
    }
  });
}

/**
 * Every record, by name; null when the database cannot be read.
 * @param {IDBDatabase} base
 * @returns {Promise<Map<string, Entry> | null>}
 */
function readAll(base) {
  return new Promise((resolve) => {
    try {
      const store = base.transaction(STORE, "readonly").objectStore(STORE);
      const keys = store.getAllKeys();
      const values = store.getAll();
      values.onsuccess = () => {
        /** @type {Map<string, Entry>} */
        const out = new Map();
        keys.result.forEach((name, i) => {
          const e = entry(name, values.result[i]);
          if (e) out.set(/** @type {string} */ (name), e);
        });
        resolve(out);
      };
      values.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/** @returns {Promise<Map<string, Entry> | null>} */
async function load() {
  const t0 = performance.now();
  try {
    db = await open();
    if (!db) return null;
    db.onversionchange = () => {
      db?.close(); // a newer version of the app needs the database: this tab stops mirroring
      db = null;
    };
    const all = await readAll(db);
    if (!all) db = null;
    return all;
  } catch {
    db = null;
    return null;
  } finally {
    measure("spider:mirror", t0);
  }
}

/**
 * Records how long a step took (performance entries: start-up read, each write to disk).
 * @param {string} name
 * @param {number} start
 */
function measure(name, start) {
  try {
    performance.measure(name, { start });
  } catch {
    // Timing is only for measuring.
  }
}

/** The records read at start-up (name → entry), or null when the mirror is off. */
export const records = await load();

/** Whether writes are mirrored (the database opened and was read). */
export function active() {
  return db !== null;
}

/**
 * Writes the queued entries in one strict transaction, committed at once (a failed one changes
 * nothing: localStorage still holds the values).
 */
function flush() {
  const batch = [...queue];
  queue.clear();
  if (!db || !batch.length) return;
  try {
    const tx = db.transaction(STORE, "readwrite", { durability: "strict" });
    const start = performance.now();
    tx.oncomplete = () => measure("spider:mirror-write", start);
    const store = tx.objectStore(STORE);
    for (const [name, e] of batch) store.put(e, name);
    tx.commit?.();
  } catch {
    // Quota, a closed database: localStorage still holds the value.
  }
}

/**
 * Mirrors a write (`text` null: a removal) of the value under `name`, written in order `seq`.
 * The writes of one task go in one transaction, at the end of the task.
 * @param {string} name
 * @param {string | null} text
 * @param {number} seq
 */
export function put(name, text, seq) {
  if (!db) return;
  if (!queue.size) queueMicrotask(flush);
  queue.set(name, { seq, text });
}
