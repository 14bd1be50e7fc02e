// @ts-check
// Dialogs: New game, Settings, How to play, Win, and a confirmation (Statistics: statsview.js).
// Native <dialog> elements: modal, focus kept inside, Esc closes.

import { $ } from "./dom.js";
import { data, formatNumber, formatTime, t } from "./i18n.js";
import { animate } from "./settings.js";
import * as stats from "./stats.js";

/** @typedef {import("./types.js").GameOptions} GameOptions */
/** @typedef {import("./settings.js").Settings} Settings */
/** @typedef {import("./settings.js").Patch} Patch */

/**
 * What New game does with the player's choice: deal with the options, or open a typed code
 * (resolving with the refusal's code, "cancelled", or null once opened).
 * @typedef {object} NewHandlers
 * @property {(options: GameOptions) => unknown} onDeal
 * @property {(code: string) => Promise<string | null>} onOpenCode
 */

export function anyOpen() {
  return document.querySelector("dialog[open]") !== null;
}

/**
 * Opens `dlg` scrolled to its top, with the focus on `focusEl` (without scrolling to it: on a
 * short screen the first thing to read is the top of the dialog).
 * @param {HTMLDialogElement} dlg
 * @param {HTMLElement | null} [focusEl]
 */
export function open(dlg, focusEl = null) {
  if (!dlg.open) dlg.showModal();
  focusEl?.focus({ preventScroll: true });
  dlg.scrollTop = 0;
  for (const el of dlg.querySelectorAll(".dlg-body")) el.scrollTop = 0;
}

// A tap or click outside a dialog (on its backdrop) closes it, as Cancel or Close would.
for (const dlg of document.querySelectorAll("dialog.dlg")) {
  if (!(dlg instanceof HTMLDialogElement)) continue;
  dlg.addEventListener("click", (e) => {
    if (e.target !== dlg) return;
    const r = dlg.getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    if (!inside) dlg.close("");
  });
}

/**
 * Resolves with the dialog's return value when it closes.
 * @param {HTMLDialogElement} dlg
 * @returns {Promise<string>}
 */
function whenClosed(dlg) {
  return new Promise((resolve) => dlg.addEventListener("close", () => resolve(dlg.returnValue), { once: true }));
}

// ---- New game ----

const dlgNew = $("#dlg-new", document, HTMLDialogElement);
const formNew = $("[data-form='new']", document, HTMLFormElement);
/**
 * The choice of the form's radio buttons named `name` (their RadioNodeList).
 * @param {"game" | "suits" | "rule" | "scoring"} name
 */
const choice = (name) => /** @type {RadioNodeList} */ (formNew.elements.namedItem(name));
const winnableBox = $("input[name='winnable']", formNew, HTMLInputElement);
// The callbacks of the New game dialog now open (a dialog's wiring, not app state).
/** @type {NewHandlers | null} */
let newHandlers = null;

/**
 * Whether the rule for moving groups is a choice for this game: Spider with 2 or 4 suits (with
 * one suit the two rules play alike; Spiderette has the classic rule only).
 * @param {string} game
 * @param {number} suits
 */
function ruleIsChosen(game, suits) {
  return game === "spider" && suits > 1;
}

/**
 * The options the dialog shows; a rule that is not offered for the game is the classic one.
 * @returns {GameOptions}
 */
function readOptions() {
  const game = choice("game").value;
  const suits = Number(choice("suits").value);
  return {
    game,
    suits,
    rule: ruleIsChosen(game, suits) ? choice("rule").value : "classic",
    scoring: choice("scoring").value,
    winnable: winnableBox.checked,
  };
}

function syncNewForm() {
  const o = readOptions();
  $("[data-rule-field]", formNew).hidden = !ruleIsChosen(o.game, o.suits);
  $("[data-rule-help]", formNew).textContent = t(`rule.${choice("rule").value}.help`);
  $("[data-scoring-help]", formNew).textContent = t(`scoring.${o.scoring}.help.${o.game}`);
}

formNew.addEventListener("change", syncNewForm);

