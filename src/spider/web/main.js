// The app: wires the engine, the table, input, storage and dialogs together.
//
// Flow: an input (pointer, keyboard, button) becomes a protocol request → the engine client sends
// it to the worker → the reply's state is rendered (with animation from the old table), saved
// with its whole history, announced, and counted in the statistics. The page never decides what
// is legal: it shows the engine's state and the engine's refusals.

import { shake } from "./anim.js";
import * as dialogs from "./dialogs.js";
import { DragController } from "./drag.js";
import { engine } from "./boot.js";
import * as i18n from "./i18n.js";
import { Keyboard } from "./keyboard.js";
import * as recent from "./recent.js";
import { Renderer } from "./render.js";
import * as settings from "./settings.js";
import * as solver from "./solver.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";
import { Timer } from "./timer.js";

const GAME_KEY = "game";
const $ = (sel) => document.querySelector(sel);
const html = document.documentElement;

// ---- saved game ----

function validateGame(d) {
  const okState =
    d &&
    typeof d.saved === "string" &&
    d.state &&
    Array.isArray(d.state.columns) &&
    (d.state.columns.length === 10 || d.state.columns.length === 7) &&
    d.state.columns.every(
      (c) =>
        Number.isInteger(c.down) &&
        c.down >= 0 &&
        Array.isArray(c.up) &&
        c.up.every((x) => typeof x === "string" && /^(A|[2-9]|10|J|Q|K)[SHDC]$/.test(x)) &&
        Array.isArray(c.dests),
    ) &&
    Array.isArray(d.state.completed) &&
    Number.isInteger(d.state.deals_left);
  if (!okState) throw new Error("saved game: bad shape");
  const meta = d.meta && typeof d.meta === "object" ? d.meta : {};
  return {
    saved: d.saved,
    state: d.state,
    meta: {
      elapsed: Number.isFinite(meta.elapsed) ? meta.elapsed : 0,
      started: meta.started === true || meta.counted === true,
      counted: meta.counted === true,
      won: meta.won === true,
      assisted: meta.assisted === true,
    },
  };
}

// ---- app state ----

/**
 * Per-game bookkeeping kept with the saved game. `started`: an action was played (the timer
 * runs, a win is celebrated); `counted`: the game is in the statistics, which only happens when
 * the engine says it began at its deal's first layout (`state.from_deal_start`), so a position
 * opened from text never sets a record; `assisted`: the solver played some of it.
 */
function freshMeta() {
  return { elapsed: 0, started: false, counted: false, won: false, assisted: false };
}

let state = null; // the engine's latest view
let saved = null; // the engine's latest saved game
let meta = freshMeta();
let engineReady = false;
let booted = false;
let deferredRender = null;
let messageTimer = 0;
let hintMarks = null;

const renderer = new Renderer();
const timer = new Timer((ms) => {
  $("[data-time]").textContent = i18n.formatTime(ms);
});

renderer.animationsEnabled = () => settings.animate();

function variantOf(s) {
  return stats.variantKey(s);
}

function currentOptions() {
  return settings.get().options;
}

// ---- status, messages, announcements ----

function updateStatus() {
  if (!state) return;
  $("[data-score]").textContent = String(state.score);
  $("[data-moves]").textContent = String(state.moves);
  $("[data-code]").textContent = state.code ?? i18n.t("status.position");
  $("[data-action='undo']").disabled = !state.can_undo;
  $("[data-action='redo']").disabled = !state.can_redo;
  $("[data-action='restart']").disabled = !state.can_undo && state.moves === 0;
  const glyph = { 1: "♠", 2: "♠♥", 4: "♠♥♦♣" }[state.suits] ?? "♠";
  $("[data-suits-glyph]").textContent = glyph;
  $("[data-suits-label]").textContent = i18n.t(`suits.${state.suits}`);
  html.dataset.game = state.game;
}

function messageFor(code) {
  if (code === "not-movable" && state?.rule === "flexible") return i18n.t("error.not-movable.flexible");
  if (code === "empty-column" && state?.blocked_deal) return i18n.t("error.empty-column.blocked");
  const key = `error.${code}`;
  return i18n.has(key) ? i18n.t(key) : i18n.t("error.unknown");
}

function showMessage(text, { tone = "warn", ms = 3800 } = {}) {
  const el = $("[data-message]");
  el.textContent = text;
  el.dataset.tone = tone;
  el.hidden = false;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
  clearTimeout(messageTimer);
  messageTimer = setTimeout(hideMessage, ms);
}

