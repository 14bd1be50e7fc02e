// @ts-check
// "No more moves": asked of the engine after each change, shown only when the engine proves it.
// The verdict is the app state's `noMoves` (a new position drops it: state.js); `<html
// data-no-moves>` shows it to the style sheet and the tests, and is never read back.

import * as dialogs from "./dialogs.js";
import * as i18n from "./i18n.js";
import { announce } from "./messages.js";
import * as settings from "./settings.js";
import * as solver from "./solver.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./state.js").Store} Store */

/** Search limit of the quick check in the game engine (the full one runs in the solver's). */
const STATUS_QUICK_NODES = 1500;

export class NoMoves {
  /**
   * @param {Store} store
   * @param {(req: Request) => Promise<Reply>} ask  a request to the game engine
   * @param {{settled: () => Promise<unknown>, choose: (choice: string) => void}} hooks
   *   `settled()`: when the table's animations end; `choose(choice)`: the player's answer
   *   ("undo", "restart", "new" or "close")
   */
  constructor(store, ask, hooks) {
    this.store = store;
    this.ask = ask;
    this.hooks = hooks;
    /** numbers the checks: an answer to one that a later check replaced is dropped */
    this.seq = 0;
    /** @type {string | null} the `saved` text for which the dialog was shown */
    this.shownFor = null;
  }

  /**
   * Asks whether no moves are left, but only when no deal can ever happen again (otherwise the
   * answer is no and nothing is asked). A quick bounded check runs in the game engine after the
   * table is painted; when it cannot decide, the full one runs in the solver's worker, so play
   * never waits for it. With the "No more moves" setting off (some apps never
   * say it) it runs only when `asked`: on H.
   */
  check(asked = false) {
    const seq = ++this.seq;
    if (this.store.state.noMoves) this.store.set({ noMoves: false });
    const { game, saved, demo } = this.store.state;
    if (!game || game.won || !saved || demo || !(asked || settings.get().noMoves)) return;
    if (game.deal_possible) return;
    requestAnimationFrame(() => setTimeout(() => this.#ask(seq, saved, asked), 0));
  }

  /**
   * @param {number} seq
   * @param {string} here
   * @param {boolean} asked
   */
  async #ask(seq, here, asked) {
    if (seq !== this.seq) return;
    let reply = await this.ask({ op: "status", node_limit: STATUS_QUICK_NODES });
    if (seq !== this.seq || !reply.ok) return;
    if (reply.no_moves_status === "unknown") {
      try {
        reply = await solver.status(here);
      } catch {
        return;
      }
      if (seq !== this.seq || !reply.ok) return;
    }
    if (reply.no_moves) this.show(here, asked);
  }

  /**
   * Shows the "No more moves" dialog, once per position unless the player `asked` (H).
   * @param {string} here
   */
  async show(here, asked = false) {
    if (!this.store.state.noMoves) this.store.set({ noMoves: true });
    if ((this.shownFor === here && !asked) || dialogs.anyOpen() || this.store.state.demo) return;
    this.shownFor = here;
    announce(i18n.t("nomoves.title"));
    await this.hooks.settled();
    this.hooks.choose(await dialogs.openNoMoves());
  }
}
