// @ts-check
// The app's wiring: the engine, the app state (state.js), the table, input, storage and dialogs.
//
// Flow: an input (pointer, keyboard, button) becomes a protocol request → the engine client sends
// it to the worker → `store.apply(reply)` updates the one app state → its subscribers draw the
// table and the controls, run the clock, keep the statistics, save, announce, and ask whether
// moves are left. The page never decides what is legal: it shows the engine's state and the
// engine's refusals.

import { shake } from "./anim.js";
import * as backupdoc from "./backupdoc.js";
import * as backupUi from "./backupui.js";
import { engine } from "./boot.js";
import { showEngineStatus, updateStatus } from "./controls.js";
import * as daily from "./daily.js";
import { Demo } from "./demo.js";
import * as dialogs from "./dialogs.js";
import { $ } from "./dom.js";
import { DragController } from "./drag.js";
import { Hints } from "./hint.js";
import * as i18n from "./i18n.js";
import * as kept from "./kept.js";
import { Keyboard } from "./keyboard.js";
import { announce, describe, hideMessage, messageFor, notice, showMessage, toast } from "./messages.js";
import { NoMoves } from "./nomoves.js";
import * as recent from "./recent.js";
import { record } from "./records.js";
import { Renderer } from "./render.js";
import * as replay from "./replay.js";
import * as statsView from "./statsview.js";
import * as review from "./review.js";
import { Saver } from "./saving.js";
import * as settings from "./settings.js";
import * as solver from "./solver.js";
import * as sound from "./sound.js";
import { codeRequest, showLinkRefusal, startApp } from "./start.js";
import { inProgress, Store } from "./state.js";
import { makeSnapshotLater } from "./snapshot.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";
import { Sync, serviceUrl } from "./sync.js";
import * as syncView from "./syncview.js";
import { TapInput } from "./taps.js";
import { ThinkHarder } from "./think.js";
import { Timer } from "./timer.js";

/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").StoredGame} StoredGame */

const html = document.documentElement;
const now = () => performance.now();

const store = new Store();
const renderer = new Renderer();
const timer = new Timer((/** @type {number} */ ms) => {
  $("[data-time]").textContent = i18n.formatTime(ms);
});
renderer.animationsEnabled = () => settings.animate();
const settled = () => renderer.settled;

/** @param {import("./types.js").GameState} game */
const gameName = (game) => dialogs.variantName(stats.variantKey(game));

// ---- the engine ----

/**
 * Sends a request and applies its reply. Before the first reply is applied (the engine is still
 * starting), player input is refused with a message, never kept to be applied seconds later.
 * @param {Request} req
 * @param {Context} [ctx]
 * @returns {Promise<Reply>}
 */
async function send(req, ctx = {}) {
  if (!store.state.booted && !ctx.boot) {
    paint({ animate: true }); // puts dragged cards back
    showMessage(i18n.t("engine.wait"), { tone: "info", ms: 2500 });
    return { ok: false, error: { code: "not-ready", message: "the engine is starting" } };
  }
  // An action is kept at once, before the engine answers (saving.js, pending.js).
  if (!ctx.pending) ctx = { ...ctx, pending: saver.sent(req) };
  const reply = await engine.request(req);
  store.apply(reply, req, ctx);
  return reply;
}

/** @param {Request} req */
const ask = (req) => engine.request(req);

engine.addEventListener("status", (e) => {
  const status = /** @type {CustomEvent} */ (e).detail.status;
  if (status === "ready") performance.mark("spider:engine-timings", { detail: engine.timings });
  store.set({ engine: status === "error" ? "error" : status === "ready" ? "ready" : "loading" });
});
// boot.js started the worker before this module ran: it may be ready already.
if (engine.ready) store.set({ engine: "ready" });

// ---- the table ----

// Not app state: the view's scheduling (a paint put off until the drag ends) and a benchmark mark.
/** @type {{fresh?: boolean, animate?: boolean} | null} */
let deferredRender = null;
let firstPaint = true;

/**
 * Draws the table and the controls from the app state (after a drag, when one is under way).
 * @param {{fresh?: boolean, animate?: boolean}} [opts]
 */