function hideMessage() {
  const el = $("[data-message]");
  el.classList.remove("show");
  el.hidden = true;
}

function toast(text, action = null) {
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
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), action ? 12000 : 5000);
}

function announce(text) {
  const el = $("[data-announce]");
  el.textContent = "";
  // A fresh text node each time so screen readers repeat identical announcements.
  requestAnimationFrame(() => (el.textContent = text));
}

function describe(events) {
  const parts = [];
  for (const ev of events ?? []) {
    switch (ev.type) {
      case "move":
        if (!ev.cards?.length) break; // the moved cards completed a run, announced below
        parts.push(
          i18n.t(ev.count > 1 ? "announce.moveGroup" : "announce.move", {
            card: i18n.cardName(ev.cards[0]),
            n: ev.count - 1,
            col: ev.dst + 1,
          }),
        );
        break;
      case "flip":
        parts.push(i18n.t("announce.flip", { card: i18n.cardName(ev.card), col: ev.column + 1 }));
        break;
      case "run":
        parts.push(i18n.t("announce.run", { suit: i18n.t(`suit.${ev.suit}`) }));
        break;
      case "deal":
        parts.push(i18n.t("announce.deal", { n: state.deals_left }));
        break;
      case "undo":
      case "redo":
      case "restart":
        parts.push(i18n.t(`announce.${ev.type}`));
        break;
      case "new":
        parts.push(i18n.t("announce.new", { game: dialogs.variantName(variantOf(state)) }));
        break;
      default:
    }
  }
  return parts.join(" ");
}

// ---- engine status ----

function setEngineStatus(status) {
  const box = $("[data-engine-status]");
  const text = $("[data-engine-text]");
  const retry = $("[data-action='retry']");
  box.dataset.status = status;
  if (status === "loading") {
    text.textContent = i18n.t("engine.loading");
    retry.hidden = true;
  } else if (status === "error") {
    text.textContent = i18n.t("engine.error");
    retry.hidden = false;
  } else {
    text.textContent = "";
    retry.hidden = true;
  }
}

function onEngineStatus(status) {
  if (status === "ready") {
    engineReady = true;
    performance.mark("spider:engine-timings", { detail: engine.timings });
  }
  setEngineStatus(status === "ready" ? (booted ? "ready" : "loading") : status);
}

engine.addEventListener("status", (e) => onEngineStatus(e.detail.status));
// boot.js started the worker before this module ran: it may be ready already.
if (engine.ready) onEngineStatus("ready");

// ---- saving ----

function save() {
  if (!state || !saved) return;
  meta.elapsed = timer.elapsed;
  storage.write(GAME_KEY, { saved, state, meta });
  clearTimeout(saveSoon.timer);
  saveSoon.timer = 0;
}

/** Saves right after the coming frame is painted, so writing never delays what the player sees. */
function saveSoon() {
  if (saveSoon.timer) return;
  saveSoon.timer = -1;
  requestAnimationFrame(() => {
    if (saveSoon.timer) saveSoon.timer = setTimeout(save, 0);
  });
}

function reportStorageProblems() {
  const problems = storage.takeProblems();
  if (!problems.length) return;
  const write = problems.some((p) => p.reason === "write");
  toast(i18n.t(write ? "storage.write" : "storage.setAside"));
}

// ---- rendering ----

function paint(opts = {}) {
  if (drag?.active) {
    deferredRender = opts;
    return;
  }
  deferredRender = null;
  const hadFocus = renderer.columnsEl.contains(document.activeElement);
  clearHint();
  const t0 = performance.now();
  renderer.render(state, opts);
  updateStatus();
  keyboard?.sync(state, hadFocus);
  performance.measure("spider:render", { start: t0, end: performance.now() });
  if (!paint.marked) {
    paint.marked = true;
    markAfterPaint("spider:first-table");
  }
}

/** A user-timing mark once the frame being prepared has been painted (read by benchmarks). */
function markAfterPaint(name) {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
}

// ---- requests ----

/**
 * Sends a request and applies its reply. `ctx.kind` names the input for the latency marks,
 * `ctx.t0` is when the input happened.
 */
async function send(req, ctx = {}) {
  const reply = await engine.request(req);
  apply(reply, req, ctx);
  return reply;
}

