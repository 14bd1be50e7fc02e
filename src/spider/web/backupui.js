// @ts-check
// "Back up" and "Restore…" (More menu). Back up downloads this device's backup document
// (backupdoc.js) as a file. Restore reads a file, has the engine check it ("backup-check": the
// page never judges a file itself), shows what it holds and what merging it would change (the
// engine's "backup-merge" of this device's document and the file's), and after the player
// confirms, merges again (storage may have changed meanwhile) and writes the result. A file the
// engine refuses is refused in words, and nothing changes.

import * as backupdoc from "./backupdoc.js";
import { fillGrid, variantName } from "./dialogs.js";
import { formatLongDate, formatNumber, t } from "./i18n.js";
import { localDate } from "./daily.js";
import { toast } from "./messages.js";
import * as stats from "./stats.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./backupdoc.js").BackupDoc} BackupDoc */
/**
 * What the engine says a backup holds (spider.backup.summary).
 * @typedef {{written: string, game: {game: string, suits: number, rule: string, scoring: string, moves: number, won: boolean} | null,
 *   stats: {played: number, won: number, devices: number, resets: number}, daily: {wins: number, streak: number}, settings: number}} Summary
 */
/** @typedef {{game: boolean, stats: boolean, daily: boolean, settings: boolean}} Changed */
/** @typedef {Reply & {backup?: BackupDoc, summary?: Summary, changed?: Changed}} BackupReply */

const PARTS = /** @type {const} */ (["game", "stats", "daily", "settings"]);
const REFUSALS = new Set(["not-backup", "backup-version", "bad-backup", "backup-too-large"]);

/** Downloads this device's backup: `spider-backup-YYYY-MM-DD.json`. */
export function download() {
  const name = `spider-backup-${localDate()}.json`;
  const blob = new Blob([JSON.stringify(backupdoc.collect())], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  toast(t("backup.saved", { file: name }));
}

const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("dlg-restore"));
const picker = /** @type {HTMLInputElement} */ (document.querySelector("[data-restore-file]"));
const confirmBtn = /** @type {HTMLButtonElement} */ (dlg.querySelector("[data-action='restore-confirm']"));
// The Restore dialog's own state (not app state): the checked backup waiting for the player's yes.
/** @type {{ask: (req: Request) => Promise<Reply>, doc: BackupDoc} | null} */
let pending = null;

/**
 * Opens the file picker; the chosen file goes on to `check`.
 * @param {(req: Request) => Promise<Reply>} ask
 */
export function chooseFile(ask) {
  picker.value = "";
  picker.onchange = () => {
    const file = picker.files?.[0];
    if (file) void check(ask, file);
  };
  picker.click();
}

/**
 * @param {string} tag
 * @param {string} text
 * @param {string} [attr] a data- attribute naming the line, for tests and styles
 */
function line(tag, text, attr) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (attr) node.setAttribute(`data-${attr}`, "");
  return node;
}

/**
 * The words of a refusal: of the file, or (message "local: …") of what this browser keeps.
 * @param {Reply} reply
 */
function refusal(reply) {
  const code = reply.error?.code ?? "read";
  if (REFUSALS.has(code) && reply.error?.message.startsWith("local: ")) return "restore.bad.local";
  return REFUSALS.has(code) ? `restore.bad.${code}` : "restore.bad.read";
}

/**
 * Shows the dialog with a refusal: the file is not restored.
 * @param {string} code
 * @param {string} [key] the words to show (by default those of `code`)
 */
function refuse(code, key = REFUSALS.has(code) ? `restore.bad.${code}` : "restore.bad.read") {
  pending = null;
  const summary = /** @type {HTMLElement} */ (dlg.querySelector("[data-restore-summary]"));
  const changes = /** @type {HTMLElement} */ (dlg.querySelector("[data-restore-changes]"));
  summary.replaceChildren();
  changes.replaceChildren(line("p", t(key), "restore-refused"));
  dlg.dataset.state = "refused";
  dlg.dataset.code = code;
  confirmBtn.hidden = true;
  if (!dlg.open) dlg.showModal();
}

