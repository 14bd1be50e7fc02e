// @ts-check
// The winnable deals dealt lately, per game and suit count. "Winnable deals only" sends them to
// the engine as `avoid`, so no deal of the catalogue comes back while others remain unplayed.

import { isCount, isObject } from "./checks.js";
import * as storage from "./storage.js";

const KEY = "recent-winnable";
/** Deals remembered per game and suit count (fewer than the catalogue holds). */
export const KEEP = 150;

/** @typedef {{game: string, suits: number}} Options */

/** @param {Options} options */
const keyOf = ({ game, suits }) => `${game}/${suits}`;

/**
 * @param {unknown} data
 * @returns {Record<string, number[]>}
 */
function validate(data) {
  if (!isObject(data) || Array.isArray(data)) throw new Error("recent: bad shape");
  for (const list of Object.values(data)) {
    if (!Array.isArray(list) || !list.every(isCount)) {
      throw new Error("recent: bad list");
    }
  }
  // Every list was checked above.
  return /** @type {Record<string, number[]>} */ (data);
}

// The stored list, read once (a cache of storage, its one home; not app state).
let data = storage.read(KEY, validate, null) ?? {};

/** The deal numbers dealt lately for these options, oldest first. */
/**
 * @param {Options} options
 * @returns {number[]}
 */
export function recentWinnable(options) {
  return data[keyOf(options)] ?? [];
}

/** Remembers that deal `number` was dealt for these options. */
/**
 * @param {Options} options
 * @param {number} number
 */
export function rememberWinnable(options, number) {
  const list = [...recentWinnable(options).filter((n) => n !== number), number].slice(-KEEP);
  data = { ...data, [keyOf(options)]: list };
  storage.write(KEY, data);
}