function markLatency(ctx) {
  if (!ctx.kind || ctx.t0 === undefined) return;
  requestAnimationFrame(() =>
    setTimeout(() => {
      try {
        performance.measure(`spider:${ctx.kind}`, { start: ctx.t0, end: performance.now() });
      } catch {
        // User timing is optional.
      }
    }, 0),
  );
}

function apply(reply, req, ctx) {
  if (!reply.ok) {
    if (reply.state) state = reply.state;
    if (state) paint({ animate: true }); // snaps dragged or held cards back
    if (!ctx.quiet) {
      const code = reply.error?.code ?? "unknown";
      showMessage(messageFor(code));
      announce(messageFor(code));
      if (ctx.col !== undefined) shake(renderer.columnEl(ctx.col), settings.animate());
      if (req.op === "deal") shake(renderer.stockEl, settings.animate());
    }
    markLatency(ctx);
    return;
  }
  const prev = state;
  const op = req.op;
  if (op === "new" || op === "open") {
    if (meta.counted && !meta.won && prev) stats.recordLoss(variantOf(prev));
    meta = freshMeta();
    timer.set(0);
  }
  state = reply.state;
  saved = reply.saved ?? saved;
  hideMessage();
  const fresh = op === "new" || op === "open" || op === "restart";
  paint({ fresh, animate: op !== "load" && !(fresh && ctx.boot) });
  markLatency(ctx);

  if ((op === "move" || op === "auto" || op === "deal") && !meta.started) {
    meta.started = true;
    if (state.from_deal_start === true) {
      meta.counted = true;
      stats.recordStart(variantOf(state));
    }
  }
  if (state.won && !meta.won && meta.started) {
    meta.won = true;
    timer.run(false);
    const time = timer.elapsed;
    const assisted = meta.assisted;
    // A game the solver played is not a win of the player's: it counts as played, not won.
    // A game that did not begin at its deal's start is in no statistics at all.
    const records =
      meta.counted && !assisted ? stats.recordWin(variantOf(state), { score: state.score, moves: state.moves, time }) : {};
    if (meta.counted && assisted) stats.recordLoss(variantOf(state));
    const best = meta.counted ? stats.get(variantOf(state)).bestScore : null;
    save();
    announce(i18n.t(assisted ? "win.assisted.title" : "win.title"));
    renderer.settled.then(() => {
      html.dataset.won = "true";
      dialogs
        .openWin({ score: state.score, moves: state.moves, time, records, best, assisted })
        .then((v) => v === "new" && openNewGame());
    });
  } else {
    timer.run(meta.started && !state.won);
    saveSoon();
    const said = describe(reply.events);
    if (said && !ctx.boot) announce(said);
  }
  if (!state.won) delete html.dataset.won;
  reportStorageProblems();
  checkNoMoves();
}

// ---- no more moves ----

/** Search limits of the "no more moves" check: quick in the game engine, full in the solver's. */
const STATUS_QUICK_NODES = 1500;
let statusSeq = 0;
let noMovesShown = null; // the `saved` text for which the dialog was shown

/**
 * Asks whether no moves are left, but only when no deal can ever happen again (otherwise the
 * answer is no and nothing is asked). A quick bounded check runs in the game engine after the
 * table is painted; when it cannot decide, the full one runs in the solver's worker, so play
 * never waits for it. The dialog appears only when the engine proves it. With the "No more
 * moves" setting off (seeds 000 and 001: some apps never say it) it runs only when `asked`: on H.
 */
function checkNoMoves(asked = false) {
  const seq = ++statusSeq;
  delete html.dataset.noMoves;
  if (!state || state.won || !saved || demo || !(asked || settings.get().noMoves)) return;
  if (state.deal_possible) return;
  const here = saved;
  requestAnimationFrame(() =>
    setTimeout(async () => {
      if (seq !== statusSeq) return;
      let reply = await engine.request({ op: "status", node_limit: STATUS_QUICK_NODES });
      if (seq !== statusSeq || !reply.ok) return;
      if (reply.no_moves_status === "unknown") {
        try {
          reply = await solver.status(here);
        } catch {
          return;
        }
        if (seq !== statusSeq || !reply.ok) return;
      }
      if (reply.no_moves) showNoMoves(here, asked);
    }, 0),
  );
}

