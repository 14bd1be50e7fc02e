// @ts-check
// The Statistics dialog. It opens at "All games" (every variant together); the menu beside it
// names each game and suit count (seven entries rather than sixteen variants: the choice the
// player makes first in New game too), and the rule and scoring of that game are two small
// choices under it, shown only where the game has more than one. Each view shows the counts,
// the streaks, the averages of won games, and a chart of the recent results with its words.

import { suitGlyphs } from "./cards.js";
import { describeResults, drawResults } from "./chart.js";
import { confirm, fillGrid, open, variantName } from "./dialogs.js";
import { $ } from "./dom.js";
import { formatNumber, formatPercent, formatTime, t } from "./i18n.js";
import * as stats from "./stats.js";

/** @typedef {{game: string, suits: number, rule: string}} Variant */

const ALL = "all";
const DASH = "—";

const dlg = $("#dlg-stats", document, HTMLDialogElement);
const gameSelect = $("[data-stats-game]", dlg, HTMLSelectElement);
const ruleField = $("[data-stats-rule-field]", dlg);
const scoringField = $("[data-stats-scoring-field]", dlg);
const chart = $("[data-stats-chart]", dlg, SVGSVGElement);

// The open dialog's arguments, kept to draw it again in another language (not app state).
/** @type {Variant[] | undefined} the engine's games (`state.variants`) */
let variants;
/** The variant of the game on the table: its rule and scoring are chosen first. */
let tableKey = "";

/** @param {string} name */
const radios = (name) => /** @type {HTMLInputElement[]} */ ([...dlg.querySelectorAll(`input[name="${name}"]`)]);

/** The variants with statistics to show, grouped by game and suit count ("spider/2"), in order. */
function groups() {
  const keys = stats.allVariants(variants);
  if (tableKey && !keys.includes(tableKey)) keys.unshift(tableKey);
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const key of keys) {
    const { game, suits } = stats.parseVariant(key);
    const group = `${game}/${suits}`;
    out.set(group, [...(out.get(group) ?? []), key]);
  }
  return out;
}

/** @param {string} group "game/suits" */
function groupName(group) {
  const [game, suits] = group.split("/");
  return `${t(`game.${game}`)} · ${t(`suits.${suits}`)} ${suitGlyphs(Number(suits))}`;
}

function fillMenu() {
  const all = document.createElement("option");
  all.value = ALL;
  all.textContent = t("stats.all");
  const options = [all];
  for (const group of groups().keys()) {
    const opt = document.createElement("option");
    opt.value = group;
    opt.textContent = groupName(group);
    options.push(opt);
  }
  const was = gameSelect.value;
  gameSelect.replaceChildren(...options);
  gameSelect.value = options.some((o) => o.value === was) ? was : ALL;
}

/**
 * Shows the rule and scoring choices the chosen game has (each only when it has more than one),
 * keeping the ones chosen when the game has them.
 */
function syncChoices() {
  const keys = groups().get(gameSelect.value) ?? [];
  for (const [field, name, part] of /** @type {const} */ ([
    [ruleField, "stats-rule", "rule"],
    [scoringField, "stats-scoring", "scoring"],
  ])) {
    const offered = new Set(keys.map((k) => stats.parseVariant(k)[part]));
    field.hidden = offered.size < 2;
    const inputs = radios(name);
    for (const input of inputs) input.closest("label")?.toggleAttribute("hidden", !offered.has(input.value));
    const checked = inputs.find((i) => i.checked && offered.has(i.value)) ?? inputs.find((i) => offered.has(i.value));
    if (checked) checked.checked = true;
  }
}

/** The statistics key on show, or null for "All games". */
function shownKey() {
  const keys = groups().get(gameSelect.value);
  if (!keys) return null;
  const rule = radios("stats-rule").find((i) => i.checked)?.value;
  const scoring = radios("stats-scoring").find((i) => i.checked)?.value;
  const chosen = keys.find((k) => {
    const v = stats.parseVariant(k);
    return (ruleField.hidden || v.rule === rule) && (scoringField.hidden || v.scoring === scoring);
  });
  return chosen ?? keys[0];
}