function paint(opts = {}) {
  const game = store.state.game;
  if (!game) return;
  if (drag.active) {
    deferredRender = opts;
    return;
  }
  deferredRender = null;
  const hadFocus = renderer.columnsEl.contains(document.activeElement);
  hints.clear();
  taps.clear();
  const t0 = performance.now();
  renderer.render(game, opts);
  updateStatus(store.state);
  keyboard.sync(game, hadFocus);
  performance.measure("spider:render", { start: t0, end: performance.now() });
  if (firstPaint) {
    firstPaint = false;
    markAfterPaint("spider:first-table");
  }
}

/** @param {string} name a user-timing mark once the coming frame is painted (for benchmarks) */
function markAfterPaint(name) {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
}

/** @param {Context | undefined} ctx */
function markLatency(ctx) {
  if (!ctx?.kind || ctx.t0 === undefined) return;
  const { kind, t0 } = ctx;
  requestAnimationFrame(() =>
    setTimeout(() => {
      try {
        performance.measure(`spider:${kind}`, { start: t0, end: performance.now() });
      } catch {
        // User timing is optional.
      }
    }, 0),
  );
}

// ---- subscribers of the app state ----

/** @param {Change} change */
function view(change) {
  const { reply, req, ctx } = change;
  // The "no more moves" verdict, for the style sheet and the tests (never read back).
  if (change.state.noMoves) html.dataset.noMoves = "true";
  else delete html.dataset.noMoves;
  if (!reply || !req) {
    showEngineStatus(change.state);
    return;
  }
  if (!reply.ok) paint({ animate: true }); // snaps dragged or held cards back
  else {
    hideMessage();
    const fresh = req.op === "new" || req.op === "open" || req.op === "restart";
    paint({ fresh, animate: req.op !== "load" && !(fresh && ctx?.boot) });
  }
  markLatency(ctx);
}

/** @param {Change} change */
function clock(change) {
  const { reply, req, state } = change;
  if (!reply?.ok || !req || !state.game) return;
  if (req.op === "new" || req.op === "open" || req.op === "restart") timer.set(0);
  else if (req.op === "load") timer.set(state.meta.elapsed);
  timer.run(state.meta.started && !state.game.won);
}

/** @param {Change} change */
function announcements(change) {
  const { reply, req, ctx = {}, state } = change;
  if (!reply || !req || !state.game) return;
  if (!reply.ok) {
    if (ctx.quiet) return;
    const text = messageFor(reply.error?.code ?? "unknown", state.game);
    showMessage(text);
    announce(text);
    if (ctx.col !== undefined) shake(renderer.columnEl(ctx.col), settings.animate());
    if (req.op === "deal") shake(renderer.stockEl, settings.animate());
    return;
  }
  if (ctx.boot) return;
  const said = describe(reply.events, state.game, gameName, change.prev.game);
  // The last move and the win are said together: the dialog that opens follows the table.
  const won = change.won ? i18n.t(state.meta.assisted ? "win.assisted.title" : "win.title") : "";
  const text = [said, won].filter(Boolean).join(" ");
  if (text) announce(text);
}

/** Unreadable stored data is said once (kept.js); saving that stops working, by the notice. */
const reportStorageProblems = () => kept.report();

const saver = new Saver(store, { elapsed: () => timer.elapsed, takeUp: (stored) => takeUp(stored) });
const noMoves = new NoMoves(store, ask, { settled, choose: onNoMovesChoice });
const hints = new Hints(store, renderer, ask, noMoves);
const thinker = new ThinkHarder(store, hints, ask);
const demo = new Demo(store, { send, settled, onStart: () => hints.clear() });

store.subscribe(view);
store.subscribe(clock);
store.subscribe((change) => record(change, { elapsed: () => timer.elapsed, settled, onNew: openNewGame }));
store.subscribe((change) => saver.answered(change)); // saved at once
store.subscribe((change) => daily.record(change, () => timer.elapsed)); // daily deals won
store.subscribe(announcements);
store.subscribe((change) => thinker.changed(change));
store.subscribe((change) => {
  const { reply, req, ctx } = change;
  if (!reply?.ok || ctx?.boot || req?.op === "load") return;
  const effect = sound.effectOf(reply.events, Boolean(change.won));
  if (effect) sound.play(effect);
});
store.subscribe((change) => {
  if (!change.reply?.ok) return;
  if (!change.ctx?.boot) reportStorageProblems(); // those of the start: said once it is over
  noMoves.check();
});
store.subscribe((change) => {
  if (change.prev.demo && !change.state.demo) noMoves.check();
});