/** Shows the "No more moves" dialog, once per position unless the player `asked` (H). */
async function showNoMoves(here, asked = false) {
  html.dataset.noMoves = "true";
  if ((noMovesShown === here && !asked) || dialogs.anyOpen() || demo) return;
  noMovesShown = here;
  announce(i18n.t("nomoves.title"));
  await renderer.settled;
  const choice = await dialogs.openNoMoves();
  if (choice === "undo") undo();
  else if (choice === "restart") send({ op: "restart" }, { kind: "restart", t0: now() });
  else if (choice === "new") openNewGame();
}

// ---- player actions ----

const now = () => performance.now();

function move(src, dst, count, t0 = now()) {
  return send({ op: "move", src, dst, count }, { kind: "move", t0, col: src });
}

function auto(src, count, t0 = now()) {
  return send({ op: "auto", src, count }, { kind: "move", t0, col: src });
}

function deal(t0 = now()) {
  return send({ op: "deal" }, { kind: "deal", t0 });
}

function undo(t0 = now()) {
  if (state && !state.can_undo) return showMessage(messageFor("nothing-to-undo"), { ms: 1800 });
  return send({ op: "undo" }, { kind: "undo", t0 });
}

function redo(t0 = now()) {
  if (state && !state.can_redo) return showMessage(messageFor("nothing-to-redo"), { ms: 1800 });
  return send({ op: "redo" }, { kind: "redo", t0 });
}

async function restart() {
  if (!state) return;
  if (state.moves > 0) {
    const ok = await dialogs.confirm({
      title: i18n.t("restart.title"),
      text: i18n.t("restart.text"),
      ok: i18n.t("action.restart"),
    });
    if (!ok) return;
  }
  send({ op: "restart" }, { kind: "restart", t0: now() });
}

function newGame(options, number = null) {
  const { winnable, ...rest } = options;
  settings.update(winnable === undefined ? { options: rest } : { options: rest, winnableOnly: winnable });
  const o = settings.get().options;
  const req = { op: "new", game: o.game, suits: o.suits, rule: o.rule, scoring: o.scoring, undo_limit: settings.get().undoLimit };
  // "Winnable deals only": the engine deals from its catalogue of deals proven winnable.
  if (number !== null && number >= 0) req.number = number;
  else if (winnable) Object.assign(req, { winnable: true, avoid: recent.recentWinnable(o) });
  const sent = send(req, { kind: "new", t0: now() });
  if (!req.winnable) return sent;
  return sent.then((reply) => {
    if (!reply.ok) return;
    recent.rememberWinnable(o, reply.state.number);
    toast(i18n.t("new.winnable.dealt"));
  });
}

/** S: the next suit count (1 → 2 → 4 → 1) of the same game, dealt at once (seed 004). */
function cycleSuits() {
  const o = state ? { game: state.game, rule: state.rule, scoring: state.scoring, suits: state.suits } : currentOptions();
  newGame({ ...o, suits: { 1: 2, 2: 4, 4: 1 }[o.suits] ?? 1, winnable: settings.get().winnableOnly });
}

async function openCode(code) {
  const reply = await engine.request({
    op: "open",
    code: code.trim().toUpperCase(),
    scoring: currentOptions().scoring,
    undo_limit: settings.get().undoLimit,
  });
  if (!reply.ok) return reply.error?.code ?? "invalid-code";
  apply(reply, { op: "open" }, { kind: "new" });
  const o = reply.state;
  settings.update({ options: { game: o.game, suits: o.suits, rule: o.rule, scoring: o.scoring } });
  return null;
}

function openNewGame() {
  const base = { ...currentOptions(), winnable: settings.get().winnableOnly };
  dialogs.openNew(state ? { ...base, game: state.game, suits: state.suits, rule: state.rule, scoring: state.scoring } : base, {
    onDeal: (options) => newGame(options),
    onOpenCode: openCode,
  });
}

function clearHint() {
  if (!hintMarks) return;
  clearTimeout(hintMarks.timer);
  for (const el of hintMarks.els) el.classList.remove("hinted");
  renderer.markColumns([], "hint-target");
  hintMarks = null;
}

let hintsPending = 0;

/** H: highlights the engine's best move; pressed again on the same table, the engine gives the
 * next best (it keeps the count). */
