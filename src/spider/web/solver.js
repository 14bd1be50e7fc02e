// @ts-check
// The solver in the page: "Is this deal winnable?", "Show solution" and "Think harder".
//
// Searches run in a second engine worker (a separate Pyodide instance, started on first use), so
// play never waits for them. The solver reads every card, so its answers are spoilers: the
// dialog says so before it starts ("Think harder", think.js, reads only what the player sees).
// Cancel interrupts the search at once and keeps the worker for the next one (when the page is
// cross-origin isolated; otherwise the worker is terminated and the next search starts a fresh
// one). The page still holds no rules: it loads the game's `saved` text into the solver worker
// and asks it `{"op": "solve"}`, `{"op": "think"}`, `{"op": "review"}` or `{"op": "status"}`
// (docs/protocol.md). Each of these is a job of two requests (load, then the question) run one
// job at a time, so another job's `load` never comes between them; a job names its owner
// ("solve", "think", "review", "status"), and `cancel(owner)` stops only that owner's jobs.
// `<html data-solver-starts>` counts the solver workers started (read by the tests).
//
// Where the page is served by `spider serve`, its `/engine.json` names a solver API (`api`):
// "Think harder" and the review are then asked there (server.js: the same engine, compiled, on the
// server's cores), with the same progress and answers; the worker answers when the server refuses,
// is busy or cannot be reached. "Think harder" sends the server only what the player sees (op
// `visible` of the game engine), never the saved game.

import { $ } from "./dom.js";
import { EngineClient } from "./engine-client.js";
import { formatNumber, t } from "./i18n.js";
import * as server from "./server.js";

/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").SolveInfo} SolveInfo */
/** @typedef {import("./types.js").SolveProgress} SolveProgress */
/** @typedef {import("./types.js").Review} Review */
/** @typedef {import("./types.js").ReviewProgress} ReviewProgress */
/** @typedef {import("./types.js").ThinkProgress} ThinkProgress */

/** Seconds for "Is this deal winnable?" and "Show solution". */
export const CHECK_SECONDS = 60;
const MEMORY_MB = 256;
const PROGRESS_EVERY = 1000;

// The solver's worker, started on first use (a worker handle, not app state).
/** @type {EngineClient | null} */
let client = null;

function solverClient() {
  if (!client) {
    client = new EngineClient(undefined, { name: "solver" });
    client.start();
    const root = document.documentElement;
    root.dataset.solverStarts = String(Number(root.dataset.solverStarts ?? 0) + 1);
  }
  return client;
}

/** @typedef {{owner: string, cancelled: boolean}} Job */

// The solver worker's job queue (a scheduler's bookkeeping, not app state).
/** @type {Job | null} the job whose requests the worker is answering */
let running = null;
/** @type {Set<Job>} jobs waiting for the worker */
const waiting = new Set();
/** @type {Promise<unknown>} the end of the last job queued */
let queue = Promise.resolve();

const aborted = () => new DOMException("cancelled", "AbortError");

/**
 * Whether `err` is a search's cancellation (an AbortError) rather than a failure.
 * @param {unknown} err
 */
export function isAbort(err) {
  return err instanceof DOMException && err.name === "AbortError";
}

/**
 * Runs `fn` (its requests to the solver worker) once the jobs queued before it have ended.
 * @template T
 * @param {string} owner
 * @param {(job: Job) => Promise<T>} fn
 * @returns {Promise<T>}
 */
function exclusive(owner, fn) {
  /** @type {Job} */
  const job = { owner, cancelled: false };
  waiting.add(job);
  const run = queue.then(async () => {
    waiting.delete(job);
    if (job.cancelled) throw aborted();
    running = job;
    try {
      return await fn(job);
    } finally {
      running = null;
    }
  });
  queue = run.catch(() => {});
  return run;
}

/**
 * Stops the searches of `owner` at once: the one running is interrupted in its worker (or the
 * worker is terminated), the waiting ones never start. Their promises reject with an AbortError.
 * @param {"solve" | "think" | "review" | "status"} owner
 */
export function cancel(owner) {
  server.cancel(owner);
  for (const job of waiting) if (job.owner === owner) job.cancelled = true;
  if (running?.owner !== owner) return;
  running.cancelled = true; // between its two requests: the second is never sent
  if (!client || client.pending.size === 0) return;
  if (client.interrupt()) return; // the worker stays warm for the next search
  const c = client;
  client = null;
  c.terminate();
}

/**
 * One request to the solver worker; rejects when the worker fails to start or is cancelled.
 * The progress messages are the protocol's, typed by it as the replies are.
 * @template P
 * @param {Request} req
 * @param {((data: P) => void) | null} [onProgress]
 * @returns {Promise<Reply>}
 */