// Saving that stops working is said at once, and stays said until it works again.
storage.onWritable((ok) => notice(ok ? null : i18n.t("storage.write")));

/**
 * Another tab saved a newer game: this tab takes it up (and says so) instead of overwriting it.
 * @param {StoredGame} stored
 */
async function takeUp(stored) {
  await booted;
  if (stored.saved === store.state.saved) return;
  demo.stop(false);
  const reply = await engine.request({ op: "load", saved: stored.saved, undo_limit: settings.get().undoLimit });
  if (!reply.ok) return;
  store.adopt(stored);
  store.apply(reply, { op: "load" }, { boot: true });
  // A restored backup says itself what it changed.
  if (!backupdoc.isApplied(stored)) toast(i18n.t("sync.newer"));
}

/** @param {string} choice the answer to "No more moves" */
function onNoMovesChoice(choice) {
  if (choice === "undo") undo();
  else if (choice === "restart") send({ op: "restart" }, { kind: "restart", t0: now() });
  else if (choice === "new") openNewGame();
  else if (choice === "review") openReview();
}

// ---- player actions ----

/**
 * @param {number} src
 * @param {number} dst
 * @param {number} count
 */
function move(src, dst, count, t0 = now()) {
  return send({ op: "move", src, dst, count }, { kind: "move", t0, col: src });
}

/**
 * @param {number} src
 * @param {number} count
 */
function auto(src, count, t0 = now()) {
  return send({ op: "auto", src, count }, { kind: "move", t0, col: src });
}

function deal(t0 = now()) {
  return send({ op: "deal" }, { kind: "deal", t0 });
}

function undo(t0 = now()) {
  const game = store.state.game;
  if (game && !game.can_undo) return showMessage(messageFor("nothing-to-undo", game), { ms: 1800 });
  return send({ op: "undo" }, { kind: "undo", t0 });
}

function redo(t0 = now()) {
  const game = store.state.game;
  if (game && !game.can_redo) return showMessage(messageFor("nothing-to-redo", game), { ms: 1800 });
  return send({ op: "redo" }, { kind: "redo", t0 });
}

async function restart() {
  const game = store.state.game;
  if (!game) return;
  if (game.moves > 0) {
    const ok = await dialogs.confirm({ title: i18n.t("restart.title"), text: i18n.t("restart.text"), ok: i18n.t("action.restart") });
    if (!ok) return;
  }
  send({ op: "restart" }, { kind: "restart", t0: now() });
}

/** The options of the game on the table, else those of the settings. */
function currentOptions() {
  const game = store.state.game;
  const o = settings.get().options;
  return game ? { game: game.game, suits: game.suits, rule: game.rule, scoring: game.scoring } : o;
}

/**
 * Asks before a game in progress is abandoned (a new deal, another code): true to go on. No
 * question when no move was made yet or the game is over (won, or no more moves).
 */
async function confirmAbandon() {
  const { game, meta } = store.state;
  if (!inProgress(game, meta) || store.state.noMoves) return true;
  return dialogs.confirm({ title: i18n.t("abandon.title"), text: i18n.t("abandon.text"), ok: i18n.t("abandon.ok") });
}

/**
 * Deals a new game with `options` (and remembers them); deal `number` when given.
 * @param {{game: string, suits: number, rule: string, scoring: string, winnable?: boolean}} options
 * @param {number | null} [number]
 */
async function newGame(options, number = null) {
  if (!(await confirmAbandon())) return;
  const { winnable, ...rest } = options;
  settings.update(winnable === undefined ? { options: rest } : { options: rest, winnableOnly: winnable });
  const o = settings.get().options;
  /** @type {Request} */
  const req = { op: "new", ...o, undo_limit: settings.get().undoLimit };
  // "Winnable deals only": the engine deals from its catalogue of deals proven winnable.
  if (number !== null && number >= 0) req.number = number;
  else if (winnable) Object.assign(req, { winnable: true, avoid: recent.recentWinnable(o) });
  const reply = await send(req, { kind: "new", t0: now() });
  const dealt = reply.state?.number;
  if (!req.winnable || !reply.ok || dealt === null || dealt === undefined) return;
  recent.rememberWinnable(o, dealt);
  toast(i18n.t("new.winnable.dealt"));
}