async function hint() {
  if (!state) return;
  // A hint deep in a long endgame can take a moment: the button says it is thinking.
  const button = $("[data-action='hint']");
  hintsPending += 1;
  button.setAttribute("aria-busy", "true");
  let reply;
  try {
    reply = await engine.request({ op: "hint" });
  } finally {
    hintsPending -= 1;
    if (hintsPending === 0) button.removeAttribute("aria-busy");
  }
  if (!reply.ok) {
    const code = reply.error?.code;
    const text = code === "bad-request" ? i18n.t("hint.unavailable") : messageFor(code);
    showMessage(text, { tone: "info" });
    return;
  }
  const h = reply.hint ?? {};
  const mv = h.move;
  clearHint();
  // With the automatic notice off, asking for a hint is asking whether any move is left.
  if (!settings.get().noMoves && !reply.no_moves) checkNoMoves(true);
  if (!mv) {
    // Never advice to deal (seed 004): when no move helps, the deals left are told as a fact.
    const key = `hint.reason.${h.reason}`;
    const text = i18n.has(key) ? i18n.t(key, { n: state.deals_left }) : i18n.t("hint.none");
    showMessage(text, { tone: "info" });
    announce(text);
    if (reply.no_moves) showNoMoves(saved, true);
    return;
  }
  const c = state.columns[mv.src];
  const idx = c.down + c.up.length - mv.count;
  const card = c.up[c.up.length - mv.count];
  const els = renderer.group(mv.src, idx);
  for (const el of els) el.classList.add("hinted");
  renderer.markColumns([mv.dst], "hint-target");
  hintMarks = { els, timer: setTimeout(clearHint, 3000) };
  const suit = i18n.t(`suit.${card.slice(-1)}`);
  const why = i18n.has(`hint.reason.${h.reason}`) ? ` ${i18n.t(`hint.reason.${h.reason}`, { suit })}` : "";
  const text = i18n.t("hint.move", { card: i18n.cardName(card), col: mv.dst + 1 }) + why;
  showMessage(text, { tone: "info" });
  announce(text);
}

/**
 * Copies a link that opens the same deal: `/?code=` for a game with a code, else `/?position=`
 * with the starting position, which the engine gives on request (`export`: it shows every card,
 * so it is never part of the state).
 */
async function share() {
  if (!state) return;
  const url = new URL("/", location.href);
  if (state.code) url.searchParams.set("code", state.code);
  else {
    const reply = await engine.request({ op: "export" });
    if (!reply.ok || !reply.export) return;
    url.searchParams.set("position", reply.export.start);
  }
  const link = url.toString();
  html.dataset.shareLink = link;
  try {
    await navigator.clipboard.writeText(link);
    toast(state.code ? i18n.t("share.copied", { code: state.code }) : i18n.t("share.copiedPosition"));
  } catch {
    toast(i18n.t("share.manual", { link }));
  }
}

// ---- the solver: winnable?, show solution (demo) ----

let demo = null; // the demo now playing: {stopped}

function solverHooks() {
  return { getSaved: () => saved, play: playSolution };
}

/** Plays the solver's line through the game engine, move by move, animated; stoppable. */
async function playSolution(actions) {
  stopDemo();
  clearHint();
  const run = { stopped: false };
  demo = run;
  meta.assisted = true;
  html.dataset.demo = "running";
  $("[data-demo-bar]").hidden = false;
  const pause = () => new Promise((r) => setTimeout(r, settings.animate() ? 240 : 90));
  try {
    for (const step of actions) {
      if (run.stopped) break;
      const reply = await send(step, { quiet: true });
      if (!reply.ok || reply.state.won) break;
      await renderer.settled;
      if (!run.stopped) await pause();
    }
  } finally {
    if (demo === run) {
      demo = null;
      delete html.dataset.demo;
      $("[data-demo-bar]").hidden = true;
      checkNoMoves();
    }
  }
}

/** Stops the demo after the step in progress; every step played stays, and undo works. */
function stopDemo() {
  if (!demo) return;
  demo.stopped = true;
  demo = null;
  delete html.dataset.demo;
  $("[data-demo-bar]").hidden = true;
  announce(i18n.t("demo.stopped"));
  checkNoMoves();
}

// ---- wiring: pointer ----

