// The solver in the page: "Is this deal winnable?", "Show solution" and "Winnable deals only".
//
// Searches run in a second engine worker (a separate Pyodide instance, started on first use), so
// play never waits for them. The solver reads every card, so its answers are spoilers: the
// dialog says so before it starts. Cancel terminates the worker at once; the next search starts
// a fresh one. The page still holds no rules: it loads the game's `saved` text into the solver
// worker and asks it `{"op": "solve"}` (docs/protocol.md).

import { EngineClient } from "./engine-client.js";
import { formatNumber, t } from "./i18n.js";

/** Seconds for "Is this deal winnable?" and "Show solution". */
export const CHECK_SECONDS = 60;
/** "Winnable deals only": seconds per deal tried, and the whole effort. */
export const FIND_PER_DEAL_SECONDS = 4;
export const FIND_TOTAL_SECONDS = 30;
const MEMORY_MB = 256;
const PROGRESS_EVERY = 1000;

const $ = (sel, root = document) => root.querySelector(sel);

let client = null;

function solverClient() {
  if (!client) {
    client = new EngineClient(undefined, { name: "solver" });
    client.start();
  }
  return client;
}

/** Stops a running search at once (its worker is terminated; the next search starts a new one). */
export function cancel() {
  if (!client || client.pending.size === 0) return;
  const c = client;
  client = null;
  c.terminate();
}

/** One request to the solver worker; rejects when the worker fails to start or is cancelled. */
function ask(req, onProgress = null) {
  const c = solverClient();
  if (c.status === "error") return Promise.reject(new Error("solver engine failed"));
  let onStatus = null;
  return new Promise((resolve, reject) => {
    onStatus = (e) => {
      if (e.detail.status === "error") reject(new Error(e.detail.detail ?? "solver engine failed"));
    };
    c.addEventListener("status", onStatus);
    c.request(req, { onProgress }).then(resolve, reject);
  }).finally(() => c.removeEventListener("status", onStatus));
}

/** Solves the game of `saved` (the main engine's saved text); resolves with the `solve` field. */
export async function solveSaved(saved, { timeLimit = CHECK_SECONDS, onProgress } = {}) {
  const loaded = await ask({ op: "load", saved });
  if (!loaded.ok) throw new Error(loaded.error?.code ?? "invalid-saved");
  const reply = await ask(
    { op: "solve", time_limit: timeLimit, memory_mb: MEMORY_MB, progress_every: PROGRESS_EVERY },
    onProgress,
  );
  if (!reply.ok) throw new Error(reply.error?.code ?? "solver");
  return reply.solve;
}

/**
 * The full "no more moves" check of the game of `saved`, in the solver's worker (used when the
 * game engine's quick, bounded check could not decide). Resolves with the `status` reply.
 */
export async function status(saved) {
  const loaded = await ask({ op: "load", saved });
  if (!loaded.ok) throw new Error(loaded.error?.code ?? "invalid-saved");
  return ask({ op: "status" });
}

/**
 * Tries random deals of `options` until the solver proves one winnable. Resolves with
 * `{number, code, solve}`, or null when none was proven within `total` seconds.
 */
export async function findWinnable(options, { perDeal = FIND_PER_DEAL_SECONDS, total = FIND_TOTAL_SECONDS, onProgress } = {}) {
  const started = performance.now();
  let tried = 0;
  let positions = 0;
  const elapsed = () => (performance.now() - started) / 1000;
  while (elapsed() < total) {
    const dealt = await ask({ op: "new", game: options.game, suits: options.suits, rule: options.rule, scoring: options.scoring, undo_limit: 0 });
    if (!dealt.ok) throw new Error(dealt.error?.code ?? "solver");
    tried += 1;
    const base = positions;
    onProgress?.({ tried, positions, elapsed: elapsed() });
    const limit = Math.max(0.2, Math.min(perDeal, total - elapsed()));
    const reply = await ask(
      { op: "solve", time_limit: limit, memory_mb: MEMORY_MB, progress_every: PROGRESS_EVERY },
      (p) => onProgress?.({ tried, positions: base + p.positions, elapsed: elapsed() }),
    );
    if (!reply.ok) throw new Error(reply.error?.code ?? "solver");
    positions = base + reply.solve.positions;
    onProgress?.({ tried, positions, elapsed: elapsed() });
    if (reply.solve.status === "winnable") return { number: dealt.state.number, code: dealt.state.code, solve: reply.solve, tried };
  }
  return null;
}

// ---- the dialog ----

const dlg = $("#dlg-solve");
const titleEl = $("[data-solve-title]", dlg);
const textEl = $("[data-solve-text]", dlg);
const progressEl = $("[data-solve-progress]", dlg);
const startBtn = $("[data-action='solve-start']", dlg);
const playBtn = $("[data-action='solve-play']", dlg);
const normalBtn = $("[data-action='solve-normal']", dlg);
const cancelBtn = $("[data-action='solve-cancel']", dlg);

let session = null; // {mode, ...} of the dialog now open
let lastResult = null; // {saved, solve}: the latest answer, reused while the position is the same