async function openCode() {
  const input = $("#code-input", document, HTMLInputElement);
  const errorEl = $("[data-code-error]");
  const code = input.value.trim();
  if (!newHandlers) return;
  if (!code) {
    errorEl.textContent = t("new.code.empty");
    input.focus();
    return;
  }
  errorEl.textContent = "";
  const error = await newHandlers.onOpenCode(code);
  if (error === "cancelled") return; // the player kept the game in progress
  if (error) {
    errorEl.textContent = t(`error.${error}`);
    input.setAttribute("aria-invalid", "true");
    input.focus();
    input.select();
  } else {
    dlgNew.close("opened");
  }
}

$("[data-action='open-code']").addEventListener("click", openCode);
$("#code-input").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    openCode();
  }
});
$("#code-input").addEventListener("input", (e) => {
  /** @type {Element} */ (e.target).removeAttribute("aria-invalid");
  $("[data-code-error]").textContent = "";
});
dlgNew.addEventListener("close", () => {
  if (dlgNew.returnValue === "deal" && newHandlers) newHandlers.onDeal(readOptions());
});

/**
 * Opens New game showing `options`; `handlers` act on the player's choice.
 * @param {GameOptions} options
 * @param {NewHandlers} handlers
 */
export function openNew(options, handlers) {
  newHandlers = handlers;
  choice("game").value = options.game;
  choice("suits").value = String(options.suits);
  choice("rule").value = options.rule;
  choice("scoring").value = options.scoring;
  winnableBox.checked = Boolean(options.winnable);
  $("#code-input", document, HTMLInputElement).value = "";
  $("#code-input").removeAttribute("aria-invalid");
  $("[data-code-error]").textContent = "";
  dlgNew.returnValue = "";
  syncNewForm();
  open(dlgNew, $("[data-action='deal-new']"));
}

// ---- Settings ----

const dlgSettings = $("#dlg-settings", document, HTMLDialogElement);
// Where the Settings dialog now open sends a change (a dialog's wiring, not app state).
/** @type {((patch: Patch) => void) | null} */
let settingsChange = null;

dlgSettings.addEventListener("change", (e) => {
  const el = /** @type {HTMLInputElement | HTMLSelectElement} */ (e.target);
  const key = el.dataset.setting;
  if (!key || !settingsChange) return;
  /** @type {unknown} */
  let value;
  if (el instanceof HTMLInputElement && el.type === "checkbox") value = el.checked;
  else if (key === "undoLimit") value = el.value === "unlimited" ? null : Number(el.value);
  else if (key === "thinkSeconds") value = Number(el.value);
  else value = el.value;
  // The settings check every value they take (settings.js `validate`): a field names its key.
  settingsChange(/** @type {Patch} */ ({ [key]: value }));
});

/**
 * Opens Settings showing `current`; `onChange` takes each change the player makes.
 * @param {Settings} current
 * @param {(patch: Patch) => void} onChange
 */
export function openSettings(current, onChange) {
  settingsChange = onChange;
  /** @type {Record<string, unknown>} */
  const values = current;
  for (const el of dlgSettings.querySelectorAll("[data-setting]")) {
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (el);
    const key = input.dataset.setting ?? "";
    if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = Boolean(values[key]);
    else if (key === "undoLimit") input.value = current.undoLimit === null ? "unlimited" : String(current.undoLimit);
    else input.value = /** @type {string} */ (values[key] ?? "");
  }
  $("[data-setting='lang'] option[value='']", dlgSettings).textContent = t("settings.auto");
  open(dlgSettings);
}

// ---- Variant names (the statistics, the daily deals) ----

/**
 * The name of a statistics variant: game, suit count, rule (where it has a choice), scoring.
 * @param {string} key
 */
export function variantName(key) {
  const v = stats.parseVariant(key);
  const parts = [t(`game.${v.game}`), t(`suits.${v.suits}`)];
  if (v.game === "spider" && v.suits > 1) parts.push(t(`rule.${v.rule}`));
  parts.push(t(`scoring.${v.scoring}`));
  return parts.join(" · ");
}

/**
 * Fills a grid of figures: [label, value, data-stat] rows.
 * @param {HTMLElement} dl
 * @param {[string, string, string?][]} rows
 */
export function fillGrid(dl, rows) {
  dl.replaceChildren();
  for (const [label, value, attr] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    if (attr) dd.dataset.stat = attr;
    dl.append(dt, dd);
  }
}

// ---- How to play ----

const dlgHelp = $("#dlg-help", document, HTMLDialogElement);
const helpBody = $("[data-help-body]");

