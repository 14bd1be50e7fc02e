// @ts-check
// What the player is told about stored data that could not be read (storage.js): once, at
// start-up, in words that say what it was and that a copy is kept. Data too big to copy is held
// untouched, and nothing is saved until the player chooses: download it, or discard it and save
// again (what was played meanwhile, kept in memory, is saved then).

import { $ } from "./dom.js";
import * as i18n from "./i18n.js";
import { toast } from "./messages.js";
import * as storage from "./storage.js";

const KINDS = ["game", "stats", "daily", "settings"];

/**
 * What a stored key holds, as the texts name it ("stats/…" is a part of the statistics).
 * @param {string} key
 */
function kind(key) {
  const head = key.split("/")[0].replace(/-devices$/, ""); // other devices' statistics: statistics
  return KINDS.includes(head) ? head : "other";
}

// Not app state: whether this page has asked about held data yet (the notice asks once per page).
let asked = false;

/**
 * Says what could not be read since the last call: what was set aside (a toast, each kind of
 * data said once), and what is held (a lasting notice that asks the player, once per page).
 */
export function report() {
  const problems = storage.takeProblems().filter((p) => p.reason !== "write");
  const said = new Set(problems.filter((p) => p.kept).map((p) => i18n.t(`storage.kept.${kind(p.key)}`)));
  if (said.size) toast([...said].join(" "), { label: i18n.t("common.close"), run: () => {} });
  const held = storage.heldKeys();
  if (held.length && !asked) {
    asked = true;
    ask(held);
  }
}

/**
 * The lasting notice for data held because it could not be copied.
 * @param {string[]} keys
 */
function ask(keys) {
  const box = $("[data-held]");
  const list = [...new Set(keys.map((k) => i18n.t(`storage.what.${kind(k)}`)))].join(", ");
  $("[data-held-text]").textContent = i18n.t("storage.held", { list });
  const download = /** @type {HTMLButtonElement} */ ($("[data-held-download]"));
  const discard = /** @type {HTMLButtonElement} */ ($("[data-held-discard]"));
  download.textContent = i18n.t("storage.held.download");
  discard.textContent = i18n.t("storage.held.discard");
  download.onclick = () => save(storage.heldData());
  discard.onclick = () => {
    box.hidden = true;
    if (storage.release()) toast(i18n.t("storage.held.done"));
  };
  box.hidden = false;
}

/**
 * Downloads the held values as they are stored, by key, in one JSON file.
 * @param {Record<string, string>} data
 */
function save(data) {
  const blob = new Blob([JSON.stringify(data)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "spider-unreadable-data.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
