// @ts-check
// Drag and drop with pointer events (mouse, pen and touch), plus taps and double taps.
//
// A press on a face-up card that moves a few pixels lifts that card and every card above it.
// The group follows the pointer through transforms only, written once per frame. On release the
// column under the group decides: the one it overlaps most, as the Spider and Spiderette apps
// do (a column that cannot take it refuses, with the rule's reminder). Only with automatic placement on
// (`forgiving()`) does an accepting column among those it overlaps win, the nearest to the group's
// centre first. Which columns accept is the engine's answer (`accepts`), never decided here: this
// module is geometry, and reports what the player did through the callbacks it is given.
//
// Taps: a second tap at the same spot soon after the first is reported as the double of it
// (`isDouble`), whatever card is there now (the first tap may have moved its card away): the
// page makes one action of the pair. A tap on a column away from its face-up cards (an empty
// column, a face-down card) is reported by `onTapColumn`, for "tap a card, then where it goes".

const SLOP_MOUSE = 4;
const SLOP_TOUCH = 8;
const DOUBLE_MS = 420;
const DOUBLE_PX = 16;
// A second tap this soon after the first cannot be aimed at what the first tap uncovered (the
// new card has not been on screen long enough for a person to react to it): it is the double
// of the first wherever it lands.
const REACTION_MS = 120;

/**
 * What a tap lands on: a face-up card (its column, place and face) or a column away from its
 * face-up cards. Two taps are a double tap only on the same target.
 * @param {Press} p
 */
function tapTarget(p) {
  const face = p.el instanceof HTMLElement ? (p.el.dataset.card ?? "") : "";
  return p.idx === null ? `column ${p.col}` : `card ${p.col}/${p.idx}/${face}`;
}

/**
 * Compares two scores of the same length, most significant first.
 * @param {number[]} a
 * @param {number[]} b
 */
function isBetter(a, b) {
  for (let k = 0; k < a.length; k += 1) {
    if (a[k] !== b[k]) return a[k] > b[k];
  }
  return false;
}

/**
 * What the pointer does (main.js): `accepts(src, count)` lists the columns that take a group;
 * `onTap(col, idx, pointerType, isDouble)` is a tap or click on a card.
 * @typedef {object} DragCallbacks
 * @property {() => boolean} canStart
 * @property {(src: number, count: number) => number[]} accepts
 * @property {() => boolean} highlight
 * @property {() => boolean} forgiving
 * @property {(src: number, dst: number, count: number, dropped?: boolean) => void} onDrop
 * @property {(col: number, idx: number, pointerType: string, isDouble: boolean) => void} onTap
 * @property {(col: number, isDouble: boolean) => void} [onTapColumn] a tap on a column away
 *   from its face-up cards (an empty column, a face-down card)
 * @property {() => void} onCancel
 * @property {(src: number, count: number) => void} onStart
 */

/**
 * A pointer pressed on a face-up card (`col`, `idx`), or on a column away from its face-up
 * cards (`idx` null), at (`x`, `y`).
 * @typedef {{id: number, type: string, x: number, y: number, col: number, idx: number | null, el: Element | null}} Press
 */

/**
 * A group of `count` cards being dragged by (`dx`, `dy`) from their `rects`; `over` is the
 * column under them, `dests` the columns that take them.
 * @typedef {{els: HTMLElement[], count: number, dests: number[], dx: number, dy: number, over: number | null, rects: DOMRect[]}} Drag
 */

export class DragController {
  /**
   * @param {import("./render.js").Renderer} renderer  card and column elements, layout
   * @param {DragCallbacks} callbacks
   */
  constructor(renderer, callbacks) {
    this.r = renderer;
    this.cb = callbacks;
    /** @type {Press | null} */
    this.press = null;
    /** @type {Drag | null} */
    this.drag = null;
    this.frame = 0;
    /** @type {{t: number, x: number, y: number, on: string} | null} the last single tap */
    this.lastTap = null;
    const root = renderer.columnsEl;
    root.addEventListener("pointerdown", (e) => this.#down(e));
    root.addEventListener("pointermove", (e) => this.#move(e));
    root.addEventListener("pointerup", (e) => this.#up(e));
    root.addEventListener("pointercancel", () => this.cancel());
    root.addEventListener("lostpointercapture", () => {
      if (this.press && !this.released) this.cancel();
    });
    // A long press on touch screens must not open the context menu over a card.
    root.addEventListener("contextmenu", (e) => {
      if (/** @type {Element} */ (e.target).closest(".card")) e.preventDefault();
    });
  }

  get active() {
    return this.drag !== null;
  }

  /** @param {PointerEvent} e */
  #down(e) {
    if (e.button !== 0 || this.press) return;
    const target = /** @type {Element} */ (e.target);
    const cardEl = target.closest(".card[data-face='up']");
    const at = cardEl ? this.r.locate(cardEl) : this.#columnAt(target);
    if (!at) return;
    e.preventDefault(); // no text selection, no native drag, no focus flash
    this.released = false;
    this.press = {
      id: e.pointerId,
      type: e.pointerType,
      x: e.clientX,
      y: e.clientY,
      col: at.col,
      idx: at.idx,
      el: cardEl,
    };
    try {
      this.r.columnsEl.setPointerCapture(e.pointerId);
    } catch {
      // The pointer may already be gone; the press still works as a tap.
    }
  }

  /**
   * The column of an element that is not a face-up card (a face-down card, a column's space).
   * @param {Element} target
   */
  #columnAt(target) {
    const colEl = target.closest?.("[data-column]");
    const col = colEl instanceof HTMLElement ? this.r.cols.indexOf(colEl) : -1;
    return col < 0 ? null : { col, idx: null };
  }

  /** @param {PointerEvent} e */
  #move(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    if (p.idx === null) return; // only face-up cards are dragged
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (!this.drag) {
      const slop = p.type === "mouse" ? SLOP_MOUSE : SLOP_TOUCH;
      if (Math.hypot(dx, dy) < slop || !this.cb.canStart()) return;
      this.#start();
    }
    if (!this.drag) return;
    this.drag.dx = dx;
    this.drag.dy = dy;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.#paint());
  }

