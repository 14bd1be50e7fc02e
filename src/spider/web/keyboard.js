// @ts-check
// Keyboard: full play without a pointer, and the shortcuts.
//
//   ← →          move between columns (or choose where a held group goes)
//   ↑ ↓          move between the face-up cards of a column (how many cards to pick up)
//   Enter Space  pick up the group from the focused card; press again on a column to drop it
//   Esc          put the group back
//   D deal · U or Ctrl+Z undo · Ctrl+Shift+Z or Ctrl+Y redo · N new game · S suits and deal
//   H hint · T think harder · F1 or ? how to play
//
// The focused card carries tabindex 0 (a roving tab stop), so Tab reaches the table once and the
// browser draws the focus ring on the card itself.

/**
 * What the keys do (main.js). `pick(col, idx, count)` lifts a group (false: it cannot be);
 * `onTarget(src, dst)` is told the column the held group is over; `drop` plays the move.
 * @typedef {object} KeyboardActions
 * @property {() => unknown} deal
 * @property {() => unknown} undo
 * @property {() => unknown} redo
 * @property {() => unknown} newGame
 * @property {() => unknown} cycleSuits
 * @property {() => unknown} hint
 * @property {() => unknown} think
 * @property {() => unknown} help
 * @property {() => boolean} dialogOpen
 * @property {(col: number, idx: number, count: number) => boolean} pick
 * @property {(src: number, dst: number) => void} onTarget
 * @property {(say: boolean) => void} cancelHold
 * @property {(src: number, dst: number, count: number) => unknown} drop
 */

export class Keyboard {
  /**
   * @param {import("./render.js").Renderer} renderer
   * @param {KeyboardActions} actions
   */
  constructor(renderer, actions) {
    this.r = renderer;
    this.a = actions;
    this.cursor = { col: 0, idx: -1 };
    /** @type {{src: number, idx: number, count: number} | null} the group picked up */
    this.held = null;
    document.addEventListener("keydown", (e) => this.#key(e));
    renderer.columnsEl.addEventListener("focusin", (e) => this.#focused(e));
  }

  /** @param {EventTarget | null} target */
  #typing(target) {
    // Key events always reach an element (the body at least); anything else is not for us.
    if (!(target instanceof Element)) return true;
    return target.closest?.("input, select, textarea, [contenteditable='true']") !== null;
  }

  /** @param {KeyboardEvent} e */
  #key(e) {
    if (e.defaultPrevented || this.a.dialogOpen() || this.#typing(e.target)) return;
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    if (ctrl && !e.altKey) {
      if (lower === "z" && !e.shiftKey) return this.#run(e, this.a.undo);
      if ((lower === "z" && e.shiftKey) || lower === "y") return this.#run(e, this.a.redo);
      return;
    }
    if (e.altKey) return;
    const inTable = this.r.columnsEl.contains(document.activeElement);
    const onControl = !inTable && document.activeElement?.closest?.("button, a, summary");
    switch (key) {
      case "ArrowLeft":
      case "ArrowRight":
        if (onControl && !this.held) return;
        e.preventDefault();
        return this.#horizontal(key === "ArrowLeft" ? -1 : 1);
      case "ArrowUp":
      case "ArrowDown":
        if (onControl && !this.held) return;
        e.preventDefault();
        return this.#vertical(key === "ArrowUp" ? -1 : 1);
      case "Enter":
      case " ":
        if (!inTable && !this.held) return; // buttons keep their own Enter and Space
        e.preventDefault();
        return this.#select();
      case "Escape":
        if (this.held) {
          e.preventDefault();
          this.cancel(true);
        }
        return;
      case "F1":
        return this.#run(e, this.a.help);
      case "?":
        return this.#run(e, this.a.help);
      default:
        break;
    }
    if (e.shiftKey && lower !== "?") return;
    switch (lower) {
      case "d":
        return this.#run(e, this.a.deal);
      case "u":
        return this.#run(e, this.a.undo);
      case "n":
        return this.#run(e, this.a.newGame);
      case "s":
        return this.#run(e, this.a.cycleSuits);
      case "h":
        return this.#run(e, this.a.hint);
      case "t":
        return this.#run(e, this.a.think);
      default:
    }
  }

  /**
   * @param {KeyboardEvent} e
   * @param {() => unknown} fn
   */
  #run(e, fn) {
    e.preventDefault();
    if (this.held) this.cancel(false);
    fn();
  }

