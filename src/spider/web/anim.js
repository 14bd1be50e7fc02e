// @ts-check
// Animation: FLIP from the difference between the old and the new table.
//
// The renderer measures every card before it changes the DOM (`snapshot`), applies the new state,
// measures again, and hands both to `plan()`, which starts Web Animations that run each card from
// where it was to where it now is. Animations are compositor-only (transform, opacity), so they
// hold 60 fps on a phone, and they never block input: a new state cancels running animations and
// starts from wherever each card is on screen at that moment.

const MOVE_MS = 190;
const DEAL_MS = 240;
export const DEAL_STAGGER_MS = 32;
export const FRESH_STAGGER_MS = 11;
const RUN_MS = 320;
const RUN_STAGGER_MS = 18;
const FLIP_MS = 200;
const EASE = "cubic-bezier(.2,.75,.25,1)";

/**
 * A card that moved, was dealt or turned: it runs from `from` to where it now is, after `delay` ms.
 * @typedef {object} CardMove
 * @property {HTMLElement} el
 * @property {DOMRect} from
 * @property {boolean} flip
 * @property {"move" | "deal"} kind
 * @property {number} [delay]
 */

/**
 * A card that left the table (already moved to the effects layer): it flies from `from` to
 * `to`, the `order`-th of its group.
 * @typedef {object} Leaving
 * @property {HTMLElement} el
 * @property {DOMRect} from
 * @property {DOMRect} to
 * @property {number} order
 */

/**
 * Where each element is on screen now, running animations and drag offsets included.
 * @param {Iterable<Element>} elements
 */
export function snapshot(elements) {
  /** @type {Map<Element, DOMRect>} */
  const rects = new Map();
  for (const el of elements) rects.set(el, el.getBoundingClientRect());
  return rects;
}

/** @param {Element} el */
export function cancel(el) {
  for (const a of el.getAnimations()) a.cancel();
}

/** @param {HTMLElement} el @param {number} z */
function lift(el, z) {
  el.classList.add("in-flight");
  el.style.zIndex = String(z);
}

/** @param {HTMLElement} el */
function land(el) {
  el.classList.remove("in-flight");
  el.style.zIndex = "";
}

/**
 * Runs the animations of one state change: the cards that `moves` and those `leaving` the table.
 * Returns a promise that settles when everything has finished (or was cancelled).
 * @param {{moves: CardMove[], leaving: Leaving[]}} changes
 * @param {boolean} enabled
 * @returns {Promise<unknown>}
 */
export function play({ moves, leaving }, enabled) {
  if (!enabled) {
    for (const { el } of leaving) el.remove();
    return Promise.resolve();
  }
  const after = moves.map(({ el }) => el.getBoundingClientRect());
  /** @type {Promise<void>[]} */
  const done = [];
  let z = 2000;
  moves.forEach((m, i) => {
    const to = after[i];
    const dx = m.from.left - to.left;
    const dy = m.from.top - to.top;
    const sx = m.from.width / (to.width || 1);
    const moved = Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5 || Math.abs(sx - 1) > 0.01;
    if (!moved && !m.flip) return;
    const duration = m.kind === "deal" ? DEAL_MS : m.flip && !moved ? FLIP_MS : MOVE_MS;
    const delay = m.delay ?? 0;
    const start = `translate(${dx}px, ${dy}px) scale(${sx})`;
    const frames = m.flip
      ? [
          { transform: `${start} scaleX(1)`, offset: 0 },
          { transform: `translate(${dx / 2 + to.width * 0.49}px, ${dy / 2}px) scaleX(0.02)`, offset: 0.5 },
          { transform: "none", offset: 1 },
        ]
      : [{ transform: start }, { transform: "none" }];
    if (moved) lift(m.el, z++);
    const anim = m.el.animate(frames, { duration, delay, easing: EASE, fill: "backwards" });
    done.push(
      anim.finished.then(
        () => land(m.el),
        () => {},
      ),
    );
  });
  leaving.forEach(({ el, from, to, order }) => {
    const dx = to.left - from.left;
    const dy = to.top - from.top;
    const s = to.width / (from.width || 1);
    const anim = el.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.9, offset: 0.85 },
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0 },
      ],
      { duration: RUN_MS, delay: order * RUN_STAGGER_MS, easing: EASE, fill: "both" },
    );
    done.push(anim.finished.then(() => el.remove(), () => el.remove()));
  });
  return Promise.all(done);
}

/**
 * A short wiggle for a refused action (transform only).
 * @param {Element | null | undefined} el
 * @param {boolean} enabled
 */
export function shake(el, enabled) {
  if (!enabled || !el) return;
  el.animate(
    [
      { transform: "translateX(0)" },
      { transform: "translateX(-5px)" },
      { transform: "translateX(5px)" },
      { transform: "translateX(-3px)" },
      { transform: "translateX(0)" },
    ],
    { duration: 260, easing: "ease-out" },
  );
}