function ask(req, onProgress = null) {
  const c = solverClient();
  if (c.status === "error") return Promise.reject(new Error("solver engine failed"));
  /** @type {((e: Event) => void) | null} */
  let onStatus = null;
  const progress = onProgress && ((/** @type {unknown} */ data) => onProgress(/** @type {P} */ (data)));
  return new Promise((resolve, reject) => {
    onStatus = (e) => {
      const { detail } = /** @type {CustomEvent<{status: string, detail?: string}>} */ (e);
      if (detail.status === "error") reject(new Error(detail.detail ?? "solver engine failed"));
    };
    c.addEventListener("status", onStatus);
    c.request(req, { onProgress: progress }).then(resolve, reject);
  }).finally(() => c.removeEventListener("status", onStatus));
}

/**
 * Loads the game of `saved` in the solver worker, then asks `req` (unless `job` was cancelled
 * meanwhile); resolves with the reply.
 * @template P
 * @param {Job} job
 * @param {string} saved
 * @param {Request} req
 * @param {((data: P) => void) | null} [onProgress]
 */
async function askAbout(job, saved, req, onProgress = null) {
  const loaded = await ask({ op: "load", saved });
  if (!loaded.ok) throw new Error(loaded.error?.code ?? "invalid-saved");
  if (job.cancelled) throw aborted();
  return ask(req, onProgress);
}

/**
 * Solves the game of `saved` (the main engine's saved text); resolves with the `solve` field.
 * @param {string} saved
 * @param {{timeLimit?: number, onProgress?: (data: SolveProgress) => void}} [opts]
 * @returns {Promise<SolveInfo>}
 */
export function solveSaved(saved, { timeLimit = CHECK_SECONDS, onProgress } = {}) {
  return exclusive("solve", async (job) => {
    const req = { op: "solve", time_limit: timeLimit, memory_mb: MEMORY_MB, progress_every: PROGRESS_EVERY };
    const reply = await askAbout(job, saved, req, onProgress);
    if (!reply.ok || !reply.solve) throw new Error(reply.error?.code ?? "solver");
    return reply.solve;
  });
}

/**
 * "Think harder" on the game of `saved`: a search over what the player sees, for `timeLimit`
 * seconds; resolves with the `think` field. `onProgress` gets `{iterations, elapsed, best,
 * share, action}` now and then. `cancel("think")` stops it. `visible` gives what the player
 * sees of `saved` (op `visible`), or null: where the page has a server, the search runs there
 * on that alone.
 * @param {string} saved
 * @param {{timeLimit: number, onProgress?: (data: ThinkProgress) => void, visible?: () => Promise<Record<string, unknown> | null>}} opts
 * @returns {Promise<import("./types.js").ThinkInfo>}
 */
export async function thinkSaved(saved, { timeLimit, onProgress, visible }) {
  const answer = await server.ask("think", async () => {
    const form = visible ? await visible() : null;
    return form && { visible: form, time_limit: timeLimit };
  }, onProgress);
  if (answer) return /** @type {import("./types.js").ThinkInfo} */ (answer);
  return exclusive("think", async (job) => {
    const reply = await askAbout(job, saved, { op: "think", time_limit: timeLimit, progress_every: 1 }, onProgress);
    if (!reply.ok || !reply.think) throw new Error(reply.error?.code ?? "solver");
    return reply.think;
  });
}

/**
 * The limits of a review: seconds in all and per position, and (optional) the positions each
 * solver run may store.
 * @typedef {{timeLimit?: number, positionTimeLimit?: number, nodeLimit?: number}} ReviewBudget
 */

/**
 * "Where did I lose it?": reviews the game of `saved` (op `review`, docs/protocol.md) on the
 * page's server where it has one, else in the solver's worker; resolves with the `review` field.
 * `cancel("review")` stops it.
 * @param {string} saved
 * @param {ReviewBudget & {onProgress?: (data: ReviewProgress) => void}} [opts]
 * @returns {Promise<Review>}
 */
export async function reviewSaved(saved, { timeLimit = CHECK_SECONDS, positionTimeLimit = 10, nodeLimit, onProgress } = {}) {
  const limits = nodeLimit === undefined ? {} : { node_limit: nodeLimit };
  const question = { saved, time_limit: timeLimit, position_time_limit: positionTimeLimit, ...limits };
  const answer = await server.ask("review", async () => question, onProgress);
  if (answer) return /** @type {Review} */ (answer);
  return exclusive("review", async (job) => {
    /** @type {Request} */
    const req = { op: "review", time_limit: timeLimit, position_time_limit: positionTimeLimit, memory_mb: MEMORY_MB, progress_every: PROGRESS_EVERY };
    if (nodeLimit !== undefined) req.node_limit = nodeLimit;
    const reply = await askAbout(job, saved, req, onProgress);
    if (!reply.ok || !reply.review) throw new Error(reply.error?.code ?? "solver");
    return reply.review;
  });
}

/**
 * The full "no more moves" check of the game of `saved`, in the solver's worker (used when the
 * game engine's quick, bounded check could not decide). Resolves with the `status` reply.
 * @param {string} saved
 */
export function status(saved) {
  return exclusive("status", (job) => askAbout(job, saved, { op: "status" }));
}

// ---- the dialog ----

