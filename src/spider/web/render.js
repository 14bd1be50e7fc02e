// @ts-check
// Render: draws the engine's view of the table and updates the DOM in place.
//
// Card nodes are kept and re-used across states (keyed by position and card text, see `match`),
// so a move re-parents a few nodes instead of rebuilding the table, and the animation module can
// run each card from its old place to its new one. Layout (card size, how far each column fans
// out) is computed here from the size of the table, so long columns compress and nothing leaves
// the screen.

import { DEAL_STAGGER_MS, FRESH_STAGGER_MS, cancel, play, snapshot } from "./anim.js";
import { RANK_TEXT, SUIT_SYMBOLS, isRed, parseCard, suitSymbol } from "./cards.js";
import { $ } from "./dom.js";
import { cardName, t } from "./i18n.js";

/** @typedef {import("./types.js").GameState} GameState */
/** @typedef {import("./types.js").ColumnView} ColumnView */
/** @typedef {import("./anim.js").CardMove} CardMove */
/** @typedef {import("./anim.js").Leaving} Leaving */

/**
 * One place in a column: a face-down card, or a face-up card and its text.
 * @typedef {{face: "down", text: null} | {face: "up", text: string}} Slot
 */

/**
 * The table's layout: column count, gap, card width and height, corner font, top row height
 * and scale, the columns' height, the fan steps (face-down, face-up, the smallest readable
 * face-up step, the face-down step the fit counts on).
 * @typedef {object} Metrics
 * @property {number} n
 * @property {number} gap
 * @property {number} cw
 * @property {number} ch
 * @property {number} font
 * @property {number} topH
 * @property {number} topScale
 * @property {number} colsH
 * @property {number} down
 * @property {number} up
 * @property {number} upMin
 * @property {number} fitDown
 */

/** Metrics with each column's corner font (`fonts[i]`) and whether every column `fits`. @typedef {Metrics & {fonts: number[], fits: boolean}} FitMetrics */

/** @param {number} n */
const px = (n) => `${Math.round(n * 100) / 100}px`;

// A face-up card's corner (app.css `.card .corner`) sits `max(1px, 3% of the card width)` from
// its top and is about 1.1 em tall: the fan must show that much of each card for it to be read.
/** @param {number} cw */
const cornerTop = (cw) => Math.max(1, cw * 0.03);
/** @param {number} cw @param {number} font */
const readableFan = (cw, font) => cornerTop(cw) + font * 1.1 + 1;
/** @param {number} cw @param {number} fan */
const fontFitting = (cw, fan) => (fan - cornerTop(cw) - 1) / 1.1;
/** The smallest corner label (px): with it a face-up card shows at least 14 px of itself. */
const MIN_FONT = 11;
/** Cards shrink, before any column squeezes its labels, down to this share of their width. */
const MIN_SHRINK = 0.5;
const MIN_CW = 22;
/** The step of a face-down card that the fit counts on: `fan` narrows them to it when needed. */
const FIT_DOWN = 4;
/** The smallest side of a control a finger taps (CSS px): app.css gives the stock this much. */
const TAP_PX = 44;
/** The height of the top row (completed runs, stock) as a share of a card's. */
const TOP_SHARE = 0.55;

// Large cards (the setting, `html.large-cards`): the corner index as large as the card's width
// allows and face-down cards stacked tighter. A column too long for that gets smaller labels of
// its own, as it would without the setting, so the cards never shrink more than without it.
const LARGE_MAX_FONT = 34;
const LARGE_FIT_DOWN = 2;
/** The width of the widest corner ("10" and a suit) in em, when it cannot be measured. */
const LARGE_CORNER_EMS = 1.75;

/**
 * @param {GameState} state
 * @returns {Slot[][]}
 */
function slotsOf(state) {
  return state.columns.map((c) => {
    /** @type {Slot[]} */
    const slots = [];
    for (let i = 0; i < c.down; i++) slots.push({ face: "down", text: null });
    for (const text of c.up) slots.push({ face: "up", text });
    return slots;
  });
}