/**
 * @param {number | null} n
 * @param {(n: number) => string} format
 */
const orDash = (n, format) => (n === null ? DASH : format(n));
const whole = (/** @type {number} */ n) => formatNumber(Math.round(n));

/** Shows the statistics of the chosen view: figures, chart and its words. */
function render() {
  const key = shownKey();
  const s = key === null ? stats.totals() : stats.get(key);
  const avg = stats.averages(s);
  /** @type {[string, string, string][]} */
  const rows = [
    [t("stats.played"), formatNumber(s.played), "played"],
    [t("stats.won"), formatNumber(s.won), "won"],
    [t("stats.rate"), formatPercent(stats.winRate(s)), "rate"],
    [t("stats.streak"), orDash(s.streak, formatNumber), "streak"],
    [t("stats.bestStreak"), orDash(s.bestStreak, formatNumber), "best-streak"],
  ];
  if (key !== null) {
    rows.push(
      [t("stats.bestScore"), orDash(s.bestScore, formatNumber), "best-score"],
      [t("stats.bestTime"), orDash(s.bestTime, formatTime), "best-time"],
      [t("stats.fewestMoves"), orDash(s.fewestMoves, formatNumber), "fewest-moves"],
    );
  }
  rows.push([t("stats.avgTime"), orDash(avg.time, formatTime), "avg-time"], [t("stats.avgMoves"), orDash(avg.moves, whole), "avg-moves"]);
  fillGrid($("[data-stats-table]", dlg), rows);
  // A dash is read aloud as a dash, if at all: a figure not known yet says so.
  for (const dd of dlg.querySelectorAll("[data-stats-table] dd")) {
    if (dd.textContent === DASH) dd.setAttribute("aria-label", t("stats.unknown"));
  }
  drawResults(chart, s.recent, stats.RECENT);
  chart.toggleAttribute("hidden", !s.recent);
  $("[data-stats-legend]", dlg).hidden = !s.recent;
  $("[data-stats-trend-text]", dlg).textContent = describeResults(s.recent);
  dlg.dataset.statsKey = key ?? ALL;
}

gameSelect.addEventListener("change", () => {
  if (tableKey.startsWith(`${gameSelect.value}/`)) choose(tableKey);
  syncChoices();
  render();
});
for (const input of [...radios("stats-rule"), ...radios("stats-scoring")]) input.addEventListener("change", render);

/**
 * Checks the rule and scoring of `key` in the choices.
 * @param {string} key
 */
function choose(key) {
  const v = stats.parseVariant(key);
  for (const input of radios("stats-rule")) input.checked = input.value === v.rule;
  for (const input of radios("stats-scoring")) input.checked = input.value === v.scoring;
}

$("[data-action='reset-stats']", dlg).addEventListener("click", async () => {
  const key = shownKey();
  const ok = await confirm({
    title: t("stats.reset.title"),
    text: key === null ? t("stats.reset.all.text") : t("stats.reset.text", { variant: variantName(key) }),
    ok: t("stats.reset"),
  });
  if (ok) stats.reset(key);
  open(dlg);
  render();
});

/**
 * Opens the statistics at "All games", with the rule and scoring of `currentKey` (the game on
 * the table) chosen for when the player picks its game.
 * @param {string} currentKey
 * @param {Variant[] | undefined} engineVariants
 */
export function openStats(currentKey, engineVariants = variants) {
  variants = engineVariants;
  tableKey = currentKey;
  gameSelect.value = ALL;
  fillMenu();
  choose(currentKey);
  syncChoices();
  render();
  open(dlg);
}

/** Re-translates the dialog after a change of language. */
export function relabel() {
  if (!dlg.open) return;
  fillMenu();
  render();
}