  #start() {
    const p = this.press;
    if (!p || p.idx === null) return;
    const els = this.r.group(p.col, p.idx);
    const count = els.length;
    const dests = this.cb.accepts(p.col, count);
    this.drag = { els, count, dests, dx: 0, dy: 0, over: null, rects: els.map((el) => el.getBoundingClientRect()) };
    els.forEach((el, k) => {
      el.classList.add("dragging");
      el.style.zIndex = String(3000 + k);
    });
    if (this.cb.highlight()) this.r.markColumns(dests, "accepts");
    this.cb.onStart?.(p.col, count);
  }

  #paint() {
    this.frame = 0;
    const d = this.drag;
    if (!d) return;
    const tf = `translate(${d.dx}px, ${d.dy}px)`;
    for (const el of d.els) el.style.transform = tf;
    const over = this.#target();
    if (over !== d.over) {
      d.over = over;
      this.r.markColumns(over === null ? [] : [over], "over");
    }
  }

  /**
   * The column the group would drop on, or null: the column it overlaps most (the nearest to its
   * centre on a tie). When forgiving, an accepting column it overlaps comes first.
   */
  #target() {
    const d = this.drag;
    if (!d) return null;
    const top = d.rects[0];
    const left = top.left + d.dx;
    const right = top.right + d.dx;
    const cy = top.top + d.dy + top.height / 2;
    const cx = (left + right) / 2;
    const forgiving = this.cb.forgiving?.() ?? false;
    /** @type {number | null} */
    let best = null;
    /** @type {number[] | null} */
    let bestScore = null;
    this.r.cols.forEach((colEl, i) => {
      const rect = colEl.getBoundingClientRect();
      const overlap = Math.min(right, rect.right) - Math.max(left, rect.left);
      if (overlap <= 0) return;
      // Must be over the table area vertically (with a generous margin above the columns).
      if (cy < rect.top - top.height * 1.2) return;
      const first = forgiving && d.dests.includes(i) ? 1 : 0;
      const dist = Math.abs(cx - (rect.left + rect.right) / 2);
      const score = [first, overlap, -dist];
      if (bestScore === null || isBetter(score, bestScore)) {
        bestScore = score;
        best = i;
      }
    });
    return best;
  }

  /** @param {PointerEvent} e */
  #up(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    this.released = true;
    this.press = null;
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    if (this.drag) {
      const d = this.drag;
      d.dx = e.clientX - p.x;
      d.dy = e.clientY - p.y;
      const over = this.#target();
      this.#clearMarks();
      this.drag = null;
      for (const el of d.els) el.style.transform = `translate(${d.dx}px, ${d.dy}px)`;
      if (over === null || over === p.col) this.cb.onCancel();
      else this.cb.onDrop(p.col, over, d.count, d.dests.includes(over));
      return;
    }
    // A press without movement: a tap or click. The second of two quick taps at one spot on the
    // same card is the double of the first; a tap on another card (the one the first tap
    // uncovered, say) is a tap of its own, unless it comes too soon to be aimed at that card.
    const now = performance.now();
    const last = this.lastTap;
    const on = tapTarget(p);
    const isDouble =
      last !== null &&
      (last.on === on ? now - last.t < DOUBLE_MS : now - last.t < REACTION_MS) &&
      Math.hypot(e.clientX - last.x, e.clientY - last.y) < DOUBLE_PX;
    this.lastTap = isDouble ? null : { t: now, x: e.clientX, y: e.clientY, on };
    if (p.idx === null) this.cb.onTapColumn?.(p.col, isDouble);
    else this.cb.onTap(p.col, p.idx, p.type, isDouble);
  }

  /** Drops whatever is in hand; the renderer puts the cards back on the next render. */
  cancel() {
    const hadDrag = this.drag !== null;
    this.press = null;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.#clearMarks();
    this.drag = null;
    if (hadDrag) this.cb.onCancel();
  }

  #clearMarks() {
    this.r.markColumns([], "accepts");
    this.r.markColumns([], "over");
  }
}