/** @param {string} game */
function renderHelp(game) {
  for (const tab of dlgHelp.querySelectorAll("[data-help-tab]")) {
    if (!(tab instanceof HTMLElement)) continue;
    const on = tab.dataset.helpTab === game;
    tab.setAttribute("aria-selected", String(on));
    tab.classList.toggle("on", on);
  }
  const sections = [...data(`help.${game}`), ...data("help.common")];
  /** @type {HTMLElement[]} */
  const out = [];
  for (const section of sections) {
    const h = document.createElement("h3");
    h.textContent = section.h;
    out.push(h);
    for (const p of section.p ?? []) {
      const el = document.createElement("p");
      el.textContent = p;
      out.push(el);
    }
    if (section.list) {
      const ul = document.createElement("ul");
      for (const item of section.list) {
        const li = document.createElement("li");
        li.textContent = item;
        ul.appendChild(li);
      }
      out.push(ul);
    }
    if (section.table) {
      const table = document.createElement("table");
      for (const row of section.table) {
        const tr = document.createElement("tr");
        row.forEach((cell, i) => {
          const td = document.createElement(i === 0 ? "th" : "td");
          td.textContent = cell;
          tr.appendChild(td);
        });
        table.appendChild(tr);
      }
      out.push(table);
    }
  }
  helpBody.replaceChildren(...out);
  helpBody.scrollTop = 0;
}

for (const tab of dlgHelp.querySelectorAll("[data-help-tab]")) {
  if (tab instanceof HTMLElement) tab.addEventListener("click", () => renderHelp(tab.dataset.helpTab ?? "spider"));
}

/** @param {string} game */
export function openHelp(game) {
  renderHelp(game);
  open(dlgHelp);
}

// ---- Win ----

const dlgWin = $("#dlg-win", document, HTMLDialogElement);

/**
 * Celebrates a win; resolves with "new" (play again) or how else it closed.
 * @param {{score: number, moves: number, time: number, records: {score?: boolean}, best?: number | null, assisted?: boolean}} win
 */
export function openWin({ score, moves, time, records, best, assisted = false }) {
  const newRecord = records.score;
  $("[data-win-record]").hidden = !newRecord;
  $("[data-win-assisted]").hidden = !assisted;
  $("#dlg-win-title").textContent = t(assisted ? "win.assisted.title" : "win.title");
  fillGrid($("[data-win-table]"), [
    [t("status.score"), formatNumber(score), "score"],
    [t("status.moves"), formatNumber(moves), "moves"],
    [t("status.time"), formatTime(time), "time"],
    ...(best === null || best === undefined ? [] : [/** @type {[string, string, string]} */ ([t("stats.bestScore"), formatNumber(best), "best-score"])]),
  ]);
  dlgWin.returnValue = "";
  dlgWin.classList.remove("celebrate");
  void dlgWin.offsetWidth; // restart the celebration animation
  dlgWin.classList.toggle("celebrate", animate());
  open(dlgWin, $("[data-action='win-new']"));
  return whenClosed(dlgWin);
}

// ---- No more moves ----

const dlgNoMoves = $("#dlg-nomoves", document, HTMLDialogElement);

/** "No more moves": resolves with "undo", "restart", "new" or "close". */
export function openNoMoves() {
  dlgNoMoves.returnValue = "";
  open(dlgNoMoves, $("[data-action='nomoves-undo']"));
  return whenClosed(dlgNoMoves);
}

// ---- Confirmation ----

const dlgConfirm = $("#dlg-confirm", document, HTMLDialogElement);

/**
 * Asks a question; resolves true when the player chose `ok`.
 * @param {{title: string, text: string, ok: string}} question
 */
export function confirm({ title, text, ok }) {
  $("[data-confirm-title]").textContent = title;
  $("[data-confirm-text]").textContent = text;
  $("[data-confirm-ok]").textContent = ok;
  dlgConfirm.returnValue = "";
  open(dlgConfirm);
  return whenClosed(dlgConfirm).then((v) => v === "ok");
}

/** Re-translates whatever dialog is open after a change of language. */
export function relabel() {
  if (dlgNew.open) syncNewForm();
  if (dlgHelp.open) renderHelp(dlgHelp.querySelector("[data-help-tab].on")?.getAttribute("data-help-tab") ?? "spider");
  $("[data-setting='lang'] option[value='']", dlgSettings).textContent = t("settings.auto");
}
