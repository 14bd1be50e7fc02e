// @ts-check
// The daily deal: one deal per variant per day, the same for every player. Which deal it is comes
// from the engine (op "daily", spider.daily: the page never computes it); this module keeps the
// player's daily wins (localStorage "daily", beside the statistics), works out the streak of days
// won, and shows the Daily dialog.
//
// A win counts for a daily deal when the game was won from its deal's start without the solver's
// help (it counts in the statistics too, as any game) and its code is the daily deal of a date
// this page has asked the engine about: today's and yesterday's are asked at start-up, so a
// daily deal begun before midnight still counts for its own day.

import { isCount, isObject } from "./checks.js";
import { variantName } from "./dialogs.js";
import { formatLongDate, formatNumber, t } from "./i18n.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";

/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {{game: string, suits: number, rule: string, code: string, number: number}} DailyDeal */
/** @typedef {{score: number, moves: number, time: number}} DailyResult */
/** @typedef {Record<string, Record<string, DailyResult>>} DailyDays date → code → result */

export const DAILY_KEY = "daily";
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^S[PD]1-S[124][CF]?-[A-Z]{7}$/;

/**
 * The calendar date of `when` on this device, `YYYY-MM-DD` (the daily deal follows the player's
 * own midnight; see docs/shuffle.md).
 * @param {Date} [when]
 */
export function localDate(when = new Date()) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
}

/** @param {string} day @param {number} delta */
function addDays(day, delta) {
  const [y, m, d] = day.split("-").map(Number);
  return localDate(new Date(y, m - 1, d + delta));
}

/**
 * The stored wins, checked whole: anything else is set aside by storage.read (a copy is kept).
 * @param {unknown} data
 * @returns {DailyDays}
 */
function validate(data) {
  if (!isObject(data) || !isObject(data.days)) throw new Error("daily: bad shape");
  for (const [day, results] of Object.entries(data.days)) {
    if (!DATE.test(day) || !isObject(results)) throw new Error("daily: bad day");
    for (const [code, r] of Object.entries(results)) {
      if (!CODE.test(code) || !isObject(r) || !["score", "moves", "time"].every((k) => isCount(r[k]))) throw new Error("daily: bad result");
    }
  }
  // Every day and every result was checked above.
  return /** @type {DailyDays} */ (data.days);
}

/** @returns {DailyDays} read afresh (another tab may have added a win) */
export function wins() {
  return storage.read(DAILY_KEY, validate, {});
}

/**
 * The streak: consecutive days with at least one daily deal won, up to today (or up to
 * yesterday while today's are still to be won); and the longest such run.
 * @param {DailyDays} days
 * @param {string} today
 */
export function streaks(days, today) {
  const won = new Set(Object.keys(days).filter((d) => Object.keys(days[d]).length > 0));
  let day = won.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (won.has(day)) {
    streak += 1;
    day = addDays(day, -1);
  }
  let best = 0;
  for (const d of won) {
    if (won.has(addDays(d, -1))) continue; // not the first day of a run
    let run = 0;
    for (let x = d; won.has(x); x = addDays(x, 1)) run += 1;
    best = Math.max(best, run);
  }
  return { streak, best };
}

/** date → that day's deals, as the engine gave them */
const deals = new Map();
/** code → the date whose daily deal it is */
const dateOf = new Map();

/**
 * That day's deals, from the engine (asked once per date).
 * @param {(req: Request) => Promise<Reply>} ask
 * @param {string} day
 * @returns {Promise<DailyDeal[]>}
 */
export async function dealsOf(ask, day) {
  if (!deals.has(day)) {
    const reply = /** @type {Reply & {daily?: {deals: DailyDeal[]}}} */ (await ask({ op: "daily", date: day }));
    if (!reply.ok || !reply.daily) throw new Error(reply.error?.code ?? "daily");
    deals.set(day, reply.daily.deals);
    for (const deal of reply.daily.deals) dateOf.set(deal.code, day);
  }
  return deals.get(day);
}

