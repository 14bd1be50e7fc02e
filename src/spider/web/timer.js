// @ts-check
// Timer: game time that runs only while the page is visible and a game is under way.

export class Timer {
  /** @param {(ms: number) => void} onTick called with the time shown, each second it runs */
  constructor(onTick) {
    this.onTick = onTick;
    this.base = 0; // ms accumulated before the current run
    this.since = null; // performance.now() when the current run started
    this.wanted = false; // the game wants the clock running (started, not won)
    this.tick = 0;
    document.addEventListener("visibilitychange", () => this.#update());
  }

  get elapsed() {
    return this.base + (this.since === null ? 0 : performance.now() - this.since);
  }

  /** Sets the time (restoring a saved game) without starting the clock. */
  /** @param {number} ms */
  set(ms) {
    this.base = Math.max(0, Number(ms) || 0);
    if (this.since !== null) this.since = performance.now();
    this.onTick(this.elapsed);
  }

  /** @param {boolean} wanted */
  run(wanted) {
    this.wanted = wanted;
    this.#update();
  }

  #update() {
    const go = this.wanted && document.visibilityState === "visible";
    if (go && this.since === null) {
      this.since = performance.now();
      this.#schedule();
    } else if (!go && this.since !== null) {
      this.base = this.elapsed;
      this.since = null;
      clearTimeout(this.tick);
    }
    this.onTick(this.elapsed);
  }

  #schedule() {
    clearTimeout(this.tick);
    const wait = 1000 - (this.elapsed % 1000) + 5;
    this.tick = setTimeout(() => {
      if (this.since === null) return;
      this.onTick(this.elapsed);
      this.#schedule();
    }, wait);
  }
}
