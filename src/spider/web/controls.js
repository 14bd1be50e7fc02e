// @ts-check
// The header's buttons and the status line, drawn from the app state: score, moves, code, which
// actions are possible now, the suits button, and the engine's status.

import { suitGlyphs } from "./cards.js";
import { $ } from "./dom.js";
import * as i18n from "./i18n.js";

/** @typedef {import("./types.js").AppState} AppState */

const html = document.documentElement;

/**
 * @param {string} action
 * @returns {HTMLButtonElement}
 */
function button(action) {
  return $(`[data-action='${action}']`, document, HTMLButtonElement);
}

/**
 * Shows the game's figures and enables the actions the engine allows.
 * @param {AppState} app
 */
export function updateStatus(app) {
  const state = app.game;
  if (!state) return;
  $("[data-score]").textContent = String(state.score);
  $("[data-moves]").textContent = String(state.moves);
  $("[data-code]").textContent = state.code ?? i18n.t("status.position");
  button("undo").disabled = !state.can_undo;
  button("redo").disabled = !state.can_redo;
  button("restart").disabled = !state.can_undo && state.moves === 0;
  // Nothing to review before the first move.
  button("review").disabled = state.moves === 0;
  $("[data-suits-glyph]").textContent = suitGlyphs(state.suits);
  $("[data-suits-label]").textContent = i18n.t(`suits.${state.suits}`);
  html.dataset.game = state.game;
}

/**
 * Shows the engine's status: "loading" until the first reply is applied, "error" with a retry
 * button, nothing once ready.
 * @param {AppState} app
 */
export function showEngineStatus(app) {
  const status = app.engine === "error" ? "error" : app.booted && app.engine === "ready" ? "ready" : "loading";
  const box = $("[data-engine-status]");
  const text = $("[data-engine-text]");
  const retry = button("retry");
  box.dataset.status = status;
  text.textContent = status === "ready" ? "" : i18n.t(`engine.${status}`);
  // Until the engine is ready the table says so too, in words, at every size (the cards shown
  // meanwhile cannot be played yet).
  $("[data-starting-text]").textContent = text.textContent;
  retry.hidden = status !== "error";
  html.dataset.engine = app.booted ? "ready" : status;
}
