// @ts-check
// What the page tells the player: short messages over the table, toasts with an optional
// action, a lasting notice (storage), and announcements for screen readers.

import { $ } from "./dom.js";
import * as i18n from "./i18n.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").GameState} GameState */

// Timer handles of the message and the toast now shown (not app state).
let messageTimer = 0;
let toastTimer = 0;

/**
 * The player's text for a refusal code of the engine.
 * @param {string | undefined} code
 * @param {GameState | null} game
 */
export function messageFor(code, game) {
  if (code === "not-movable" && game?.rule === "flexible") return i18n.t("error.not-movable.flexible");
  if (code === "empty-column" && game?.blocked_deal) return i18n.t("error.empty-column.blocked");
  const key = `error.${code}`;
  return i18n.has(key) ? i18n.t(key) : i18n.t("error.unknown");
}

/**
 * Shows a short message over the table for `ms` milliseconds.
 * @param {string} text
 * @param {{tone?: string, ms?: number}} [opts]
 */
export function showMessage(text, { tone = "warn", ms = 2600 } = {}) {
  const el = $("[data-message]");
  el.textContent = text;
  el.dataset.tone = tone;
  el.hidden = false;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
  clearTimeout(messageTimer);
  messageTimer = window.setTimeout(hideMessage, ms);
}

export function hideMessage() {
  const el = $("[data-message]");
  el.classList.remove("show");
  el.hidden = true;
}

/**
 * A toast at the bottom, with an optional button.
 * @param {string} text
 * @param {{label: string, run: () => void} | null} [action]
 */
export function toast(text, action = null) {
  const el = $("[data-toast]");
  $("[data-toast-text]").textContent = text;
  const btn = $("[data-toast-action]");
  btn.hidden = !action;
  if (action) {
    btn.textContent = action.label;
    btn.onclick = () => {
      el.hidden = true;
      action.run();
    };
  }
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.hidden = true), action ? 12000 : 5000);
}

/**
 * A notice that stays until `notice(null)`: for a state that lasts, such as storage that cannot
 * save.
 * @param {string | null} text
 */
export function notice(text) {
  const el = $("[data-notice]");
  el.textContent = text ?? "";
  el.hidden = text === null;
}

/** @param {string} text */
export function announce(text) {
  const el = $("[data-announce]");
  el.textContent = "";
  // A fresh text node each time so screen readers repeat identical announcements.
  requestAnimationFrame(() => (el.textContent = text));
}

/**
 * The first of the cards a move took: the event names them, unless they completed a run and left
 * the table with it; then the state before the move shows them.
 * @param {GameEvent} ev
 * @param {GameState | null} before
 */
function movedCard(ev, before) {
  if (ev.cards?.length) return ev.cards[0];
  const src = before?.columns[ev.src ?? -1];
  return src ? (src.up[src.up.length - (ev.count ?? 1)] ?? null) : null;
}

/**
 * What one event says, or "".
 * @param {GameEvent} ev
 * @param {GameState} game
 * @param {(game: GameState) => string} gameName
 * @param {GameState | null} before
 */
function describeOne(ev, game, gameName, before) {
  switch (ev.type) {
    case "move": {
      const card = movedCard(ev, before);
      if (!card) return "";
      const count = ev.count ?? 1;
      const key = count > 1 ? "announce.moveGroup" : "announce.move";
      return i18n.t(key, { card: i18n.cardName(card), n: count - 1, col: (ev.dst ?? 0) + 1 });
    }
    case "flip":
      return i18n.t("announce.flip", { card: i18n.cardName(ev.card ?? ""), col: (ev.column ?? 0) + 1 });
    case "run":
      return i18n.t("announce.run", { suit: i18n.t(`suit.${ev.suit}`) });
    case "deal":
      return i18n.t("announce.deal", { n: game.deals_left });
    case "undo":
    case "redo":
    case "restart":
      return i18n.t(`announce.${ev.type}`);
    case "new":
      return i18n.t("announce.new", { game: gameName(game) });
    default:
      return "";
  }
}

/**
 * What a reply's events say, in order, for the screen reader (`before`: the state they changed).
 * @param {GameEvent[] | undefined} events
 * @param {GameState} game
 * @param {(game: GameState) => string} gameName
 * @param {GameState | null} [before]
 */
export function describe(events, game, gameName, before = null) {
  return (events ?? [])
    .map((ev) => describeOne(ev, game, gameName, before))
    .filter(Boolean)
    .join(" ");
}
