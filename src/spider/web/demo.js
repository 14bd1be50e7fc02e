// @ts-check
// The demo: the solver's line played through the game engine, move by move, animated; any input
// stops it after the step in progress, and every step played stays (undo works).

import { $ } from "./dom.js";
import * as i18n from "./i18n.js";
import { announce } from "./messages.js";
import * as settings from "./settings.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./state.js").Store} Store */

const html = document.documentElement;

export class Demo {
  /**
   * @param {Store} store
   * @param {{send: (req: Request, ctx: Context) => Promise<Reply>, settled: () => Promise<unknown>, onStart: () => void}} hooks
   *   `send`: plays a request and applies its reply; `settled()`: when the animations end
   */
  constructor(store, hooks) {
    this.store = store;
    this.hooks = hooks;
    /** @type {{stopped: boolean} | null} the demo now playing */
    this.run = null;
  }

  /** @param {boolean} on */
  #show(on) {
    if (on) html.dataset.demo = "running";
    else delete html.dataset.demo;
    $("[data-demo-bar]").hidden = !on;
  }

  /**
   * Plays the solver's `actions`. The game is marked as assisted: a win is not the player's.
   * @param {Request[]} actions
   */
  async play(actions) {
    this.stop(false);
    this.hooks.onStart();
    const run = { stopped: false };
    this.run = run;
    this.store.set({ demo: true, meta: { ...this.store.state.meta, assisted: true } });
    this.#show(true);
    const pause = () => new Promise((r) => setTimeout(r, settings.animate() ? 240 : 90));
    try {
      for (const step of actions) {
        if (run.stopped) break;
        const reply = await this.hooks.send(step, { quiet: true });
        if (!reply.ok || reply.state?.won) break;
        await this.hooks.settled();
        if (!run.stopped) await pause();
      }
    } finally {
      if (this.run === run) this.#end();
    }
  }

  /** Stops the demo after the step in progress (`say`: announce it). */
  stop(say = true) {
    if (!this.run) return;
    this.run.stopped = true;
    this.#end();
    if (say) announce(i18n.t("demo.stopped"));
  }

  #end() {
    this.run = null;
    this.#show(false);
    this.store.set({ demo: false });
  }

  get running() {
    return this.run !== null;
  }
}