/** @param {Summary} s */
function fillSummary(s) {
  /** @type {[string, string, string?][]} */
  const rows = [[t("restore.written"), formatLongDate(new Date(s.written)), "written"]];
  const g = s.game;
  const game = g ? `${variantName(stats.variantKey(g))} · ${t(g.won ? "restore.gameWon" : "restore.moves", { moves: formatNumber(g.moves) })}` : t("restore.noGame");
  rows.push([t("restore.game"), game, "game"]);
  rows.push([t("restore.stats"), t("restore.statsValue", { played: formatNumber(s.stats.played), won: formatNumber(s.stats.won) }), "stats"]);
  rows.push([t("restore.daily"), t("restore.dailyValue", { wins: formatNumber(s.daily.wins), streak: formatNumber(s.daily.streak) }), "daily"]);
  rows.push([t("restore.settings"), t(s.settings ? "restore.included" : "restore.notIncluded"), "settings"]);
  fillGrid(/** @type {HTMLElement} */ (dlg.querySelector("[data-restore-summary]")), rows);
}

/**
 * @param {Changed} changed
 * @param {Summary} merged
 */
function fillChanges(changed, merged) {
  const box = /** @type {HTMLElement} */ (dlg.querySelector("[data-restore-changes]"));
  const parts = PARTS.filter((p) => changed[p]);
  if (!parts.length) {
    box.replaceChildren(line("p", t("restore.nothing"), "restore-nothing"));
    return;
  }
  const list = document.createElement("ul");
  // Statistics reset on another device since: this device's are reset too, not added to.
  const reset = merged.stats.resets > stats.epoch().n;
  for (const p of parts) {
    const words = p === "stats" && reset ? "restore.change.reset" : `restore.change.${p}`;
    list.append(line("li", t(words, { played: formatNumber(merged.stats.played), won: formatNumber(merged.stats.won) }), `restore-change-${p}`));
  }
  box.replaceChildren(line("p", t("restore.changes")), list);
}

/**
 * The engine's merge of this device's document and `doc`.
 * @param {(req: Request) => Promise<Reply>} ask
 * @param {BackupDoc} doc
 * @returns {Promise<BackupReply>}
 */
async function merged(ask, doc) {
  return /** @type {BackupReply} */ (await ask({ op: "backup-merge", local: backupdoc.collect(), incoming: doc }));
}

/**
 * Reads and checks a chosen file, and shows what it holds and what restoring it would change.
 * @param {(req: Request) => Promise<Reply>} ask
 * @param {Blob} file
 */
export async function check(ask, file) {
  let text;
  try {
    text = await file.text();
  } catch {
    refuse("read");
    return;
  }
  const reply = /** @type {BackupReply} */ (await ask({ op: "backup-check", text }));
  if (!reply.ok || !reply.backup || !reply.summary) {
    refuse(reply.error?.code ?? "read", refusal(reply));
    return;
  }
  const preview = await merged(ask, reply.backup);
  if (!preview.ok || !preview.changed || !preview.summary) {
    refuse(preview.error?.code ?? "read", refusal(preview));
    return;
  }
  pending = { ask, doc: reply.backup };
  fillSummary(reply.summary);
  fillChanges(preview.changed, preview.summary);
  dlg.dataset.state = "ready";
  delete dlg.dataset.code;
  confirmBtn.hidden = false;
  if (!dlg.open) dlg.showModal();
}

/** Restores the checked file: merges it with what is here now, writes the result, says what changed. */
export async function confirm() {
  const job = pending;
  pending = null;
  dlg.close();
  if (!job) return;
  const reply = await merged(job.ask, job.doc);
  if (!reply.ok || !reply.backup || !reply.changed) {
    toast(t(refusal(reply)));
    return;
  }
  const changed = reply.changed;
  const parts = PARTS.filter((p) => changed[p]);
  if (!parts.length) {
    toast(t("restore.unchanged"));
    return;
  }
  backupdoc.apply(reply.backup);
  toast(t("restore.done", { what: parts.map((p) => t(`restore.part.${p}`)).join(", ") }));
}

/** Forgets a checked file when the dialog is closed without restoring it. */
dlg.addEventListener("close", () => {
  if (dlg.returnValue !== "restore") pending = null;
});
