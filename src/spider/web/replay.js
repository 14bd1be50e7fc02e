// @ts-check
// Replays: "Share replay" copies a link holding the game's code and every action played
// (`#replay=…`, made by the engine: op "replay_link"); opening such a link shows that game in the
// replay view, with play, pause, step back and forward, a slider and a choice of speed (kept in
// the settings). The engine decodes the link
// and gives the view of each step (op "replay"), in a game of its own: the player's game, its
// saved copy and the statistics are never touched (nothing here calls the app state's `apply`).

import { $ } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { showMessage, toast } from "./messages.js";
import { Renderer } from "./render.js";
import * as settings from "./settings.js";

/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {(req: Request) => Promise<Reply>} Ask */
/** @typedef {{code: string, scoring: string, steps: number, step: number, actions: string[], view: GameState}} ReplayStep */

const PREFIX = "#replay=";
/** How long each action stays on the table while the replay plays at normal speed (1×). */
const PLAY_STEP_MS = 700;

const html = document.documentElement;
const dlg = $("#dlg-replay", document, HTMLDialogElement);
const slider = $("[data-replay-slider]", dlg, HTMLInputElement);
const playBtn = $("[data-replay-play]", dlg);
const speedSelect = $("[data-replay-speed]", dlg, HTMLSelectElement);

// The renderer draws the replay's own table: its selectors are answered inside the dialog.
// Its own attribute names too, so that nothing on the page finds two stocks or two tables.
const TABLE_PARTS = {
  "#table": "[data-replay-table]",
  "#columns": "[data-replay-columns]",
  "[data-stock]": "[data-replay-stock]",
  "[data-completed]": "[data-replay-completed]",
};
const root = { querySelector: (/** @type {string} */ sel) => dlg.querySelector(TABLE_PARTS[/** @type {keyof TABLE_PARTS} */ (sel)] ?? sel) };
const renderer = new Renderer(/** @type {Document} */ (/** @type {unknown} */ (root)));
renderer.animationsEnabled = () => settings.animate();

/** @type {{ask: Ask, link: string, steps: number, shown: number, wanted: number, busy: boolean, timer: number | null}} */
const view = { ask: async () => ({ ok: false }), link: "", steps: 0, shown: 0, wanted: 0, busy: false, timer: null };

/**
 * Copies the replay link of the game on the table (the engine makes it).
 * @param {Ask} ask
 */
export async function share(ask) {
  const reply = /** @type {Reply & {replay_link?: string}} */ (await ask({ op: "replay_link" }));
  if (!reply.ok || !reply.replay_link) {
    showMessage(t(`error.${reply.error?.code ?? "not-replayable"}`), { ms: 4000 });
    return;
  }
  const url = new URL("/", location.href);
  url.hash = reply.replay_link.slice(1);
  const link = url.toString();
  html.dataset.replayLink = link;
  try {
    await navigator.clipboard.writeText(link);
    toast(t("share.replay.copied"));
  } catch {
    toast(t("share.manual", { link }));
  }
}

/** The message for a link the engine refused: its reason when the page has words for it. */
function refusal(/** @type {Reply} */ reply) {
  const reason = reply.error?.message?.split(":")[0] ?? "";
  const key = `replay.error.${reason}`;
  const text = t(key);
  return text === key ? t(`error.${reply.error?.code ?? "invalid-replay"}`) : text;
}

/**
 * Shows step `step` of the current link; true when the engine answered it.
 * @param {number} step
 */
async function fetchStep(step) {
  const reply = /** @type {Reply & {replay?: ReplayStep}} */ (await view.ask({ op: "replay", link: view.link, step }));
  // Closed while the engine answered (Pause, then Close, during playback): drawing the step now
  // would put the replay's table back into the page under the player's own.
  if (!dlg.open || !reply.ok || !reply.replay) return false;
  const r = reply.replay;
  const jump = Math.abs(step - view.shown) > 1;
  view.shown = r.step;
  view.steps = r.steps;
  show(r, jump);
  return true;
}

/**
 * @param {ReplayStep} r
 * @param {boolean} jump
 */
function show(r, jump) {
  renderer.render(r.view, { fresh: jump && r.step === 0, animate: !jump });
  slider.max = String(r.steps);
  slider.value = String(r.step);
  $("[data-replay-code]", dlg).textContent = r.code;
  $("[data-replay-step]", dlg).textContent = t("replay.step", { step: r.step, steps: r.steps });
  $("[data-replay-action]", dlg).textContent = r.step > 0 ? r.actions[r.step - 1] : "";
  $("[data-replay-score]", dlg).textContent = String(r.view.score);
  $("[data-replay-moves]", dlg).textContent = String(r.view.moves);
  dlg.dataset.step = String(r.step);
  dlg.dataset.steps = String(r.steps);
  $("[data-replay-back]", dlg, HTMLButtonElement).disabled = r.step === 0;
  $("[data-replay-forward]", dlg, HTMLButtonElement).disabled = r.step === r.steps;
}