const dlg = $("#dlg-solve", document, HTMLDialogElement);
const titleEl = $("[data-solve-title]", dlg);
const textEl = $("[data-solve-text]", dlg);
const progressEl = $("[data-solve-progress]", dlg);
const startBtn = $("[data-action='solve-start']", dlg);
const playBtn = $("[data-action='solve-play']", dlg);
const cancelBtn = $("[data-action='solve-cancel']", dlg);

/**
 * What the dialog asks for the game (`getSaved`) and does with a solution (`play`).
 * @typedef {{getSaved: () => string | null, play: (actions: Request[]) => void}} SolveHooks
 */

// The dialog now open, its mode and the solution it found (a dialog's own state, not app state).
/** @type {(SolveHooks & {mode: "check" | "solution", solution?: Request[]}) | null} */
let session = null;
/** @type {number | null} when the running search was asked for (performance.now()) */
let startedAt = null;
// A cache: the latest answer, reused while the position is the same.
/** @type {{saved: string, solve: SolveInfo} | null} */
let lastResult = null;

/**
 * @param {string} phase
 * @param {string | null} [result]
 */
function setPhase(phase, result = null) {
  dlg.dataset.phase = phase;
  if (result) dlg.dataset.result = result;
  else delete dlg.dataset.result;
  startBtn.hidden = phase !== "warn";
  playBtn.hidden = !(phase === "result" && result === "winnable" && session?.mode === "check");
  cancelBtn.textContent = t(phase === "result" ? "common.close" : "common.cancel");
  dlg.classList.toggle("busy", phase === "running");
}

/** @param {number} s */
function seconds(s) {
  return t("solve.seconds", { n: Math.max(1, Math.ceil(s - 0.05)) }); // never "0 s"
}

/**
 * The search's time as the player lived it: from the click on Start (starting the solver's
 * worker included) to now, or the solver's own count when that is longer.
 * @param {number} elapsed the solver's seconds
 */
function wallSeconds(elapsed) {
  const since = startedAt === null ? 0 : (performance.now() - startedAt) / 1000;
  return Math.max(elapsed, since);
}

/** @param {SolveProgress} p */
function showProgress(p) {
  progressEl.textContent = t("solve.progress", { positions: formatNumber(p.positions), time: seconds(wallSeconds(p.elapsed)) });
}

/**
 * Opens the dialog for `mode` at its spoiler warning.
 * @param {"check" | "solution"} mode
 * @param {SolveHooks} hooks
 */
function open(mode, hooks) {
  session = { mode, ...hooks };
  titleEl.textContent = t(`solve.${mode}.title`);
  progressEl.textContent = "";
  dlg.returnValue = "";
  if (!dlg.open) dlg.showModal();
  textEl.textContent = t(`solve.${mode}.warning`);
  startBtn.textContent = t(`solve.${mode}.start`);
  setPhase("warn");
  startBtn.focus();
}

function close() {
  if (dlg.open) dlg.close("done");
}

dlg.addEventListener("close", () => {
  // Closing while a search runs (Cancel, Esc) cancels it.
  if (dlg.dataset.phase === "running") cancel("solve");
  if (dlg.dataset.phase === "running") setPhase("cancelled", "cancelled");
  session = null;
});

cancelBtn.addEventListener("click", () => close());

/**
 * The result text of a `solve` answer.
 * @param {SolveInfo} solve
 */
function resultText(solve) {
  const positions = formatNumber(solve.positions);
  if (solve.status === "winnable") return t("solve.result.winnable", { n: solve.moves });
  if (solve.status === "unwinnable") return t("solve.result.unwinnable", { positions });
  return t("solve.result.undecided", { time: seconds(wallSeconds(solve.elapsed)), positions });
}

/**
 * The answer for the dialog's game: the last one when the position is the same, else a search.
 * @param {SolveHooks} s
 */
async function runSolve(s) {
  const saved = s.getSaved() ?? "";
  if (lastResult && lastResult.saved === saved) {
    startedAt = null; // the earlier answer, at once: its own time is shown
    return lastResult.solve;
  }
  startedAt = performance.now();
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
    const solve = await runSolve(s);
    if (session !== s) return;
    if (s.mode === "solution" && solve.status === "winnable") {
      close();
      s.play(solve.actions);
      return;
    }
    if (startedAt !== null) solve.elapsed = wallSeconds(solve.elapsed); // kept for a second look
    showProgress({ positions: solve.positions, elapsed: solve.elapsed });
    setPhase("result", solve.status);
    textEl.textContent = resultText(solve);
    if (solve.status === "winnable") s.solution = solve.actions;
  } catch (err) {
    if (session !== s) return;
    if (isAbort(err)) return;
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

/**
 * "Is this deal winnable?": a spoiler warning, then the search with progress and a result.
 * @param {SolveHooks} hooks
 */
export function openCheck({ getSaved, play }) {
  open("check", { getSaved, play });
}

/**
 * "Show solution": a spoiler warning, then (after a search when needed) the demo.
 * @param {SolveHooks} hooks
 */
export function openSolution({ getSaved, play }) {
  open("solution", { getSaved, play });
}

/** Re-translates the static labels after a change of language. */
export function relabel() {
  if (!dlg.open || !session) return;
  titleEl.textContent = t(`solve.${session.mode}.title`);
}
