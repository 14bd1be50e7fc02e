// @ts-check
// Taps and clicks on the table: what a tap does is the player's choice (settings `tap`).
//
//   "best": a tap sends the card (and the cards on it) to its best column;
//   "pick": a tap picks the cards up, a tap on another column puts them there;
//   "off":  a tap does nothing (drag the cards).
//
// A double tap or double-click (two quick taps on the same card, see drag.js) sends the cards to
// the best column when `doubleClick` is on, and is always ONE action: with "best", the first tap
// already moved the cards, so the second is ignored. A quick tap on another card, such as the
// one the first tap uncovered, is a tap of its own. Which column is best,
// and whether a move is legal, is the engine's answer (`auto`, `move`): nothing is decided here.

/**
 * @typedef {{down: number, up: string[], pickup: number, dests: number[][]}} ColumnView
 * @typedef {{columns: ColumnView[]}} TableView
 * @typedef {"best" | "pick" | "off"} TapMode
 * @typedef {{
 *   state: () => TableView | null,
 *   mode: () => TapMode,
 *   doubleClick: () => boolean,
 *   highlight: () => boolean,
 *   auto: (src: number, count: number) => unknown,
 *   move: (src: number, dst: number, count: number) => Promise<{ok: boolean}>,
 *   picked?: (src: number, idx: number, count: number) => void,
 * }} TapActions
 * @typedef {{
 *   group: (col: number, idx: number) => Element[],
 *   markColumns: (list: number[], cls: string) => void,
 * }} TapRenderer
 */

export class TapInput {
  /**
   * @param {TapRenderer} renderer
   * @param {TapActions} actions
   */
  constructor(renderer, actions) {
    this.r = renderer;
    this.a = actions;
    /** @type {{src: number, idx: number, count: number} | null} the cards picked up ("pick") */
    this.held = null;
  }

  /**
   * A tap on the face-up card at `idx` of column `col`.
   * @param {number} col
   * @param {number} idx
   * @param {boolean} isDouble the second tap of a double tap
   */
  tap(col, idx, isDouble) {
    const c = this.a.state()?.columns[col];
    if (!c) return;
    const count = c.down + c.up.length - idx;
    const mode = this.a.mode();
    if (mode === "best") {
      if (!isDouble) this.a.auto(col, count);
      return;
    }
    if (isDouble) {
      const held = this.held;
      this.clear();
      // The first tap of the pair picked these cards up ("pick") or did nothing ("off").
      if (this.a.doubleClick() && (mode === "off" || held)) this.a.auto(col, count);
      return;
    }
    if (mode === "off") return;
    const held = this.held;
    if (held && held.src !== col) {
      this.drop(col);
      return;
    }
    if (held && held.idx === idx) {
      this.clear();
      return;
    }
    this.#pick(col, idx, count, c);
  }

  /**
   * A tap on column `col` away from its face-up cards: puts the picked-up cards there.
   * @param {number} col
   * @param {boolean} isDouble
   */
  tapColumn(col, isDouble) {
    if (!this.held || isDouble) return;
    if (this.held.src === col) this.clear();
    else this.drop(col);
  }

  /**
   * Puts the picked-up cards on column `dst`; refused there, they stay picked up (the player may
   * tap another column).
   * @param {number} dst
   */
  async drop(dst) {
    const held = this.held;
    if (!held) return;
    this.clear();
    const reply = await this.a.move(held.src, dst, held.count);
    const c = this.a.state()?.columns[held.src];
    if (reply.ok || this.held || !c || c.down + c.up.length - held.idx !== held.count) return;
    this.#pick(held.src, held.idx, held.count, c);
  }

  /** Puts the picked-up cards back (after a move, a new state, Esc). */
  clear() {
    if (!this.held) return;
    for (const el of this.r.group(this.held.src, this.held.idx)) el.classList.remove("held");
    this.r.markColumns([], "accepts");
    this.held = null;
  }

  /**
   * @param {number} col
   * @param {number} idx
   * @param {number} count
   * @param {ColumnView} c
   */
  #pick(col, idx, count, c) {
    this.clear();
    this.held = { src: col, idx, count };
    for (const el of this.r.group(col, idx)) el.classList.add("held");
    const dests = count <= c.pickup ? (c.dests[count - 1] ?? []) : [];
    if (this.a.highlight()) this.r.markColumns(dests, "accepts");
    this.a.picked?.(col, idx, count);
  }
}
