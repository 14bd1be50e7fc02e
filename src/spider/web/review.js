// @ts-check
// "Where did I lose it?": the review of a game (op `review`, docs/protocol.md) in the solver's
// worker, with progress and cancel, shown on a timeline of the game's moves. It is a spoiler (the
// solver reads every card), so it runs only when the player asks: the menu, the "No more moves"
// dialog, or the offer made when a game is left unfinished. From the result the player can play
// on from the last winnable position as a practice game that counts in no statistics (main.js
// opens it with `open` and the context `practice`). Without a proof in time, the answer is
// "probably lost at about move N": said with "probably", marked "Not proven", with the evidence
// it rests on, and a hollow marker on the timeline.

import { $ } from "./dom.js";
import { cardName, formatDecimal, formatNumber, has, t } from "./i18n.js";
import * as solver from "./solver.js";

/** Seconds for the whole review and for each position the solver judges. */
export const REVIEW_SECONDS = 60;
const POSITION_SECONDS = 10;

/** @typedef {import("./types.js").Review} Review */
/** @typedef {import("./types.js").LosingMove} LosingMove */
/** @typedef {import("./types.js").ReviewFact} ReviewFact */
/** @typedef {import("./types.js").ProbableLoss} ProbableLoss */
/** @typedef {import("./types.js").ReviewProgress} ReviewProgress */

/**
 * `getSaved`: the saved text of the game to review; `practice(position, lost)`: opens a practice
 * game at `position`, saying `lost` (the losing move in words, or null). `budget` replaces the
 * review's limits (seconds in all and per position, and a cap on each solver run's positions,
 * a budget that does not depend on the machine's speed); by default 60 s and 10 s, no cap.
 * @typedef {{getSaved: () => string | null, practice: (position: string, lost: string | null) => void, budget?: import("./solver.js").ReviewBudget}} Hooks
 */

const dlg = $("#dlg-review", document, HTMLDialogElement);
const textEl = $("[data-review-text]", dlg);
const detailEl = $("[data-review-detail]", dlg);
const unprovenEl = $("[data-review-unproven]", dlg);
const evidenceEl = $("[data-review-evidence]", dlg);
const noteEl = $("[data-review-note]", dlg);
const progressEl = $("[data-review-progress]", dlg);
const timelineEl = $("[data-review-timeline]", dlg);
const startBtn = $("[data-action='review-start']", dlg);
const practiceBtn = $("[data-action='review-practice']", dlg);
const cancelBtn = $("[data-action='review-cancel']", dlg);

// The dialog's own state (not app state): the review now open, and when its search began.
/** @type {(Hooks & {saved: string, result?: Review, took?: number}) | null} the review of the dialog now open */
let session = null;
let startedAt = 0;

/** @param {string} phase */
function setPhase(phase) {
  dlg.dataset.phase = phase;
  startBtn.hidden = phase !== "warn";
  practiceBtn.hidden = !(phase === "result" && session?.result?.practice);
  cancelBtn.textContent = t(phase === "result" || phase === "error" ? "common.close" : "common.cancel");
  dlg.classList.toggle("busy", phase === "running");
}

/** The time since Start as the player waited for it (never "0 s"), or `took` seconds. */
function seconds(took = (performance.now() - startedAt) / 1000) {
  return t("solve.seconds", { n: Math.max(1, Math.ceil(took - 0.05)) });
}

/** @param {ReviewProgress} p */
function showProgress(p) {
  progressEl.textContent = t("review.progress", { at: p.probing, moves: p.moves, count: formatNumber(p.probes), time: seconds() });
}

/**
 * Opens the dialog at its spoiler warning; the review starts when the player confirms.
 * @param {Hooks} hooks
 */
export function open(hooks) {
  const saved = hooks.getSaved();
  if (!saved) return;
  session = { ...hooks, saved };
  for (const el of [detailEl, noteEl, progressEl]) el.textContent = "";
  for (const el of [timelineEl, evidenceEl]) {
    el.replaceChildren();
    el.hidden = true;
  }
  unprovenEl.hidden = true;
  delete dlg.dataset.status;
  delete dlg.dataset.losing;
  delete dlg.dataset.proven;
  textEl.textContent = t("review.warning");
  dlg.returnValue = "";
  if (!dlg.open) dlg.showModal();
  setPhase("warn");
  startBtn.focus();
}

dlg.addEventListener("close", () => {
  // Closing while it runs (Cancel, Esc) stops the search.
  if (dlg.dataset.phase === "running") {
    solver.cancel("review");
    setPhase("cancelled");
  }
  session = null;
});

cancelBtn.addEventListener("click", () => dlg.close("done"));

startBtn.addEventListener("click", async () => {
  const s = session;
  if (!s) return;
  startedAt = performance.now();
  setPhase("running");
  textEl.textContent = t("review.running");
  progressEl.textContent = t("solve.starting");
  try {
    const budget = s.budget ?? { timeLimit: REVIEW_SECONDS, positionTimeLimit: POSITION_SECONDS };
    const options = { ...budget, onProgress: (/** @type {ReviewProgress} */ p) => session === s && showProgress(p) };
    const result = await solver.reviewSaved(s.saved, options);
    if (session !== s) return;
    s.result = result;
    s.took = (performance.now() - startedAt) / 1000;
    show(result);
  } catch (err) {
    if (session !== s || solver.isAbort(err)) return;
    setPhase("error");
    textEl.textContent = t("review.error");
  }
});

practiceBtn.addEventListener("click", () => {
  const s = session;
  const position = s?.result?.practice;
  if (!s || !position) return;
  dlg.close("practice");
  const losing = s.result?.losing;
  const probable = s.result?.probable?.move;
  s.practice(position, losing ? lostText(losing) : probable ? lostText(probable, true) : null);
});