/** S: the next suit count (1 → 2 → 4 → 1) of the same game, dealt at once. */
function cycleSuits() {
  const o = currentOptions();
  newGame({ ...o, suits: { 1: 2, 2: 4, 4: 1 }[o.suits] ?? 1, winnable: settings.get().winnableOnly });
}

/**
 * Opens the game of an "open" request (a typed code, a link) in place of the one on the table,
 * asking first when a game is in progress; returns the refusal's code, "cancelled", or null.
 * @param {Request} req
 */
async function openGame(req) {
  if (!(await confirmAbandon())) return "cancelled";
  const reply = await send(req, { kind: "new", t0: now(), quiet: true });
  if (!reply.ok || !reply.state) return reply.error?.code ?? "invalid-code";
  const o = reply.state;
  settings.update({ options: { game: o.game, suits: o.suits, rule: o.rule, scoring: o.scoring } });
  return null;
}

/**
 * Opens the game of a code; returns the refusal's code, "cancelled", or null.
 * @param {string} code
 */
function openCode(code) {
  return openGame(codeRequest(code, currentOptions().scoring));
}

/**
 * A link opened while a game was in progress: asked like New game, and said when it is refused.
 * @param {Request} req
 */
async function openLink(req) {
  const refused = await openGame(req);
  if (refused && refused !== "cancelled") showLinkRefusal(refused, store.state.game);
}

function openNewGame() {
  dialogs.openNew({ ...currentOptions(), winnable: settings.get().winnableOnly }, {
    onDeal: (/** @type {{game: string, suits: number, rule: string, scoring: string, winnable?: boolean}} */ options) => newGame(options),
    onOpenCode: openCode,
  });
}

/**
 * Copies a link that opens the same deal: `/?code=` for a game with a code, else `/?position=`
 * with the starting position, which the engine gives on request (`export`: it shows every card,
 * so it is never part of the state).
 */
async function share() {
  const game = store.state.game;
  if (!game) return;
  const url = new URL("/", location.href);
  if (game.code) url.searchParams.set("code", game.code);
  else {
    const reply = await ask({ op: "export" });
    if (!reply.ok || !reply.export) return;
    url.searchParams.set("position", reply.export.start);
  }
  const link = url.toString();
  html.dataset.shareLink = link;
  try {
    await navigator.clipboard.writeText(link);
    toast(game.code ? i18n.t("share.copied", { code: game.code }) : i18n.t("share.copiedPosition"));
  } catch {
    toast(i18n.t("share.manual", { link }));
  }
}

// ---- "Where did I lose it?" (review.js) ----

/** Reviews the game on the table (`saved`: or a game left for another, offered in a toast). */
function openReview(saved = store.state.saved) {
  review.open({ getSaved: () => saved, practice });
}

/**
 * Plays on from a position of a review as a practice game: opened like a position, and never
 * counted in the statistics or records (`ctx.practice`, state.js), even at a deal's first layout.
 * The losing move is said, so that the player tries another; no hint is shown unasked (the quick
 * hint may well advise that very move).
 * @param {string} position
 * @param {string | null} lost the losing move in words
 */
async function practice(position, lost) {
  if (!(await confirmAbandon())) return;
  const req = { op: "open", position, undo_limit: settings.get().undoLimit };
  const reply = await send(req, { kind: "new", t0: now(), practice: true });
  if (!reply.ok) return;
  const started = i18n.t("review.practice.started");
  toast(lost ? `${started} ${lost}` : started);
}

store.subscribe(({ abandoned, prev, ctx, state }) => {
  html.dataset.practice = String(state.meta.practice === true);
  // A game left unfinished for another: the review is offered, never run unasked (a spoiler).
  if (!abandoned || ctx?.practice || !prev.saved || !abandoned.meta.started || abandoned.meta.won) return;
  const saved = prev.saved;
  toast(i18n.t("review.offer"), { label: i18n.t("action.review"), run: () => openReview(saved) });
});

function solverHooks() {
  return { getSaved: () => store.state.saved, play: (/** @type {Request[]} */ actions) => demo.play(actions) };
}

/**
 * The groups of `count` top cards of column `src` may go to these columns (the engine's `dests`).
 * @param {number} src
 * @param {number} count
 */
function destinations(src, count) {
  const c = store.state.game?.columns[src];
  return c && count <= c.pickup ? (c.dests[count - 1] ?? []) : [];
}

// ---- wiring: pointer ----

