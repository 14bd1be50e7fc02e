// @ts-check
// T, or "Think harder" in the menu: a longer search for the next move that sees only what the
// player sees (the engine's op `think`, run in the solver's worker so play never waits). A bar
// shows its progress (play-outs, time, the best move so far) with Cancel; the answer is shown on
// the table as the quick hint shows its move. It is an answer for the table as it was when the
// player asked: any change meanwhile (a move, an undo, a new game) stops the search and says so.
// Where the page has a server (solver.js), the search runs there, sent what the player sees (the
// game engine's op `visible`) and nothing more.

import { $ } from "./dom.js";
import * as i18n from "./i18n.js";
import { announce, showMessage } from "./messages.js";
import * as settings from "./settings.js";
import * as solver from "./solver.js";

/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").ThinkInfo} ThinkInfo */
/** @typedef {import("./types.js").ThinkProgress} ThinkProgress */
/** @typedef {import("./state.js").Store} Store */
/** @typedef {import("./hint.js").Hints} Hints */

const html = document.documentElement;
/** How long the answer's message stays (the marks stay until the table changes). */
const ANSWER_MS = 8000;

/** @param {number} s */
const secondsText = (s) => i18n.t("solve.seconds", { n: Math.max(0, Math.floor(s)) });
/**
 * Time spent so far, to a tenth of a second: whole seconds would read "0 s" after several play-outs.
 * @param {number} s
 */
const elapsedText = (s) => i18n.t("think.elapsed", { time: i18n.formatDecimal(Math.floor(Math.max(0, s) * 10) / 10, 1) });

export class ThinkHarder {
  /**
   * @param {Store} store
   * @param {Hints} hints  shows the answer on the table as the quick hint does
   * @param {(req: Request) => Promise<import("./types.js").Reply>} ask  asks the game engine
   */
  constructor(store, hints, ask) {
    this.store = store;
    this.hints = hints;
    this.ask = ask;
    /** @type {{saved: string, seconds: number} | null} the search running, for this table */
    this.run = null;
    this.bar = $("[data-think-bar]");
    this.text = $("[data-think-text]");
    this.best = $("[data-think-best]");
  }

  get running() {
    return this.run !== null;
  }

  /** Starts a search on the table as it is now (a second press while one runs does nothing). */
  async start() {
    const { game, saved, booted } = this.store.state;
    if (!game || this.run) return;
    if (!booted || !saved) {
      showMessage(i18n.t("engine.wait"), { tone: "info", ms: 2500 });
      return;
    }
    if (game.won) {
      showMessage(i18n.t("hint.reason.won"), { tone: "info" });
      return;
    }
    const seconds = settings.get().thinkSeconds;
    const run = { saved, seconds };
    this.run = run;
    this.hints.clear();
    this.#show(true);
    this.text.textContent = i18n.t("think.starting");
    this.best.textContent = "";
    announce(i18n.t("think.starting"));
    let answer;
    try {
      answer = await solver.thinkSaved(saved, {
        timeLimit: seconds,
        onProgress: (p) => this.run === run && this.#progress(p),
        visible: () => this.#visible(saved),
      });
    } catch (err) {
      if (this.run !== run) return; // cancelled, or the table changed (said there)
      this.#end();
      if (!solver.isAbort(err)) showMessage(i18n.t("think.error"));
      return;
    }
    if (this.run !== run) return;
    this.#end();
    if (this.store.state.saved !== saved) {
      this.#say(i18n.t("think.discarded"), "warn");
      return;
    }
    this.#answer(answer);
  }

  /**
   * What the player sees of the game of `saved` (op `visible`), or null when the game engine's
   * game is no longer that one.
   * @param {string} saved
   */
  async #visible(saved) {
    const reply = await this.ask({ op: "visible" });
    return reply.ok && reply.saved === saved && reply.visible ? reply.visible : null;
  }

  /** Stops the search (Cancel, Esc); `say`: tell the player. */
  cancel(say = true) {
    if (!this.run) return;
    this.#end();
    solver.cancel("think");
    if (say) this.#say(i18n.t("think.cancelled"), "info");
  }

  /** Re-translates the bar after a change of language. */
  relabel() {
    if (this.run && !this.best.textContent) this.text.textContent = i18n.t("think.starting");
  }

  /**
   * Told of every change of the app state (after the table is drawn and its messages cleared).
   * @param {Change} change
   */
  changed(change) {
    if (!this.run || change.state.saved === this.run.saved) return;
    // The table changed: the answer would be for a position the player has left.
    this.#end();
    solver.cancel("think");
    this.#say(i18n.t("think.discarded"), "warn");
  }

  /** @param {ThinkProgress} p */
  #progress(p) {
    const n = p.iterations;
    const budget = secondsText(this.run?.seconds ?? 0);
    this.text.textContent = i18n.t("think.progress", { n, count: i18n.formatNumber(n), time: elapsedText(p.elapsed), budget });
    if (!p.action || p.action.op !== "move") return;
    const mv = /** @type {import("./types.js").MoveRequest} */ (/** @type {unknown} */ (p.action));
    const card = this.#cardOf(mv);
    if (card) this.best.textContent = i18n.t("think.best", { card: i18n.cardName(card), col: mv.dst + 1 });
  }

  /** @param {ThinkInfo} answer */
  #answer(answer) {
    const game = this.store.state.game;
    const action = answer.action;
    if (!game) return;
    if (!action || action.op !== "move") {
      // Never advice to deal (the choice stays the player's): with no move to suggest the deals left are a fact.
      const key = game.deals_left > 0 ? "hint.reason.nothing-helps-deals-left" : "hint.reason.nothing-helps";
      this.#say(i18n.t(key, { n: game.deals_left }), "info");
      return;
    }
    const mv = /** @type {import("./types.js").MoveRequest} */ (/** @type {unknown} */ (action));
    const card = this.hints.mark(mv, null);
    const why = this.#why(answer);
    this.#say(i18n.t("think.move", { card: i18n.cardName(card), col: mv.dst + 1 }) + (why && ` ${why}`), "info");
  }

  /**
   * What the answer rests on: the full solver's arrangements near the end, else the play-outs.
   * @param {ThinkInfo} answer
   */
  #why(answer) {
    const ending = answer.endgame;
    if (ending) {
      const n = ending.arrangements;
      if (n === 0) return i18n.t("think.endgameWins");
      return i18n.t("think.endgame", { n, count: i18n.formatNumber(n), wins: i18n.formatNumber(ending.wins) });
    }
    const n = answer.iterations;
    return n > 0 ? i18n.t("think.why", { n, count: i18n.formatNumber(n), visits: i18n.formatNumber(answer.visits) }) : "";
  }

  /** @param {import("./types.js").MoveRequest} mv the bottom card of the group it moves */
  #cardOf(mv) {
    const c = this.store.state.game?.columns[mv.src];
    return c && mv.count <= c.up.length ? c.up[c.up.length - mv.count] : null;
  }

  /**
   * @param {string} text
   * @param {string} tone
   */
  #say(text, tone) {
    showMessage(text, { tone, ms: ANSWER_MS });
    announce(text);
  }

  /** @param {boolean} on */
  #show(on) {
    this.bar.hidden = !on;
    if (on) html.dataset.think = "running";
    else delete html.dataset.think;
  }

  #end() {
    this.run = null;
    this.#show(false);
  }
}
