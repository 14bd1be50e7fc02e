// @ts-check
// The statistics follow the app state: a game counts as played at its first action (when it
// began at its deal's start), a win adds to the records and opens the win dialog, and a game
// left unfinished for another ends the streak.

import * as dialogs from "./dialogs.js";
import * as stats from "./stats.js";

/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").GameState} GameState */

const html = document.documentElement;

/**
 * @param {Change} change
 * @param {{elapsed: () => number, settled: () => Promise<unknown>, onNew: () => void}} hooks
 */
export function record(change, hooks) {
  const { abandoned, started, won, state } = change;
  if (abandoned && abandoned.meta.counted && !abandoned.meta.won) stats.recordLoss(stats.variantKey(abandoned.game));
  const game = state.game;
  if (!game || !change.reply?.ok) return;
  if (started && state.meta.counted) stats.recordStart(stats.variantKey(game));
  if (won) celebrate(game, state.meta, hooks);
  if (!game.won) delete html.dataset.won;
}

/**
 * A game the solver played is not a win of the player's: it counts as played, not won. A game
 * that did not begin at its deal's start is in no statistics at all.
 * @param {GameState} game
 * @param {import("./types.js").Meta} meta
 * @param {{elapsed: () => number, settled: () => Promise<unknown>, onNew: () => void}} hooks
 */
function celebrate(game, meta, hooks) {
  const time = hooks.elapsed();
  const key = stats.variantKey(game);
  const { assisted, counted } = meta;
  const records = counted && !assisted ? stats.recordWin(key, { score: game.score, moves: game.moves, time }) : {};
  if (counted && assisted) stats.recordLoss(key);
  const best = counted ? stats.get(key).bestScore : null;
  hooks.settled().then(() => {
    html.dataset.won = "true";
    dialogs
      .openWin({ score: game.score, moves: game.moves, time, records, best, assisted })
      .then((v) => v === "new" && hooks.onNew());
  });
}
