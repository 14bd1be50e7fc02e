// @ts-check
// H: the engine's best move, shown on the table for a moment; pressed again on the same table,
// the engine gives the next best (it keeps the count).

import { $ } from "./dom.js";
import * as i18n from "./i18n.js";
import { announce, messageFor, showMessage } from "./messages.js";
import * as settings from "./settings.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./state.js").Store} Store */
/** @typedef {import("./render.js").Renderer} Renderer */
/** @typedef {import("./nomoves.js").NoMoves} NoMoves */

export class Hints {
  /**
   * @param {Store} store
   * @param {Renderer} renderer
   * @param {(req: Request) => Promise<Reply>} ask
   * @param {NoMoves} noMoves
   */
  constructor(store, renderer, ask, noMoves) {
    this.store = store;
    this.renderer = renderer;
    this.ask = ask;
    this.noMoves = noMoves;
    this.pending = 0;
    /** @type {{els: Element[], timer: number} | null} */
    this.marks = null;
    /** @type {{move: import("./types.js").MoveRequest, saved: string | null} | null} the last hint shown, and for which game */
    this.advice = null;
  }

  /**
   * Where the last hint sends the group of `count` cards of column `src`, while the table is the
   * one it was given for (a tap on the hinted cards plays the hint's move); else null.
   * @param {number} src
   * @param {number} count
   */
  destinationFor(src, count) {
    const a = this.advice;
    if (!a || a.saved !== this.store.state.saved || a.move.src !== src || a.move.count !== count) return null;
    return a.move.dst;
  }

  clear() {
    if (!this.marks) return;
    clearTimeout(this.marks.timer);
    for (const el of this.marks.els) el.classList.remove("hinted");
    this.renderer.markColumns([], "hint-target");
    this.marks = null;
  }

  /** Asks the engine for a hint and shows it. */
  async show() {
    if (!this.store.state.game) return;
    if (!this.store.state.booted) {
      // Like every action before the engine has the game: refused, never answered seconds later.
      showMessage(i18n.t("engine.wait"), { tone: "info", ms: 2500 });
      return;
    }
    const reply = await this.#request();
    const game = this.store.state.game;
    if (!reply.ok || !game) {
      const code = reply.error?.code;
      const text = code === "bad-request" ? i18n.t("hint.unavailable") : messageFor(code, game);
      showMessage(text, { tone: "info" });
      return;
    }
    const h = reply.hint ?? {};
    // The engine proved "no more moves" here (its full check): no move is offered against that.
    if (this.store.state.noMoves) Object.assign(h, { move: null, reason: "no-moves" });
    const mv = h.move;
    this.clear();
    // With the automatic notice off, asking for a hint is asking whether any move is left.
    if (!settings.get().noMoves && !reply.no_moves) this.noMoves.check(true);
    if (!mv) {
      // Never advice to deal (that choice stays the player's): when no move helps, the deals
      // left are told as a fact.
      const key = `hint.reason.${h.reason}`;
      const text = i18n.has(key) ? i18n.t(key, { n: game.deals_left }) : i18n.t("hint.none");
      showMessage(text, { tone: "info" });
      announce(text);
      if (reply.no_moves && this.store.state.saved) this.noMoves.show(this.store.state.saved, true);
      return;
    }
    const card = this.mark(mv);
    this.advice = { move: mv, saved: this.store.state.saved };
    const suit = i18n.t(`suit.${card.slice(-1)}`);
    const why = i18n.has(`hint.reason.${h.reason}`) ? ` ${i18n.t(`hint.reason.${h.reason}`, { suit })}` : "";
    const text = i18n.t("hint.move", { card: i18n.cardName(card), col: mv.dst + 1 }) + why;
    showMessage(text, { tone: "info" });
    announce(text);
  }

  /**
   * Marks move `mv` on the table: its cards and the column they go to, for `ms` milliseconds
   * (null: until the table changes). Returns the card at the bottom of the moved group.
   * @param {import("./types.js").MoveRequest} mv
   * @param {number | null} [ms]
   */
  mark(mv, ms = 3000) {
    this.clear();
    const game = /** @type {import("./types.js").GameState} */ (this.store.state.game);
    const c = game.columns[mv.src];
    const els = this.renderer.group(mv.src, c.down + c.up.length - mv.count);
    for (const el of els) el.classList.add("hinted");
    this.renderer.markColumns([mv.dst], "hint-target");
    this.marks = { els, timer: ms === null ? 0 : window.setTimeout(() => this.clear(), ms) };
    return c.up[c.up.length - mv.count];
  }

  /** The engine's hint; the button says it is thinking meanwhile (a long endgame takes a moment). */
  async #request() {
    const btn = $("[data-action='hint']");
    this.pending += 1;
    btn.setAttribute("aria-busy", "true");
    try {
      return await this.ask({ op: "hint" });
    } finally {
      this.pending -= 1;
      if (this.pending === 0) btn.removeAttribute("aria-busy");
    }
  }
}