export class Renderer {
  constructor(doc = document) {
    this.table = $("#table", doc);
    this.columnsEl = $("#columns", doc);
    this.stockEl = $("[data-stock]", doc);
    this.completedEl = $("[data-completed]", doc);
    this.fx = $(".fx", this.table);
    /** @type {HTMLElement[]} column elements */
    this.cols = [];
    /** @type {HTMLElement[][]} per column: card elements, bottom to top */
    this.nodes = [];
    /** @type {GameState | null} */
    this.state = null;
    /** @type {FitMetrics | Metrics | null} the layout last applied */
    this.metrics = null;
    this.animationsEnabled = () => true;
    this.onRendered = (/** @type {GameState} */ _state) => {};
    /** @type {Promise<unknown>} when the running animations end */
    this.settled = Promise.resolve();
    /** @type {number | null} the width of the widest large corner, in em (measured once) */
    this.cornerEms = null;
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.table);
  }

  // ---- queries used by drag, keyboard and main ----

  /** @param {number} i */
  columnEl(i) {
    return this.cols[i];
  }

  /** @param {number} col @param {number} idx */
  cardEl(col, idx) {
    return this.nodes[col]?.[idx] ?? null;
  }

  /**
   * The column and index of a card element, or null.
   * @param {Element} el
   */
  locate(el) {
    const card = /** @type {HTMLElement} */ (el);
    for (let c = 0; c < this.nodes.length; c++) {
      const i = this.nodes[c].indexOf(card);
      if (i >= 0) return { col: c, idx: i };
    }
    return null;
  }

  /**
   * The card elements from `idx` to the top of column `col`.
   * @param {number} col
   * @param {number} idx
   */
  group(col, idx) {
    return this.nodes[col].slice(idx);
  }

  /**
   * Sets a class on the listed columns and removes it from the others.
   * @param {Iterable<number>} list
   * @param {string} cls
   */
  markColumns(list, cls) {
    const set = new Set(list);
    this.cols.forEach((el, i) => el.classList.toggle(cls, set.has(i)));
  }

  // ---- rendering ----

  /**
   * Shows `state`. `fresh` deals the table anew (new game, restart) instead of matching cards.
   * `animate` false puts everything in place at once (first paint, resize).
   * @param {GameState} state
   * @param {{fresh?: boolean, animate?: boolean}} [how]
   */
  render(state, { fresh = false, animate = true } = {}) {
    const prev = this.state;
    this.state = state;
    const n = state.columns.length;
    if (this.cols.length !== n) {
      this.#buildColumns(n);
      fresh = true;
    }
    const enabled = animate && this.animationsEnabled() && prev !== null;
    const all = this.nodes.flat();
    const before = enabled ? snapshot(all) : new Map();
    for (const el of all) {
      cancel(el);
      el.style.transform = "";
      el.classList.remove("dragging", "held", "hinted", "in-flight");
      el.style.zIndex = "";
    }
    const prevCompleted = prev ? prev.completed.length : 0;
    const fromCompleted = enabled && state.completed.length < prevCompleted;
    const slots = slotsOf(state);
    const { assign, leftovers } = fresh ? this.#fresh(slots) : this.#match(slots, state, prev);
    const { moves, nodes } = this.#placeCards(state, slots, assign, { before, enabled, fresh, fromCompleted });
    this.nodes = nodes;

    this.#paintStock(state);
    const completedBefore = this.completedEl.children.length ? prevCompleted : 0;
    this.#paintCompleted(state);
    this.#position();
    const grew = state.completed.length > completedBefore;
    const leaving = enabled ? this.#flyAway(leftovers, before, grew) : [];
    if (!enabled) for (const el of leftovers) el.remove();
    this.settled = play({ moves, leaving }, enabled);
    this.#labelColumns();
    this.onRendered(state);
  }

  /**
   * The rectangle of completed-run slot `i` (the stock's when there is no such slot).
   * @param {number} i
   */
  #completedSlotRect(i) {
    return (this.completedEl.children[i] ?? this.stockEl).getBoundingClientRect();
  }

  /**
   * Creates the nodes that are new, updates contents, and puts every node in its column in
   * order; returns every column's nodes and the animations of the cards that moved or were dealt.
   * @param {GameState} state
   * @param {Slot[][]} slots
   * @param {(HTMLElement | null)[][]} assign
   * @param {{ before: Map<Element, DOMRect>, enabled: boolean, fresh: boolean, fromCompleted: boolean }} how
   */
  #placeCards(state, slots, assign, { before, enabled, fresh, fromCompleted }) {
    const stockRect = this.stockEl.getBoundingClientRect();
    /** @type {CardMove[]} */
    const moves = [];
    /** @type {HTMLElement[][]} */
    const nodes = [];
    let order = 0;
    for (let c = 0; c < slots.length; c++) {
      const colEl = this.cols[c];
      nodes.push([]);
      for (let i = 0; i < slots[c].length; i++) {
        const slot = slots[c][i];
        let el = assign[c][i];
        let from = el ? before.get(el) : null;
        let flip = false;
        /** @type {"move" | "deal"} */
        let kind = "move";
        if (!el) {
          el = document.createElement("div");
          el.className = "card";
          kind = "deal";
          from = fromCompleted ? this.#completedSlotRect(state.completed.length) : stockRect;
        } else if (el.dataset.face !== slot.face || el.dataset.card !== (slot.text ?? undefined)) {
          flip = el.dataset.face !== slot.face;
        }
        this.#paintCard(el, slot);
        nodes[c].push(el);
        if (colEl.children[i] !== el) colEl.insertBefore(el, colEl.children[i] ?? null);
        if (enabled && from) {
          const delay = kind === "deal" ? (fresh ? order++ * FRESH_STAGGER_MS : c * DEAL_STAGGER_MS) : 0;
          moves.push({ el, from, flip, kind, delay });
        }
      }
      while (colEl.children.length > slots[c].length) colEl.lastElementChild?.remove();
    }
    return { moves, nodes };
  }

  /**
   * Cards that left the table fly to the completed row (a run, when it `grew`), back to the
   * stock (an undone deal) or simply fade (a new game); returns their animations.
   * @param {HTMLElement[]} leftovers
   * @param {Map<Element, DOMRect>} before
   * @param {boolean} grew
   */
  #flyAway(leftovers, before, grew) {
    const fxRect = this.fx.getBoundingClientRect();
    const count = this.state ? this.state.completed.length : 0;
    const target = grew ? this.#completedSlotRect(Math.max(0, count - 1)) : this.stockEl.getBoundingClientRect();
    /** @type {Leaving[]} */
    const leaving = [];
    leftovers.forEach((el, k) => {
      const from = before.get(el);
      if (!from) return;
      el.removeAttribute("data-face");
      el.removeAttribute("data-card");
      el.style.left = px(from.left - fxRect.left);
      el.style.top = px(from.top - fxRect.top);
      this.fx.appendChild(el);
      leaving.push({ el, from, to: target, order: grew ? leftovers.length - 1 - k : 0 });
    });
    return leaving;
  }

  /** Re-applies positions (after a resize, a setting or a language change); no animation. */
  layout() {
    if (!this.state) return;
    this.#position();
  }

  /** Re-labels every card and column, for a change of language. */
  relabel() {
    if (!this.state) return;
    const slots = slotsOf(this.state);
    this.nodes.forEach((col, c) => col.forEach((el, i) => this.#paintCard(el, slots[c][i], true)));
    this.#paintStock(this.state);
    this.#paintCompleted(this.state);
    this.#labelColumns();
  }

  /** @param {number} n */
  #buildColumns(n) {
    this.columnsEl.replaceChildren();
    this.fx.replaceChildren();
    this.cols = [];
    this.nodes = [];
    for (let i = 0; i < n; i++) {
      const el = document.createElement("div");
      el.className = "column";
      el.dataset.column = String(i);
      el.setAttribute("role", "group");
      el.tabIndex = -1;
      this.columnsEl.appendChild(el);
      this.cols.push(el);
      this.nodes.push([]);
    }
    this.table.dataset.columns = String(n);
  }

  /**
   * @param {Slot[][]} slots
   * @returns {{assign: (HTMLElement | null)[][], leftovers: HTMLElement[]}}
   */
  #fresh(slots) {
    const leftovers = this.nodes.flat();
    for (const el of leftovers) el.remove();
    return { assign: slots.map((s) => s.map(() => null)), leftovers: [] };
  }

  /**
   * Matches the old card nodes to the new slots so that each card keeps its node:
   *  1. same column, same place, same face and card;
   *  2. the node at the same place when the face changed: a face-down card never moves, so it
   *     was turned face up there (or, on undo, a card was turned face down again). This comes
   *     before 3: in a one-suit game the turned card often has the text of a card of the group
   *     that left it, and would otherwise take that card's node;
   *  3. a face-up card found elsewhere (a moved group), unless runs were just removed or put
   *     back: then no card went from one column to another. The cards that left are the run
   *     (every new card came from the stock), or the cards that came are the run's (the cards
   *     that left go back to the stock: an undone deal);
   *  4. any node at the same place;
   *  5. a face-down node of the same column.
   * Nodes left over leave the table.
   * @param {Slot[][]} slots
   * @param {GameState} state
   * @param {GameState | null} prev
   */
  #match(slots, state, prev) {
    const old = this.nodes;
    /** @type {Set<HTMLElement>} */
    const used = new Set();
    /** @type {(HTMLElement | null)[][]} */
    const assign = slots.map((s) => s.map(() => null));
    /** @param {HTMLElement} el @param {Slot} slot */
    const same = (el, slot) => el.dataset.face === slot.face && (slot.face === "down" || el.dataset.card === slot.text);
    /** @param {HTMLElement} el @param {Slot} slot */
    const turned = (el, slot) => el.dataset.face !== slot.face;
    for (const keep of [same, turned]) {
      slots.forEach((col, c) =>
        col.forEach((slot, i) => {
          const el = old[c]?.[i];
          if (el && !assign[c][i] && !used.has(el) && keep(el, slot)) {
            assign[c][i] = el;
            used.add(el);
          }
        }),
      );
    }
    const runsChanged = prev && state.completed.length !== prev.completed.length;
    if (!runsChanged) {
      /** @type {Map<string | undefined, {el: HTMLElement, c: number, i: number}[]>} */
      const byText = new Map();
      old.forEach((col, c) =>
        col.forEach((el, i) => {
          if (used.has(el) || el.dataset.face !== "up") return;
          const list = byText.get(el.dataset.card) ?? [];
          list.push({ el, c, i });
          byText.set(el.dataset.card, list);
        }),
      );
      slots.forEach((col, c) =>
        col.forEach((slot, i) => {
          if (assign[c][i] || slot.face !== "up") return;
          const list = byText.get(slot.text);
          if (!list?.length) return;
          // Prefer the candidate nearest in column, then in height.
          let best = 0;
          list.forEach((cand, k) => {
            const d = Math.abs(cand.c - c) * 100 + Math.abs(cand.i - i);
            const b = list[best];
            if (d < Math.abs(b.c - c) * 100 + Math.abs(b.i - i)) best = k;
          });
          const [pick] = list.splice(best, 1);
          assign[c][i] = pick.el;
          used.add(pick.el);
        }),
      );
    }
    slots.forEach((col, c) =>
      col.forEach((slot, i) => {
        if (assign[c][i]) return;
        const el = old[c]?.[i];
        if (el && !used.has(el)) {
          assign[c][i] = el;
          used.add(el);
        }
      }),
    );
    slots.forEach((col, c) =>
      col.forEach((slot, i) => {
        if (assign[c][i] || slot.face !== "down") return;
        const el = (old[c] ?? []).find((e) => !used.has(e) && e.dataset.face === "down");
        if (el) {
          assign[c][i] = el;
          used.add(el);
        }
      }),
    );
    const leftovers = old.flat().filter((el) => !used.has(el));
    return { assign, leftovers };
  }

  /**
   * @param {HTMLElement} el
   * @param {Slot} slot
   */
  #paintCard(el, slot, force = false) {
    if (slot.face === "down") {
      if (el.dataset.face === "down" && !force) return;
      el.dataset.face = "down";
      delete el.dataset.card;
      el.className = "card back";
      el.replaceChildren();
      el.removeAttribute("role");
      el.removeAttribute("tabindex");
      el.removeAttribute("aria-label");
      el.setAttribute("aria-hidden", "true");
      return;
    }
    if (el.dataset.face === "up" && el.dataset.card === slot.text && !force) return;
    const { rank, suit } = parseCard(slot.text);
    el.dataset.face = "up";
    el.dataset.card = slot.text;
    el.className = `card face s-${suit}${isRed(suit) ? " red" : ""}${rank > 10 ? " court" : ""}`;
    el.removeAttribute("aria-hidden");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", cardName(slot.text));
    if (!el.hasAttribute("tabindex")) el.tabIndex = -1;
    const corner = document.createElement("span");
    corner.className = "corner";
    const r = document.createElement("span");
    r.className = rank === 10 ? "rank ten" : "rank";
    r.textContent = RANK_TEXT[rank];
    const s = document.createElement("span");
    s.className = "suit";
    s.textContent = suitSymbol(suit);
    corner.append(r, s);
    const pip = document.createElement("span");
    pip.className = "pip";
    pip.textContent = rank > 10 ? RANK_TEXT[rank] : suitSymbol(suit);
    const pip2 = document.createElement("span");
    pip2.className = "pip2";
    pip2.textContent = suitSymbol(suit);
    el.replaceChildren(corner, pip, pip2);
  }

  /** @param {GameState} state */
  #paintStock(state) {
    const el = this.stockEl;
    el.dataset.dealsLeft = String(state.deals_left);
    el.classList.toggle("empty", state.deals_left === 0);
    el.classList.toggle("blocked", state.deals_left > 0 && !state.can_deal);
    const layers = Math.min(state.deals_left, 5);
    const count = $(".stock-count", el);
    if (el.querySelectorAll(".stock-card").length !== layers) {
      for (const c of el.querySelectorAll(".stock-card")) c.remove();
      for (let i = 0; i < layers; i++) {
        const c = document.createElement("span");
        c.className = "stock-card card back";
        c.style.setProperty("--i", String(i));
        el.insertBefore(c, count);
      }
    }
    count.textContent = String(state.deals_left);
    const blocked = state.deals_left > 0 && !state.can_deal ? ` ${t("stock.blocked")}` : "";
    el.setAttribute("aria-label", t("stock.label", { n: state.deals_left }) + blocked);
    el.title = t("stock.title");
  }

  /** @param {GameState} state */
  #paintCompleted(state) {
    const el = this.completedEl;
    const total = state.runs_to_win;
    el.dataset.completed = String(state.completed.length);
    if (el.children.length !== total) {
      el.replaceChildren();
      for (let i = 0; i < total; i++) {
        const slot = document.createElement("span");
        slot.className = "slot";
        el.appendChild(slot);
      }
    }
    [...el.children].forEach((slot, i) => {
      const suit = state.completed[i];
      const want = suit ? `slot card face done s-${suit}${isRed(suit) ? " red" : ""}` : "slot";
      if (slot.className === want) return;
      slot.className = want;
      slot.replaceChildren();
      if (suit) {
        const corner = document.createElement("span");
        corner.className = "corner";
        corner.textContent = `K${suitSymbol(suit)}`;
        const pip = document.createElement("span");
        pip.className = "pip";
        pip.textContent = suitSymbol(suit);
        slot.append(corner, pip);
      }
    });
    el.setAttribute("aria-label", t("completed.aria", { n: state.completed.length, total }));
  }

  #labelColumns() {
    const state = this.state;
    if (!state) return;
    state.columns.forEach((c, i) => {
      const parts = [t("column.name", { n: i + 1 })];
      if (c.down === 0 && c.up.length === 0) parts.push(t("column.empty"));
      if (c.down) parts.push(t("column.down", { n: c.down }));
      if (c.up.length) parts.push(c.up.map(cardName).join(", "));
      this.cols[i].setAttribute("aria-label", parts.join(". "));
      this.cols[i].classList.toggle("is-empty", c.down + c.up.length === 0);
    });
  }

  // ---- layout ----

  /**
   * Card size, corner font and fan spacing for the table's size; `maxCw` caps the card width
   * (see #fit).
   * @returns {Metrics}
   */
  #metrics(maxCw = 120) {
    const large = this.table.ownerDocument.documentElement.classList.contains("large-cards");
    const n = this.cols.length || 10;
    const w = this.table.clientWidth;
    const h = this.table.clientHeight;
    const gap = large ? Math.max(2, Math.min(10, w * 0.006)) : Math.max(2, Math.min(14, w * 0.009));
    const byWidth = (w - gap * (n + 1)) / n;
    // Leave room for the top row and about four cards of fan below it.
    const byHeight = h / (1.4 * 3.9);
    const cw = Math.max(20, Math.min(byWidth, byHeight, maxCw));
    const ch = cw * 1.4;
    const font = large ? this.#largeFont(cw, ch) : Math.max(11, Math.min(22, cw * 0.36));
    // The top row holds the completed runs and the stock: cards at a little over half size,
    // never under a finger's width (the stock is a button), so long columns get the height.
    const topH = Math.max(TAP_PX, ch * TOP_SHARE);
    const topScale = Math.min(1, topH / ch);
    const colsH = Math.max(ch, h - topH - gap * 3);
    return {
      n,
      gap,
      cw,
      ch,
      font,
      topH,
      topScale,
      colsH,
      down: large ? Math.max(3, ch * 0.07) : Math.max(4, ch * 0.11),
      up: Math.max(font * 1.3 + 4, ch * 0.27),
      upMin: readableFan(cw, font),
      fitDown: large ? LARGE_FIT_DOWN : FIT_DOWN,
    };
  }

  /** The large corner's font (px): "10" and its suit fill the card's width (app.css `.large-cards`). */
  /** @param {number} cw @param {number} ch */
  #largeFont(cw, ch) {
    const room = cw - 2 - Math.max(1, cw * 0.03) - 1; // the border, the corner's inset, a pixel
    return Math.max(MIN_FONT, Math.min(LARGE_MAX_FONT, ch * 0.42, room / this.#cornerEms()));
  }

  /** The width of the widest corner index (each rank with each suit) in em, measured once. */
  #cornerEms() {
    if (this.cornerEms !== null) return this.cornerEms;
    const probe = document.createElement("div");
    probe.className = "card face";
    probe.style.visibility = "hidden";
    this.fx.appendChild(probe);
    let widest = 0;
    for (let rank = 1; rank <= 13; rank++) {
      for (const suit of Object.values(SUIT_SYMBOLS)) {
        const corner = document.createElement("span");
        corner.className = "corner";
        corner.style.fontSize = "100px";
        const r = document.createElement("span");
        r.className = rank === 10 ? "rank ten" : "rank";
        r.textContent = RANK_TEXT[rank];
        const sym = document.createElement("span");
        sym.className = "suit";
        sym.textContent = suit;
        corner.append(r, sym);
        probe.appendChild(corner);
      }
    }
    for (const corner of probe.children) widest = Math.max(widest, corner.getBoundingClientRect().width / 100);
    probe.remove();
    // Not laid out (a hidden table): the usual width, measured again next time.
    if (widest <= 0) return LARGE_CORNER_EMS;
    this.cornerEms = widest;
    return widest;
  }

  /**
   * Metrics in which every column of `columns` fits with each face-up card's corner readable.
   * A long column first gets smaller corner labels of its own (`m.fonts[i]`, down to 11px,
   * which shows 14px of each card); when that is not enough, every card gets smaller (down to
   * half the width the window allows: on a landscape phone the cards shrink before a column's
   * labels overlap) if that makes it fit. Otherwise `fan` squeezes the labels of the long column.
   * @param {ColumnView[]} columns
   * @returns {FitMetrics}
   */
  #fit(columns) {
    /** @param {Metrics} m @returns {FitMetrics} */
    const fitted = (m) => {
      // Face-down cards give way first (down to 4px each, `fan`), before face-up ones or cards.
      const down = Math.min(m.down, m.fitDown);
      const fonts = columns.map((c) => {
        const u = c.up.length;
        if (u < 2) return m.font;
        const upNeeded = (m.colsH - m.ch - c.down * down) / (u - 1);
        return Math.min(m.font, Math.max(Math.min(m.font, MIN_FONT), fontFitting(m.cw, upNeeded)));
      });
      /** @param {ColumnView} c @param {number} i */
      const height = (c, i) => c.down * down + Math.max(0, c.up.length - 1) * readableFan(m.cw, fonts[i]) + m.ch;
      const fits = columns.every((c, i) => height(c, i) <= m.colsH);
      return { ...m, fonts, fits };
    };
    const full = fitted(this.#metrics());
    let m = full;
    let cw = m.cw;
    const floor = Math.max(MIN_CW, full.cw * MIN_SHRINK);
    while (!m.fits && cw * 0.95 >= floor) {
      cw *= 0.95;
      m = fitted(this.#metrics(cw));
    }
    // Still too long at the smallest size: the smallest cards squeeze their fan the least.
    return m;
  }

  #position() {
    const fit = this.state ? this.#fit(this.state.columns) : null;
    const m = fit ?? this.#metrics();
    this.metrics = m;
    const s = this.table.style;
    s.setProperty("--cw", px(m.cw));
    s.setProperty("--ch", px(m.ch));
    s.setProperty("--gap", px(m.gap));
    s.setProperty("--fs", px(m.font));
    s.setProperty("--top-h", px(m.topH));
    s.setProperty("--top-scale", String(m.topScale));
    s.setProperty("--cols-h", px(m.colsH));
    this.table.toggleAttribute("data-narrow", m.cw < 58);
    if (!this.state || !fit) return;
    this.state.columns.forEach((c, i) => {
      const font = fit.fonts[i];
      if (font < m.font) this.cols[i].style.setProperty("--fs", px(font));
      else this.cols[i].style.removeProperty("--fs");
      const { down, up } = this.fan(c.down, c.up.length, { ...m, upMin: readableFan(m.cw, font) });
      const nodes = this.nodes[i];
      let y = 0;
      for (let k = 0; k < nodes.length; k++) {
        nodes[k].style.top = px(y);
        y += k < c.down ? down : up;
      }
    });
  }

  /**
   * How far apart face-down and face-up cards sit so that the column fits its height.
   * @param {number} d face-down cards
   * @param {number} u face-up cards
   * @param {Metrics} [m] the layout (the one last applied)
   */
  fan(d, u, m = /** @type {Metrics} */ (this.metrics)) {
    let down = m.down;
    let up = m.up;
    const need = () => d * down + Math.max(0, u - 1) * up + m.ch;
    const room = m.colsH;
    if (need() <= room) return { down, up };
    if (u > 1) up = Math.max(m.upMin, (room - m.ch - d * down) / (u - 1));
    if (need() <= room) return { down, up };
    if (d > 0) down = Math.max(2, (room - m.ch - Math.max(0, u - 1) * up) / d);
    if (need() <= room) return { down, up };
    if (u > 1) up = Math.max(1, (room - m.ch - d * down) / (u - 1));
    return { down, up };
  }
}
