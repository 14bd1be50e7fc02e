// @ts-check
// Checks of values that come from outside the page's code (storage, a backup file, the sync
// service): they arrive as `unknown`, and these narrow them before anything reads them.

/**
 * Whether `v` is an object (an array too), whose fields may then be read (each still unknown).
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
export function isObject(v) {
  return typeof v === "object" && v !== null;
}

/**
 * Whether `v` is a whole number from 0 up.
 * @param {unknown} v
 * @returns {v is number}
 */
export function isCount(v) {
  return Number.isInteger(v) && /** @type {number} */ (v) >= 0;
}