/** @param {Review} r */
function show(r) {
  dlg.dataset.status = r.status;
  dlg.dataset.proven = String(r.proven);
  if (r.losing) dlg.dataset.losing = String(r.losing.number);
  textEl.textContent = resultText(r);
  const move = r.losing ?? r.probable?.move;
  detailEl.textContent = move ? losingText(move) : boundsText(r);
  unprovenEl.hidden = !r.probable;
  showEvidence(r.probable);
  noteEl.textContent = r.status === "won" ? "" : t("review.note");
  progressEl.textContent = t("review.done", { time: seconds(session?.took) });
  drawTimeline(r);
  setPhase("result");
}

/** @param {Review} r */
function resultText(r) {
  if (r.status === "won") return t("review.result.won");
  if (r.status === "still-winnable") return t("review.result.still");
  if (r.status === "never-winnable") return t("review.result.never");
  if (r.status === "lost" && r.losing) return t("review.result.lost", { n: r.losing.number });
  const p = r.probable;
  if (r.status === "probably-lost" && p) {
    if (p.earliest === p.number) return t("review.result.probable", { n: p.number });
    return t("review.result.probableRange", { from: p.earliest, to: p.number });
  }
  return t("review.result.unknown");
}

/**
 * The facts an unproven verdict rests on, one line each (none for a proven answer).
 * @param {ProbableLoss | null | undefined} p
 */
function showEvidence(p) {
  evidenceEl.replaceChildren();
  evidenceEl.hidden = !p;
  if (!p) return;
  const head = document.createElement("li");
  head.className = "head";
  head.textContent = t("review.evidence");
  evidenceEl.append(head);
  for (const fact of p.evidence) {
    const item = document.createElement("li");
    item.dataset.outcome = fact.outcome;
    item.textContent = factText(fact);
    evidenceEl.append(item);
  }
}

/**
 * One fact in words, in the player's language (as `fact_text` says it in the command line).
 * @param {ReviewFact} fact
 */
function factText(fact) {
  const s = formatDecimal(fact.seconds, 1);
  if (fact.outcome === "win-found") return fact.index === 0 ? t("review.fact.winStart", { s }) : t("review.fact.win", { n: fact.index, s });
  if (fact.outcome === "proven-lost") return t("review.fact.lost", { n: fact.index, s });
  return t("review.fact.none", { n: fact.index, s });
}

/** What is proven when the review could not tell, or tells what is probable between two
 * moves (or nothing to add). */
/** @param {Review} r */
function boundsText(r) {
  if (r.status !== "could-not-tell" && r.status !== "probably-lost") return "";
  const parts = [];
  if (r.last_winnable !== null) parts.push(r.last_winnable === 0 ? t("review.bound.start") : t("review.bound.low", { n: r.last_winnable }));
  if (r.first_unwinnable !== null) parts.push(t("review.bound.high", { n: r.first_unwinnable }));
  return parts.join(" ");
}

/** @param {LosingMove} l */
function losingText(l) {
  const a = l.action;
  const played =
    a.op === "deal" || a.dst === undefined || !l.card
      ? t("review.move.deal", { n: l.number })
      : t("review.move.move", { n: l.number, card: cardName(l.card), col: a.dst + 1 });
  const mv = l.hint.move;
  let hinted;
  if (!mv || !l.hint_card) hinted = t("review.hint.none");
  else {
    const key = `hint.reason.${l.hint.reason}`;
    const why = has(key) ? ` ${t(key, { suit: t(`suit.${l.hint_card.slice(-1)}`) })}` : "";
    hinted = t("review.hint.move", { card: cardName(l.hint_card), col: mv.dst + 1 }) + why;
  }
  const verdict = t(l.verdict === "bad-luck" ? "review.badLuck" : "review.mistake");
  return `${played} ${hinted} ${verdict}`;
}

/**
 * The losing move, to try something else in its place: said when a practice game starts
 * ("probably" when the loss is not proven).
 * @param {LosingMove} l
 * @param {boolean} [probable]
 */
function lostText(l, probable = false) {
  const a = l.action;
  const key = probable ? "review.practice.probable" : "review.practice.lost";
  if (a.op === "deal" || a.dst === undefined || !l.card) return t(`${key}Deal`);
  return t(key, { card: cardName(l.card), col: a.dst + 1 });
}

/**
 * The game's moves along a bar: those after which the game could still be won, those after which
 * it could not, those the solver left undecided, and the losing move marked (hollow when it is
 * only probable).
 * @param {Review} r
 */
function drawTimeline(r) {
  timelineEl.replaceChildren();
  timelineEl.hidden = r.moves === 0;
  timelineEl.classList.toggle("dense", r.moves > 60); // no gaps: hundreds of moves fit a phone
  const won = r.status === "won" || r.status === "still-winnable";
  const low = won ? r.moves : (r.last_winnable ?? -1);
  const high = r.first_unwinnable ?? r.moves + 1;
  for (let i = 1; i <= r.moves; i++) {
    const step = document.createElement("span");
    step.className = `step ${i <= low ? "ok" : i >= high ? "lost" : "unknown"}`;
    if (r.losing && i === r.losing.number) {
      step.classList.add("losing");
      step.title = t("review.marker", { n: i });
    } else if (r.probable && i === r.probable.number) {
      step.classList.add("probable");
      step.title = t("review.marker.probable", { n: i });
    }
    timelineEl.append(step);
  }
  timelineEl.setAttribute("aria-label", t("review.timeline", { n: r.moves }));
}

/** Re-translates the dialog after a change of language (its result is shown again). */
export function relabel() {
  if (!dlg.open || !session) return;
  if (session.result) show(session.result);
  else if (dlg.dataset.phase === "warn") textEl.textContent = t("review.warning");
}