/**
 * Learns today's and yesterday's deals, so that a win of either counts (at start-up).
 * @param {(req: Request) => Promise<Reply>} ask
 */
export async function prepare(ask) {
  const today = localDate();
  await Promise.all([dealsOf(ask, today), dealsOf(ask, addDays(today, -1))]).catch(() => {});
}

/**
 * A state subscriber: a daily deal won from its start without help is kept, with its best score.
 * @param {Change} change
 * @param {() => number} elapsed
 */
export function record(change, elapsed) {
  const { won, state } = change;
  const game = state.game;
  if (!won || !game?.code || !state.meta.counted || state.meta.assisted) return;
  const day = dateOf.get(game.code);
  if (!day) return;
  const days = wins();
  const before = days[day]?.[game.code];
  if (before && before.score >= game.score) return;
  const result = { score: game.score, moves: game.moves, time: Math.round(elapsed()) };
  storage.write(DAILY_KEY, { days: { ...days, [day]: { ...(days[day] ?? {}), [game.code]: result } } });
}

// ---- the Daily dialog ----

const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("dlg-daily"));
const list = /** @type {HTMLElement} */ (dlg.querySelector("[data-daily-list]"));

/**
 * @param {string} tag
 * @param {string} [text]
 * @param {string} [cls]
 */
function el(tag, text = "", cls = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/**
 * @param {DailyDeal} deal
 * @param {DailyResult | undefined} result
 * @param {(code: string) => void} onPlay
 */
function row(deal, result, onPlay) {
  const li = el("li", "", "daily-row");
  li.dataset.dailyCode = deal.code;
  li.dataset.won = String(Boolean(result));
  // The variant's name without its scoring (a daily deal is the same under either).
  const name = el("span", variantName(stats.variantKey({ ...deal, scoring: "standard" })).split(" · ").slice(0, -1).join(" · "), "daily-name");
  const status = el(
    "span",
    result ? t("daily.won", { score: formatNumber(result.score), moves: formatNumber(result.moves) }) : t("daily.notWon"),
    "daily-status",
  );
  const play = el("button", t("daily.play"), "btn");
  play.setAttribute("type", "button");
  play.dataset.dailyPlay = deal.code;
  play.addEventListener("click", () => {
    dlg.close("play");
    onPlay(deal.code);
  });
  li.append(name, status, play);
  return li;
}

/**
 * Opens the Daily dialog: today's deals, which are won (score and moves), and the streak.
 * @param {(req: Request) => Promise<Reply>} ask
 * @param {{onPlay: (code: string) => void}} hooks
 */
export async function open(ask, hooks) {
  const newDialog = /** @type {HTMLDialogElement | null} */ (document.getElementById("dlg-new"));
  if (newDialog?.open) newDialog.close("daily");
  const today = localDate();
  const [y, m, d] = today.split("-").map(Number);
  /** @type {HTMLElement} */ (dlg.querySelector("[data-daily-date]")).textContent = formatLongDate(new Date(y, m - 1, d));
  dlg.dataset.date = today;
  list.replaceChildren(el("li", t("daily.loading"), "daily-row"));
  if (!dlg.open) dlg.showModal();
  let todays;
  try {
    todays = await dealsOf(ask, today);
  } catch {
    list.replaceChildren(el("li", t("daily.error"), "daily-row"));
    return;
  }
  const days = wins();
  const { streak, best } = streaks(days, today);
  const streakEl = /** @type {HTMLElement} */ (dlg.querySelector("[data-daily-streak]"));
  streakEl.textContent = `${t("daily.streak", { n: streak })} · ${t("daily.bestStreak", { n: best })}`;
  streakEl.dataset.streak = String(streak);
  list.replaceChildren(...todays.map((deal) => row(deal, days[today]?.[deal.code], hooks.onPlay)));
}