function setPhase(phase, result = null) {
  dlg.dataset.phase = phase;
  if (result) dlg.dataset.result = result;
  else delete dlg.dataset.result;
  startBtn.hidden = phase !== "warn";
  playBtn.hidden = !(phase === "result" && result === "winnable" && session?.mode === "check");
  normalBtn.hidden = !(phase === "result" && session?.mode === "find");
  cancelBtn.textContent = t(phase === "result" ? "common.close" : "common.cancel");
  dlg.classList.toggle("busy", phase === "running");
}

function seconds(s) {
  return t("solve.seconds", { n: Math.floor(s) });
}

function showProgress(p) {
  if (session?.mode === "find") {
    progressEl.textContent = t("solve.progress.find", { n: p.tried, positions: formatNumber(p.positions), time: seconds(p.elapsed) });
  } else {
    progressEl.textContent = t("solve.progress", { positions: formatNumber(p.positions), time: seconds(p.elapsed) });
  }
}

function open(mode, extra) {
  session = { mode, ...extra, run: 0 };
  titleEl.textContent = t(`solve.${mode}.title`);
  progressEl.textContent = "";
  dlg.returnValue = "";
  if (!dlg.open) dlg.showModal();
}

function close() {
  if (dlg.open) dlg.close("done");
}

dlg.addEventListener("close", () => {
  // Closing while a search runs (Cancel, Esc) cancels it.
  if (dlg.dataset.phase === "running") cancel();
  if (dlg.dataset.phase === "running") setPhase("cancelled", "cancelled");
  session = null;
});

cancelBtn.addEventListener("click", () => close());

/** The result text of a `solve` answer. */
function resultText(solve) {
  const positions = formatNumber(solve.positions);
  if (solve.status === "winnable") return t("solve.result.winnable", { n: solve.moves });
  if (solve.status === "unwinnable") return t("solve.result.unwinnable", { positions });
  return t("solve.result.undecided", { time: seconds(solve.elapsed), positions });
}

async function runSolve() {
  const s = session;
  const saved = s.getSaved();
  if (lastResult && lastResult.saved === saved) return lastResult.solve;
  setPhase("running");
  textEl.textContent = t("solve.running");
  progressEl.textContent = t("solve.starting");
  const solve = await solveSaved(saved, { onProgress: (p) => session === s && showProgress(p) });
  lastResult = { saved, solve };
  return solve;
}

startBtn.addEventListener("click", async () => {
  const s = session;
  if (!s) return;
  try {
    const solve = await runSolve();
    if (session !== s) return;
    if (s.mode === "solution" && solve.status === "winnable") {
      close();
      s.play(solve.actions);
      return;
    }
    showProgress({ positions: solve.positions, elapsed: solve.elapsed });
    setPhase("result", solve.status);
    textEl.textContent = resultText(solve);
    if (solve.status === "winnable") s.solution = solve.actions;
  } catch (err) {
    if (session !== s) return;
    if (err?.name === "AbortError") return;
    setPhase("result", "error");
    textEl.textContent = t("solve.error");
  }
});

playBtn.addEventListener("click", () => {
  const s = session;
  if (!s?.solution) return;
  close();
  s.play(s.solution);
});

normalBtn.addEventListener("click", () => {
  const s = session;
  close();
  s?.normal();
});

/** "Is this deal winnable?": a spoiler warning, then the search with progress and a result. */
export function openCheck({ getSaved, play }) {
  open("check", { getSaved, play });
  textEl.textContent = t("solve.check.warning");
  startBtn.textContent = t("solve.check.start");
  setPhase("warn");
  startBtn.focus();
}

/** "Show solution": a spoiler warning, then (after a search when needed) the demo. */
export function openSolution({ getSaved, play }) {
  open("solution", { getSaved, play });
  textEl.textContent = t("solve.solution.warning");
  startBtn.textContent = t("solve.solution.start");
  setPhase("warn");
  startBtn.focus();
}

/**
 * "Winnable deals only": looks for a deal of `options` the solver proves winnable, with
 * progress and Cancel. `deal(number)` starts the one found; `normal()` deals an ordinary game
 * when none was found in time.
 */
export async function openFind(options, { deal, normal }) {
  open("find", { normal });
  setPhase("running");
  textEl.textContent = t("solve.find.running");
  progressEl.textContent = t("solve.starting");
  const s = session;
  try {
    const found = await findWinnable(options, { onProgress: (p) => session === s && showProgress(p) });
    if (session !== s) return;
    if (found) {
      close();
      deal(found.number, found.solve);
      return;
    }
    setPhase("result", "none");
    textEl.textContent = t("solve.find.none", { time: seconds(FIND_TOTAL_SECONDS) });
  } catch (err) {
    if (session !== s || err?.name === "AbortError") return;
    setPhase("result", "error");
    textEl.textContent = t("solve.error");
  }
}

/** Re-translates the static labels after a change of language. */
export function relabel() {
  if (!dlg.open || !session) return;
  titleEl.textContent = t(`solve.${session.mode}.title`);
}