const drag = new DragController(renderer, {
  canStart: () => state !== null,
  accepts: (src, count) => {
    const c = state.columns[src];
    return count <= c.pickup ? (c.dests[count - 1] ?? []) : [];
  },
  highlight: () => settings.get().highlight,
  // Automatic placement off (the default): a drop lands where it is dropped, or is refused.
  forgiving: () => settings.get().autoPlace,
  onStart: () => {
    stopDemo();
    clearHint();
  },
  onDrop: (src, dst, count) => {
    const t0 = now();
    if (!engineReady) paint(); // queued: put the cards back while the engine starts
    if (settings.get().autoPlace) auto(src, count, t0);
    else move(src, dst, count, t0);
  },
  onCancel: () => {
    if (deferredRender) paint(deferredRender);
    else paint({ animate: true });
  },
  onTap: (col, idx, pointerType, isDouble) => {
    const s = settings.get();
    const c = state?.columns[col];
    if (!c) return;
    const count = c.down + c.up.length - idx;
    if (s.singleTap || (isDouble && s.doubleClick)) auto(col, count);
  },
});

renderer.stockEl.addEventListener("click", () => deal());

// ---- wiring: keyboard ----

const keyboard = new Keyboard(renderer, {
  deal: () => deal(),
  undo: () => undo(),
  redo: () => redo(),
  newGame: () => openNewGame(),
  cycleSuits,
  hint,
  help: () => dialogs.openHelp(state?.game ?? "spider"),
  dialogOpen: dialogs.anyOpen,
  pick: (col, idx, count) => {
    const c = state.columns[col];
    const dests = count <= c.pickup ? (c.dests[count - 1] ?? []) : [];
    if (settings.get().highlight) renderer.markColumns(dests, "accepts");
    const card = i18n.cardName(c.up[idx - c.down]);
    announce(i18n.t(count > 1 ? "announce.pickedGroup" : "announce.picked", { card, n: count - 1 }));
    return true;
  },
  onTarget: (src, dst) => {
    renderer.markColumns([dst], "over");
    const c = state.columns[dst];
    const top = c.up[c.up.length - 1];
    announce(top ? i18n.t("announce.target", { col: dst + 1, card: i18n.cardName(top) }) : i18n.t("announce.targetEmpty", { col: dst + 1 }));
  },
  cancelHold: (say) => {
    renderer.markColumns([], "accepts");
    renderer.markColumns([], "over");
    if (say) announce(i18n.t("announce.putBack"));
  },
  drop: (src, dst, count) => move(src, dst, count),
});

// ---- wiring: buttons ----

const more = $("#more");
const moreToggle = $("[data-action='menu']");

function setMenu(open) {
  more.classList.toggle("open", open);
  moreToggle.setAttribute("aria-expanded", String(open));
}

document.addEventListener("click", (e) => {
  const btn = e.target.closest("[data-action]");
  if (!btn) {
    if (!e.target.closest("#more")) setMenu(false);
    return;
  }
  const action = btn.dataset.action;
  if (action !== "menu") setMenu(false);
  if (demo && !action.startsWith("solve")) stopDemo(); // any control takes over from the demo
  switch (action) {
    case "menu":
      setMenu(!more.classList.contains("open"));
      break;
    case "new":
      openNewGame();
      break;
    case "suits":
      cycleSuits();
      break;
    case "undo":
      undo();
      break;
    case "redo":
      redo();
      break;
    case "hint":
      hint();
      break;
    case "restart":
      restart();
      break;
    case "stats":
      dialogs.openStats(variantOf(state ?? { ...currentOptions() }), state?.variants);
      break;
    case "settings":
      dialogs.openSettings(settings.get(), (patch) => settings.update(patch));
      break;
    case "help":
      dialogs.openHelp(state?.game ?? "spider");
      break;
    case "share":
      share();
      break;
    case "solve":
      solver.openCheck(solverHooks());
      break;
    case "solution":
      solver.openSolution(solverHooks());
      break;
    case "demo-stop":
      break; // stopped above
    case "retry":
      setEngineStatus("loading");
      engine.restart();
      break;
    default:
  }
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && more.classList.contains("open")) setMenu(false);
});

// Any key stops the demo (Esc only stops it; other keys then act as usual).
document.addEventListener(
  "keydown",
  (e) => {
    if (!demo || dialogs.anyOpen() || ["Shift", "Control", "Alt", "Meta"].includes(e.key)) return;
    stopDemo();
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
    solver.relabel();
    updateStatus();
    setEngineStatus(booted ? "ready" : "loading");
    timer.set(timer.elapsed);
  }
  if (changed.includes("fourColor")) html.classList.toggle("four-color", s.fourColor);
  if (changed.includes("undoLimit") && state) send({ op: "set", undo_limit: s.undoLimit }, { quiet: true });
  if (changed.includes("noMoves")) checkNoMoves();
});

