// @ts-check
// Start-up: which game comes first (a link, the saved game, or a new deal), shown at once from
// what is at hand (the saved game, or the server's engine) while the worker starts, then loaded
// into the worker. Storage that cannot save is said at once, and the browser is asked to keep
// this site's data (persistent storage).

import { deviceId } from "./backupdoc.js";
import { wins } from "./daily.js";
import * as i18n from "./i18n.js";
import { messageFor, notice, showMessage } from "./messages.js";
import { readStored, GAME_KEY } from "./saving.js";
import * as settings from "./settings.js";
import { inProgress } from "./state.js";
import * as stats from "./stats.js";
import * as storage from "./storage.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").StoredGame} StoredGame */
/** @typedef {import("./state.js").Store} Store */
/** @typedef {import("./saving.js").Saver} Saver */
/** @typedef {import("./engine-client.js").EngineClient} EngineClient */

/**
 * @typedef {object} StartHooks
 * @property {Store} store
 * @property {EngineClient} engine
 * @property {Saver} saver
 * @property {(req: Request, ctx?: Context) => Promise<Reply>} send
 * @property {(opts?: {fresh?: boolean, animate?: boolean}) => void} paint
 * @property {{set: (ms: number) => void}} timer
 */

/**
 * The address of the server's first deal, from the page's `<meta name="spider-start">`: empty
 * on a static site (`spider build-site` writes it so), which has no engine to ask.
 * @returns {string}
 */
function startAddress() {
  return document.querySelector('meta[name="spider-start"]')?.getAttribute("content") ?? "";
}

/**
 * The reply to the first request `req` (op "new" or "open") from the engine on the server
 * (/start.json), so that a first visit shows its table before the worker is ready; null where
 * there is none (a static host, which is not asked, offline, an error).
 * @param {Request} req
 * @returns {Promise<Reply | null>}
 */
async function startFromServer(req) {
  const address = startAddress();
  if (!address) return null;
  try {
    const url = `${address}?request=${encodeURIComponent(JSON.stringify(req))}`;
    const response = await fetch(url, { cache: "no-store" });
    const reply = response.ok ? await response.json() : null;
    return reply?.ok && reply.state && typeof reply.saved === "string" ? reply : null;
  } catch {
    return null;
  }
}

/**
 * The request that opens the game of a code (typed, or in a link), with `scoring`.
 * @param {string} code
 * @param {string} scoring
 * @returns {Request}
 */
export function codeRequest(code, scoring) {
  return { op: "open", code: code.trim().toUpperCase(), scoring, undo_limit: settings.get().undoLimit };
}

/**
 * The game a link asks for (`?position=` or `?code=`), as an "open" request; null without one.
 * @param {URLSearchParams} params
 * @returns {Request | null}
 */
function linkRequest(params) {
  const s = settings.get();
  const position = params.get("position");
  const code = params.get("code");
  if (position !== null) return { op: "open", position, undo_limit: s.undoLimit };
  if (code !== null) return codeRequest(code, s.options.scoring);
  return null;
}

/**
 * The first request: a link's game (unless a game in progress is saved: that link is opened
 * once the page can ask, as New game does), else the saved game, else a new deal.
 * @param {Request | null} link
 * @param {StoredGame | null} stored
 * @returns {Request}
 */
function firstRequest(link, stored) {
  const s = settings.get();
  if (link && !(stored && inProgress(stored.state, stored.meta))) return link;
  if (stored) return { op: "load", saved: stored.saved, undo_limit: s.undoLimit };
  return { op: "new", ...s.options, undo_limit: s.undoLimit };
}

/** Opened from a link: the game is saved like any other, so a reload keeps it; the link goes. */
function forgetLink() {
  const params = new URLSearchParams(location.search);
  params.delete("position");
  params.delete("code");
  const q = params.toString();
  history.replaceState(null, "", location.pathname + (q ? `?${q}` : "") + location.hash);
}

/**
 * Says at once when progress cannot be saved, and asks the browser to keep the site's data.
 * Reads every stored value now (the settings and the saved game are read already), so that what
 * cannot be read is found, kept aside and said at start-up, not when a dialog first needs it.
 */
function checkStorage() {
  if (!storage.canSave()) notice(i18n.t("storage.write"));
  navigator.storage?.persist?.().catch(() => false);
  stats.totals();
  wins();
  deviceId();
}