/** Goes to `view.wanted`, one request at a time (a dragged slider asks for many steps). */
async function seek(/** @type {number} */ step) {
  view.wanted = Math.max(0, Math.min(view.steps, step));
  if (view.busy) return;
  view.busy = true;
  try {
    while (view.shown !== view.wanted) {
      if (!(await fetchStep(view.wanted))) break;
    }
  } finally {
    view.busy = false;
  }
}

function pause() {
  if (view.timer !== null) clearInterval(view.timer);
  view.timer = null;
  dlg.dataset.playing = "false";
  playBtn.textContent = t("replay.play");
}

function play() {
  if (view.shown >= view.steps) seek(0);
  dlg.dataset.playing = "true";
  playBtn.textContent = t("replay.pause");
  if (view.timer !== null) clearInterval(view.timer);
  view.timer = window.setInterval(() => {
    if (view.busy) return;
    if (view.wanted >= view.steps) return pause();
    seek(view.wanted + 1);
  }, PLAY_STEP_MS / settings.get().replaySpeed);
}

/** The speeds to choose from, written the language's way ("0.5×", "0,5×"). */
function fillSpeeds() {
  speedSelect.replaceChildren(
    ...settings.REPLAY_SPEEDS.map((speed) => {
      const opt = document.createElement("option");
      opt.value = String(speed);
      opt.textContent = `${formatNumber(speed)}×`;
      return opt;
    }),
  );
  speedSelect.value = String(settings.get().replaySpeed);
}

// A new speed is kept in the settings, and a playing replay goes on at once at that speed.
speedSelect.addEventListener("change", () => {
  settings.update({ replaySpeed: Number(speedSelect.value) });
  if (view.timer !== null) play();
});

playBtn.addEventListener("click", () => (view.timer === null ? play() : pause()));
$("[data-replay-back]", dlg).addEventListener("click", () => {
  pause();
  seek(view.wanted - 1);
});
$("[data-replay-forward]", dlg).addEventListener("click", () => {
  pause();
  seek(view.wanted + 1);
});
slider.addEventListener("input", () => {
  pause();
  seek(Number(slider.value));
});
dlg.addEventListener("keydown", (e) => {
  if (e.target === slider || e.target === speedSelect) return; // their own keys change them
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    e.preventDefault();
    pause();
    seek(view.wanted + (e.key === "ArrowLeft" ? -1 : 1));
  }
});
dlg.addEventListener("close", () => {
  pause();
  renderer.columnsEl.replaceChildren(); // no second table stays in the page
  renderer.cols = [];
  renderer.nodes = [];
  renderer.state = null;
  delete html.dataset.replay;
});

/**
 * Opens a replay link in the replay view; says why when the engine refuses it.
 * @param {Ask} ask
 * @param {string} link
 */
export async function openLink(ask, link) {
  view.ask = ask;
  const reply = /** @type {Reply & {replay?: ReplayStep}} */ (await ask({ op: "replay", link, step: 0 }));
  if (!reply.ok || !reply.replay) {
    html.dataset.replay = "refused";
    showMessage(refusal(reply), { ms: 8000 });
    return false;
  }
  Object.assign(view, { link, shown: 0, wanted: 0, steps: reply.replay.steps });
  pause();
  fillSpeeds();
  if (!dlg.open) dlg.showModal();
  show(reply.replay, true);
  html.dataset.replay = "open";
  playBtn.focus({ preventScroll: true });
  return true;
}

/**
 * Opens the replay of the address's `#replay=` fragment, if it has one, and drops the fragment
 * (a reload shows the player's own game).
 * @param {Ask} ask
 */
export function openFromAddress(ask) {
  const hash = location.hash;
  if (!hash.startsWith(PREFIX)) return Promise.resolve(false);
  history.replaceState(null, "", location.pathname + location.search);
  return openLink(ask, hash);
}

/** Re-labels the replay view after a change of language. */
export function relabel() {
  if (!dlg.open) return;
  renderer.relabel();
  playBtn.textContent = t(view.timer === null ? "replay.play" : "replay.pause");
  fillSpeeds();
}