  /** @param {FocusEvent} e */
  #focused(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    const at = this.r.locate(target);
    if (at) this.cursor = { col: at.col, idx: at.idx };
    else if (target.dataset.column !== undefined) this.cursor = { col: Number(target.dataset.column), idx: -1 };
  }

  /** @param {number} col */
  #columnTop(col) {
    const c = this.r.state?.columns[col];
    if (!c) return -1;
    return c.down + c.up.length - 1; // -1 for an empty column
  }

  /** @param {number} step */
  #horizontal(step) {
    const state = this.r.state;
    if (!state) return;
    const n = state.columns.length;
    const col = (((this.cursor.col + step) % n) + n) % n;
    this.cursor = { col, idx: this.#columnTop(col) };
    this.focus();
  }

  /** @param {number} step */
  #vertical(step) {
    const state = this.r.state;
    if (!state || this.held) return;
    const c = state.columns[this.cursor.col];
    const top = c.down + c.up.length - 1;
    if (top < 0) return;
    const idx = Math.min(top, Math.max(c.down, (this.cursor.idx < 0 ? top : this.cursor.idx) + step));
    this.cursor = { col: this.cursor.col, idx };
    this.focus();
  }

  #select() {
    const state = this.r.state;
    if (!state) return;
    if (this.cursor.idx < 0 && !this.held) this.cursor.idx = this.#columnTop(this.cursor.col);
    if (!this.held) {
      const c = state.columns[this.cursor.col];
      if (this.cursor.idx < c.down) return;
      const count = c.down + c.up.length - this.cursor.idx;
      if (this.a.pick(this.cursor.col, this.cursor.idx, count)) {
        this.held = { src: this.cursor.col, idx: this.cursor.idx, count };
        for (const el of this.r.group(this.cursor.col, this.cursor.idx)) el.classList.add("held");
      }
      return;
    }
    const { src, count } = this.held;
    const dst = this.cursor.col;
    this.cancel(false);
    if (dst === src) {
      this.a.cancelHold(true);
      return;
    }
    this.a.drop(src, dst, count);
  }

  /**
   * Puts a held group back.
   * @param {boolean} announce
   */
  cancel(announce) {
    if (!this.held) return;
    const { src, idx } = this.held;
    this.held = null;
    for (const el of this.r.group(src, idx)) el.classList.remove("held");
    this.a.cancelHold(announce);
  }

  /**
   * Keeps the cursor on an existing card after a state change; refocuses it if it had focus.
   * @param {import("./types.js").GameState} state
   * @param {boolean} hadFocus
   */
  sync(state, hadFocus) {
    if (this.held) {
      // A state change while holding (an undo, say) puts the group back.
      this.held = null;
      this.a.cancelHold(false);
    }
    const n = state.columns.length;
    const col = Math.min(Math.max(this.cursor.col, 0), n - 1);
    const c = state.columns[col];
    const top = c.down + c.up.length - 1;
    let idx = this.cursor.idx;
    if (idx > top || idx < c.down) idx = top;
    this.cursor = { col, idx };
    this.#tabStop();
    if (hadFocus) this.focus();
  }

  #target() {
    const { col, idx } = this.cursor;
    return (idx >= 0 ? this.r.cardEl(col, idx) : null) ?? this.r.columnEl(col);
  }

  #tabStop() {
    const target = this.#target();
    for (const el of this.r.columnsEl.querySelectorAll("[tabindex='0']")) if (el !== target) /** @type {HTMLElement} */ (el).tabIndex = -1;
    if (target) target.tabIndex = 0;
    return target;
  }

  focus() {
    const target = this.#tabStop();
    if (!target) return;
    target.focus({ preventScroll: true });
    if (this.held && this.a.onTarget) this.a.onTarget(this.held.src, this.cursor.col);
  }
}