/**
 * Starts the app: shows the first game as soon as possible and loads it into the engine.
 * Resolves to the link's request when a link was left to open over a game in progress (the
 * caller asks the player first), else null.
 * @param {StartHooks} hooks
 * @returns {Promise<Request | null>}
 */
export async function startApp(hooks) {
  const { store, engine, saver } = hooks;
  const s = settings.get();
  const stored = readStored();
  const link = linkRequest(new URLSearchParams(location.search));
  const first = firstRequest(link, stored);
  // A new game or a link: the server's engine deals it while the worker starts (boot.js), and
  // the worker loads the game the server saved. The first request goes out before anything
  // else can: input made meanwhile is refused with a message (send, in main.js).
  const language = i18n.setLanguage(i18n.pickLanguage(s.lang));
  const early = first.op === "load" ? null : await startFromServer(first);
  const pending = engine.request(early ? { op: "load", saved: early.saved, undo_limit: s.undoLimit } : first);
  if (link) forgetLink();

  await language;
  i18n.applyToDocument();
  settings.applyLook(s); // colours, card backs, left-handed
  checkStorage();
  store.set({ engine: engine.status === "error" ? "error" : "loading" });

  // The table appears at once from the saved game, before the engine is ready.
  if (stored) {
    store.adopt(stored);
    saver.synced = stored.rev;
    hooks.timer.set(stored.meta.elapsed);
  }
  if (early?.state && early.saved) store.preview(early.state, early.saved);
  try {
    if (early || stored) hooks.paint({ animate: false });
  } catch (err) {
    // A stored view the page cannot draw: the engine's own view of the game replaces it.
    console.warn("the saved view could not be drawn", err);
    store.forget();
  }

  const { reply, req, refused } = await firstReply(hooks, first, stored, await pending, !!early);
  store.set({ booted: true });
  // A game opened from a link replaces the saved one like a new game does.
  if (reply.ok) store.apply(reply, req.op === "open" ? { op: "new" } : req, { boot: true });
  if (reply.ok && req.op === "open" && reply.state) {
    const o = reply.state;
    settings.update({ options: { game: o.game, suits: o.suits, rule: o.rule, scoring: o.scoring } });
  }
  // The actions made after the last save, before the page last closed, are played again.
  await saver.replay(reply.ok && req.op === "load" ? stored : null, hooks.send);
  store.set({ engine: engine.status === "error" ? "error" : "ready" });
  // Said once the table shows the game that is played instead (applying it hides messages).
  if (refused) showLinkRefusal(refused, store.state.game);
  return link && first !== link ? link : null;
}

/**
 * Tells the player that a link's game could not be opened, and why.
 * @param {string | undefined} code the engine's refusal
 * @param {import("./types.js").GameState | null} game
 */
export function showLinkRefusal(code, game) {
  showMessage(i18n.t("link.refused", { reason: messageFor(code, game) }), { ms: 8000 });
}

/**
 * The first reply that worked: the first request's, else (a link that would not open, a saved
 * game the engine refused) the saved game's, else a new deal's. What the engine refused is set
 * aside (a saved game) or returned to be said (a link's refusal code, `refused`).
 * @param {StartHooks} hooks
 * @param {Request} first
 * @param {StoredGame | null} stored
 * @param {Reply} reply
 * @param {boolean} early the first request was the server's game
 * @returns {Promise<{reply: Reply, req: Request, refused?: string}>}
 */
async function firstReply(hooks, first, stored, reply, early) {
  const { engine, store } = hooks;
  const s = settings.get();
  if (early && !reply.ok) reply = await engine.request(first); // the server's game would not load
  if (reply.ok) return { reply, req: first };
  if (first.op === "new") {
    // Options the engine does not play (a stale setting): its default game instead.
    /** @type {Request} */
    const plain = { op: "new", undo_limit: s.undoLimit };
    return { reply: await engine.request(plain), req: plain };
  }
  const refused = first.op === "open" ? reply.error?.code ?? "unknown" : undefined;
  if (first.op === "load") storage.reject(GAME_KEY);
  if (first.op === "open" && stored) {
    /** @type {Request} */
    const load = { op: "load", saved: stored.saved, undo_limit: s.undoLimit };
    const loaded = await engine.request(load);
    if (loaded.ok) return { reply: loaded, req: load, refused };
    storage.reject(GAME_KEY);
  }
  store.forget();
  /** @type {Request} */
  const fresh = { op: "new", ...s.options, undo_limit: s.undoLimit };
  return { reply: await engine.request(fresh), req: fresh, refused };
}