const drag = new DragController(renderer, {
  canStart: () => store.state.game !== null,
  accepts: destinations,
  highlight: () => settings.get().highlight,
  // Automatic placement off (the default): a drop lands where it is dropped, or is refused.
  forgiving: () => settings.get().autoPlace,
  onStart: () => {
    demo.stop();
    hints.clear();
  },
  onDrop: (/** @type {number} */ src, /** @type {number} */ dst, /** @type {number} */ count) => {
    const t0 = now();
    if (settings.get().autoPlace) auto(src, count, t0);
    else move(src, dst, count, t0);
  },
  onCancel: () => paint(deferredRender ?? { animate: true }),
  onTap: (/** @type {number} */ col, /** @type {number} */ idx, /** @type {string} */ _type, /** @type {boolean} */ isDouble) =>
    taps.tap(col, idx, isDouble),
  onTapColumn: (/** @type {number} */ col, /** @type {boolean} */ isDouble) => taps.tapColumn(col, isDouble),
});

const taps = new TapInput(renderer, {
  state: () => store.state.game,
  mode: () => settings.get().tap,
  doubleClick: () => settings.get().doubleClick,
  highlight: () => settings.get().highlight,
  // The cards the hint marks go where the hint said, not to the column a tap would choose.
  auto: (src, count) => {
    const dst = hints.destinationFor(src, count);
    return dst === null ? auto(src, count) : move(src, dst, count);
  },
  move: (src, dst, count) => move(src, dst, count),
});

renderer.stockEl.addEventListener("click", () => deal());

// ---- wiring: keyboard ----

const keyboard = new Keyboard(renderer, {
  deal: () => deal(),
  undo: () => undo(),
  redo: () => redo(),
  newGame: () => openNewGame(),
  cycleSuits,
  hint: () => hints.show(),
  think: () => thinker.start(),
  help: () => dialogs.openHelp(store.state.game?.game ?? "spider"),
  dialogOpen: dialogs.anyOpen,
  pick: (/** @type {number} */ col, /** @type {number} */ idx, /** @type {number} */ count) => {
    const c = store.state.game?.columns[col];
    if (!c) return false;
    if (settings.get().highlight) renderer.markColumns(destinations(col, count), "accepts");
    const card = i18n.cardName(c.up[idx - c.down]);
    announce(i18n.t(count > 1 ? "announce.pickedGroup" : "announce.picked", { card, n: count - 1 }));
    return true;
  },
  onTarget: (/** @type {number} */ _src, /** @type {number} */ dst) => {
    renderer.markColumns([dst], "over");
    const c = store.state.game?.columns[dst];
    const top = c?.up[c.up.length - 1];
    announce(top ? i18n.t("announce.target", { col: dst + 1, card: i18n.cardName(top) }) : i18n.t("announce.targetEmpty", { col: dst + 1 }));
  },
  cancelHold: (/** @type {boolean} */ say) => {
    renderer.markColumns([], "accepts");
    renderer.markColumns([], "over");
    if (say) announce(i18n.t("announce.putBack"));
  },
  drop: (/** @type {number} */ src, /** @type {number} */ dst, /** @type {number} */ count) => move(src, dst, count),
});

// ---- wiring: buttons ----

const more = $("#more");
const moreToggle = $("[data-action='menu']");

/** @param {boolean} open */
function setMenu(open) {
  more.classList.toggle("open", open);
  moreToggle.setAttribute("aria-expanded", String(open));
}

/** @type {Record<string, () => unknown>} */
const ACTIONS = {
  menu: () => setMenu(!more.classList.contains("open")),
  new: openNewGame,
  suits: cycleSuits,
  undo: () => undo(),
  redo: () => redo(),
  hint: () => hints.show(),
  think: () => thinker.start(),
  "think-cancel": () => thinker.cancel(),
  restart,
  stats: () => {
    const variants = store.state.game?.variants;
    statsView.openStats(stats.variantKey(currentOptions(), variants), variants);
  },
  // a backup file of the game, statistics, daily results and settings (backupui.js)
  backup: () => backupUi.download(),
  restore: () => booted.then(() => backupUi.chooseFile(ask)),
  "restore-confirm": () => backupUi.confirm(),
  settings: () => dialogs.openSettings(settings.get(), (patch) => settings.update(patch)),
  help: () => dialogs.openHelp(store.state.game?.game ?? "spider"),
  share,
  // the daily deals, and replay links (the engine makes and reads them)
  daily: () => daily.open(ask, { onPlay: openCode }),
  "share-replay": () => replay.share(ask),
  solve: () => solver.openCheck(solverHooks()),
  solution: () => solver.openSolution(solverHooks()),
  review: () => openReview(),
  "demo-stop": () => {}, // stopped below, as any control does
  retry: () => {
    store.set({ engine: "loading" });
    engine.restart();
  },
};