// ---- lifetime ----

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") save();
});
addEventListener("pagehide", save);

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (e) => {
    if (e.data?.type === "updated") {
      toast(i18n.t("update.ready"), { label: i18n.t("update.reload"), run: () => location.reload() });
    }
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
}

// ---- start ----

/**
 * The reply to the first request `req` (op "new" or "open") from the engine on the server
 * (/start.json), so that a first visit shows its table before the worker is ready; null where
 * there is none (a static host, offline, an error).
 */
async function startFromServer(req) {
  try {
    const url = `/start.json?request=${encodeURIComponent(JSON.stringify(req))}`;
    const response = await fetch(url, { cache: "no-store" });
    const reply = response.ok ? await response.json() : null;
    return reply?.ok && reply.state && typeof reply.saved === "string" ? reply : null;
  } catch {
    return null;
  }
}

async function boot() {
  const s = settings.get();
  const params = new URLSearchParams(location.search);
  const stored = storage.read(GAME_KEY, validateGame, null);
  const undoLimit = s.undoLimit;
  let first;
  if (params.has("position")) first = { op: "open", position: params.get("position"), undo_limit: undoLimit };
  else if (params.has("code"))
    first = { op: "open", code: params.get("code"), scoring: s.options.scoring, undo_limit: undoLimit };
  else if (stored) first = { op: "load", saved: stored.saved, undo_limit: undoLimit };
  else first = { op: "new", ...s.options, undo_limit: undoLimit };

  // A new game or a link: the server's engine deals it while the worker starts (boot.js), and
  // the worker loads the game the server saved. The first request goes out before anything
  // else can: input made while the engine starts is sent after it and answered in order.
  const language = i18n.setLanguage(i18n.pickLanguage(s.lang));
  const early = first.op === "load" ? null : await startFromServer(first);
  let pending = engine.request(early ? { op: "load", saved: early.saved, undo_limit: undoLimit } : first);

  if (first.op === "open") {
    // Opened from a link: the game is saved like any other, so a reload keeps it.
    params.delete("position");
    params.delete("code");
    const q = params.toString();
    history.replaceState(null, "", location.pathname + (q ? `?${q}` : "") + location.hash);
  }

  await language;
  i18n.applyToDocument();
  html.classList.toggle("four-color", s.fourColor);
  setEngineStatus(engine.status === "error" ? "error" : "loading");

  // The table appears at once from the saved game, before the engine is ready.
  if (early) {
    state = early.state;
    saved = early.saved;
    paint({ animate: false });
  } else if (stored) {
    state = stored.state;
    saved = stored.saved;
    meta = stored.meta;
    timer.set(meta.elapsed);
    paint({ animate: false });
  }

  let reply = await pending;
  if (early && !reply.ok) reply = await engine.request(first); // the server's game would not load
  if (!reply.ok && first.op !== "new") {
    if (first.op === "load") storage.reject(GAME_KEY);
    else showMessage(messageFor(reply.error?.code), { ms: 6000 });
    first =
      first.op === "open" && stored
        ? { op: "load", saved: stored.saved, undo_limit: undoLimit }
        : { op: "new", ...s.options, undo_limit: undoLimit };
    if (first.op === "new") {
      state = null;
      meta = freshMeta();
    }
    pending = engine.request(first);
    reply = await pending;
    if (!reply.ok && first.op === "load") {
      storage.reject(GAME_KEY);
      state = null;
      meta = freshMeta();
      first = { op: "new", ...s.options, undo_limit: undoLimit };
      reply = await engine.request(first);
    }
  }
  if (reply.ok) {
    // A game opened from a link replaces the saved one like a new game does.
    apply(reply, first.op === "open" ? { op: "new" } : first, { boot: true });
    if (first.op === "open") {
      const o = reply.state;
      settings.update({ options: { game: o.game, suits: o.suits, rule: o.rule, scoring: o.scoring } });
    }
  }
  booted = true;
  setEngineStatus(engine.status === "ready" ? "ready" : engine.status);
  html.dataset.engine = "ready";
  performance.mark("spider:engine-ready");
  reportStorageProblems();
}

// Requests queued by input before the engine answered the first one are sent after it, in order,
// because the engine client numbers and forwards them as they come.
boot().catch((err) => {
  console.error(err);
  setEngineStatus("error");
});

if (document.readyState === "complete") registerServiceWorker();
else addEventListener("load", registerServiceWorker, { once: true });
