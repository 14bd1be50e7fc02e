// @ts-check
// The backup document of this device (format "spider-backup", version 1; docs/backup.md): what
// "Back up" writes, what "Restore" and sync merge. The engine checks and merges documents (ops
// "backup-check" and "backup-merge"); this module only gathers them from storage and writes a
// merged one back.
//
// `apply` writes by the rules two tabs follow: the game with a revision above the stored one, so
// every tab takes it up (this one too: the same `storage` event another tab would send); the
// statistics of the document's reset (a later reset than this device's clears its statistics
// first), this device's only when the document's are newer (a higher `rev`), the other devices'
// as they are; the daily results as merged; the settings when they were changed later.

import { DAILY_KEY, wins } from "./daily.js";
import { readStored, GAME_KEY } from "./saving.js";
import * as settings from "./settings.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";

export const FORMAT = "spider-backup";
export const VERSION = 1;
const DEVICE_KEY = "device";
/** The stored keys a backup document is made of (what `collect` reads): a write to any other
 * (the pending-action log, the device id, set-aside copies) changes nothing to sync. */
export const DOCUMENT_KEYS = new Set([GAME_KEY, stats.STATS_KEY, stats.DEVICES_KEY, DAILY_KEY, settings.SETTINGS_KEY]);
const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * @typedef {object} BackupDoc
 * @property {string} format
 * @property {number} version
 * @property {string} written ISO time
 * @property {string} device
 * @property {import("./types.js").StoredGame | null} game
 * @property {{epoch?: import("./stats.js").Epoch, resets?: Record<string, import("./stats.js").Epoch>, devices: Record<string, import("./stats.js").Slot>}} stats
 * @property {{days: Record<string, Record<string, {score: number, moves: number, time: number}>>}} daily
 * @property {{updated: number, values: Record<string, unknown>} | null} settings
 */

/** @param {unknown} v */
function validateId(v) {
  if (typeof v !== "string" || !DEVICE_ID.test(v)) throw new Error("device: bad id");
  return v;
}

/** A new random device id: 16 bytes, base64url (22 characters). */
function newDeviceId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// Not app state: a cache of the stored device id, and this tab's own note of what it wrote.
/** @type {string | null} the device id, once read or made */
let device = null;
/** The saved game this tab last wrote from a backup (so it does not announce it as another tab's). */
let appliedSaved = "";

/**
 * Whether `stored` is the game this tab just restored.
 * @param {{saved: string}} stored
 */
export function isApplied(stored) {
  return stored.saved === appliedSaved;
}

/** This device's id, made once and kept under its own storage key. */
export function deviceId() {
  if (device) return device;
  device = storage.read(DEVICE_KEY, validateId, null);
  if (!device) {
    device = newDeviceId();
    storage.write(DEVICE_KEY, device);
  }
  return device;
}

/** @returns {BackupDoc} this device's document: its game, every device's statistics, its daily results and settings */
export function collect() {
  const id = deviceId();
  const stored = readStored();
  return {
    format: FORMAT,
    version: VERSION,
    written: new Date().toISOString(),
    device: id,
    game: stored ? { ...stored, updated: stored.updated ?? 0 } : null,
    stats: { epoch: stats.epoch(), resets: stats.resets(), devices: { ...stats.otherSlots(), [id]: stats.ownSlot() } },
    daily: { days: wins() },
    settings: settings.stamped(),
  };
}

/**
 * Writes a merged document (from the engine's "backup-merge" of `collect()` and another one)
 * into storage, and lets every tab, this one too, take up what changed.
 * @param {BackupDoc} doc
 */
export function apply(doc) {
  const id = deviceId();
  const { [id]: own = null, ...others } = doc.stats.devices;
  stats.replaceSlots(own, others, doc.stats.epoch, doc.stats.resets);
  // A daily result recorded here since `collect()` is kept: nothing present is dropped.
  const days = wins();
  /** @type {BackupDoc["daily"]["days"]} */
  const merged = { ...doc.daily.days };
  for (const [day, results] of Object.entries(days)) merged[day] = { ...results, ...(merged[day] ?? {}) };
  storage.write(DAILY_KEY, { days: merged });
  if (doc.settings) settings.replace(doc.settings);
  const stored = readStored();
  // A game saved here since `collect()` (played on meanwhile) is newer: it is never overwritten.
  // A deal on which no move was made is not kept over the merged game (a device joining a sync
  // takes up the game in progress of the others rather than its own untouched deal).
  const newer = stored?.meta.started && (stored.updated ?? 0) > (doc.game?.updated ?? 0);
  if (doc.game && doc.game.saved !== stored?.saved && !newer) {
    const peeked = /** @type {{rev?: unknown} | null} */ (storage.peek(GAME_KEY));
    const rev = Math.max(Number.isInteger(peeked?.rev) ? Number(peeked?.rev) : 0, doc.game.rev) + 1;
    appliedSaved = doc.game.saved;
    storage.write(GAME_KEY, { ...doc.game, rev });
  }
  // The tabs take up a newer game, and show statistics afresh, on a storage event.
  dispatchEvent(new StorageEvent("storage", { key: null }));
}