document.addEventListener("click", (e) => {
  const target = /** @type {Element} */ (e.target);
  const btn = /** @type {HTMLElement | null} */ (target.closest("[data-action]"));
  if (!btn) {
    if (!target.closest("#more")) setMenu(false);
    return;
  }
  const action = btn.dataset.action ?? "";
  if (action !== "menu") setMenu(false);
  if (!action.startsWith("solve")) demo.stop(); // any control takes over from the demo
  ACTIONS[action]?.();
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && more.classList.contains("open")) setMenu(false);
  if (e.key === "Escape") taps.clear(); // puts back cards picked up by a tap
  if (e.key === "Escape" && !e.defaultPrevented && !dialogs.anyOpen()) thinker.cancel();
});

// Any key stops the demo (Esc only stops it; other keys then act as usual).
document.addEventListener(
  "keydown",
  (e) => {
    if (!demo.running || dialogs.anyOpen() || ["Shift", "Control", "Alt", "Meta"].includes(e.key)) return;
    demo.stop();
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
    }
  },
  { capture: true },
);

// ---- settings changes ----

settings.subscribe(async (s, changed) => {
  if (changed.includes("lang")) {
    // A language chosen here wins over a ?lang= of the address.
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) {
      url.searchParams.delete("lang");
      history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
    await i18n.setLanguage(i18n.pickLanguage(s.lang));
    i18n.applyToDocument();
    renderer.relabel();
    dialogs.relabel();
    statsView.relabel();
    solver.relabel();
    replay.relabel();
    review.relabel();
    syncView.relabel();
    thinker.relabel();
    updateStatus(store.state);
    showEngineStatus(store.state);
    if (!storage.canSave()) notice(i18n.t("storage.write"));
    timer.set(timer.elapsed);
  }
  settings.applyLook(s);
  if (changed.includes("largeCards")) renderer.layout();
  if (changed.includes("undoLimit") && store.state.game) send({ op: "set", undo_limit: s.undoLimit }, { quiet: true });
  if (changed.includes("noMoves")) noMoves.check();
});

// A replay link pasted into the address bar of an open page.
addEventListener("hashchange", () => booted.then(() => replay.openFromAddress(ask)));

// ---- lifetime ----

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") saver.save();
});
addEventListener("pagehide", () => saver.save());

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (e.data?.type === "updated") {
      toast(i18n.t("update.ready"), { label: i18n.t("update.reload"), run: () => location.reload() });
    }
  });
  // The release (spider.__version__, in /engine.json) names the service worker's cache.
  fetch("/engine.json")
    .then((response) => response.json())
    .then((/** @type {{ release: string }} */ info) => {
      const url = `/sw.js?v=${encodeURIComponent(info.release)}`;
      return navigator.serviceWorker.register(url, { scope: "/", updateViaCache: "none" });
    })
    .catch(() => {});
}

// ---- start ----

const booted = startApp({ store, engine, saver, send, paint, timer }).then(
  (link) => {
    performance.mark("spider:engine-ready");
    // Now that the start is over: the service worker may look for a newer version, and a
    // helper may make the memory snapshot the next start restores.
    navigator.serviceWorker?.controller?.postMessage({ type: "check" });
    makeSnapshotLater(engine);
    reportStorageProblems();
    daily.prepare(ask);
    replay.openFromAddress(ask);
    if (link) openLink(link);
    startSync();
  },
  (err) => {
    console.error(err);
    store.set({ engine: "error" });
  },
);

/**
 * Sync across devices, where the page has a sync service (`<meta name="spider-sync">`): it
 * starts once this device's game is loaded, so that what it sends is what the player has.
 */
function startSync() {
  const url = serviceUrl();
  if (url) syncView.setup(new Sync(engine, url, backupdoc));
  syncView.offerLink();
}

// Not before the engine is ready: installing downloads the whole app again, which on a first
// visit would compete with the engine's start for the network and the cores.
booted.finally(registerServiceWorker);
