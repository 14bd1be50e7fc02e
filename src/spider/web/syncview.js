// @ts-check
// The "Sync across devices" dialog (Settings): turn sync on, show the key and its QR code, use
// the key of another device, the status in words, stop syncing here. And a sync link
// (`/#sync=<key>`, what the QR code holds): taken off the address bar at once, and joined only
// when the player says so.

import { isObject } from "./checks.js";
import * as dialogs from "./dialogs.js";
import { $ } from "./dom.js";
import * as i18n from "./i18n.js";
import { showMessage, toast } from "./messages.js";
import { SyncKeyError, newKey, normalKey } from "./synckey.js";

/** @typedef {import("./sync.js").Sync} Sync */
/** @typedef {import("./sync.js").Status} Status */

/**
 * What the QR encoder (the npm package qrcode-generator, copied beside the app by `make setup`)
 * gives; loaded only when a code is shown.
 * @typedef {{addData: (text: string) => void, make: () => void, getModuleCount: () => number,
 *   isDark: (row: number, col: number) => boolean}} QrCode
 * @typedef {(typeNumber: number, level: string) => QrCode} QrFactory
 */

const LINK_PREFIX = "#sync=";
const dlg = $("#dlg-sync", document, HTMLDialogElement);
const statusEl = $("[data-sync-status]", dlg);
const offEl = $("[data-sync-off]", dlg);
const onEl = $("[data-sync-on]", dlg);
const keyEl = $("[data-sync-key]", dlg);
const qrEl = $("[data-sync-qr]", dlg, SVGSVGElement);
const input = $("[data-sync-input]", dlg, HTMLInputElement);
const errorEl = $("[data-sync-error]", dlg);

// Not app state: the sync service's handle, a link key waiting to be offered, and whether the
// page has started (a link is offered only then).
/** @type {Sync | null} */
let sync = null;
/** The key of a sync link opened with this page, taken off the address bar. */
let linkKey = takeLinkKey();

// A sync link pasted into the address bar of an open page.
addEventListener("hashchange", () => {
  if (!location.hash.startsWith(LINK_PREFIX) || !started) return;
  linkKey = takeLinkKey();
  offerLink();
});
let started = false;

/** @returns {string} the key in the address (`#sync=…`), removed from it; "" when none */
function takeLinkKey() {
  if (!location.hash.startsWith(LINK_PREFIX)) return "";
  const key = decodeURIComponent(location.hash.slice(LINK_PREFIX.length));
  history.replaceState(null, "", location.pathname + location.search);
  return key || " ";
}

/** The link that joins this sync on another device (what the QR code holds). @param {string} key */
export function linkFor(key) {
  return `${location.origin}/${LINK_PREFIX}${key}`;
}

/**
 * Wires the dialog to `s` and shows the Settings entry (only called when the page has a sync
 * service). Then offers to join a sync link opened with the page.
 * @param {Sync} s
 */
export function setup(s) {
  sync = s;
  const entry = $("[data-sync-entry]");
  entry.hidden = false;
  $("[data-action='sync-open']").addEventListener("click", () => {
    $("#dlg-settings", document, HTMLDialogElement).close();
    openDialog();
  });
  s.addEventListener("status", () => render());
  $("[data-action='sync-on']", dlg).addEventListener("click", () => turnOn());
  $("[data-action='sync-join']", dlg).addEventListener("click", () => join(input.value));
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault(); // not the form's Close
    join(input.value);
  });
  input.addEventListener("input", () => showError(""));
  $("[data-action='sync-now']", dlg).addEventListener("click", () => s.run());
  $("[data-action='sync-stop']", dlg).addEventListener("click", () => stop());
  render();
  s.start();
}

export function openDialog() {
  showError("");
  input.value = "";
  render();
  dialogs.open(dlg, sync?.on ? $("[data-action='sync-now']", dlg) : $("[data-action='sync-on']", dlg));
}

/** Re-translates the dialog after a change of language. */
export function relabel() {
  if (dlg.open) render();
}

async function turnOn() {
  if (!sync) return;
  await sync.turnOn(newKey());
  render();
}

/** @param {string} typed */
async function join(typed) {
  if (!sync) return;
  let key;
  try {
    key = normalKey(typed);
  } catch (err) {
    showError(keyError(err));
    input.focus();
    return;
  }
  const button = $("[data-action='sync-join']", dlg, HTMLButtonElement);
  button.disabled = true;
  try {
    await sync.join(key);
    toast(i18n.t("sync.joined"));
    render();
  } catch (err) {
    showError(joinError(err));
  } finally {
    button.disabled = false;
  }
}

/** @param {unknown} err */
function keyError(err) {
  if (!(err instanceof SyncKeyError)) return i18n.t("sync.key.check");
  if (err.code === "char") return i18n.t("sync.key.char", { c: err.detail });
  if (err.code === "short" || err.code === "long") return i18n.t("sync.key.length", { n: Number(err.detail) });
  return i18n.t(`sync.key.${err.code}`);
}

/** @param {unknown} err */
function joinError(err) {
  if (err instanceof SyncKeyError) return keyError(err);
  const code = isObject(err) && typeof err.code === "string" ? err.code : "server";
  return i18n.t(`sync.error.${code}`);
}

/** @param {string} text */
function showError(text) {
  errorEl.textContent = text;
  errorEl.hidden = !text;
  input.setAttribute("aria-invalid", String(Boolean(text)));
}

async function stop() {
  if (!sync) return;
  const ok = await dialogs.confirm({ title: i18n.t("sync.stop.title"), text: i18n.t("sync.stop.text"), ok: i18n.t("sync.stop") });
  if (!ok) return;
  sync.stop();
  render();
}

/** The status in words. @param {Status} status */
export function statusText(status) {
  switch (status.state) {
    case "off":
      return i18n.t("sync.status.off");
    case "syncing":
      return i18n.t("sync.status.syncing");
    case "offline":
      return i18n.t("sync.status.offline");
    case "waiting":
      return i18n.t("sync.status.waiting", { n: status.retry });
    case "error":
      return i18n.t(`sync.error.${status.error || "server"}`);
    default:
      return status.at ? i18n.t("sync.status.ok", { time: when(status.at) }) : i18n.t("sync.status.never");
  }
}

/** @param {number} ms a time since the epoch */
function when(ms) {
  const date = new Date(ms);
  const today = date.toDateString() === new Date().toDateString();
  const options = /** @type {Intl.DateTimeFormatOptions} */ (today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" });
  return new Intl.DateTimeFormat(i18n.current(), options).format(date);
}

function render() {
  if (!sync) return;
  const on = sync.on;
  dlg.dataset.syncPhase = on ? "on" : "off";
  offEl.hidden = on;
  onEl.hidden = !on;
  statusEl.textContent = statusText(sync.status);
  statusEl.dataset.state = sync.status.state;
  const key = sync.state?.key ?? "";
  if (keyEl.textContent !== key) {
    keyEl.textContent = key;
    drawQr(key ? linkFor(key) : "");
  }
}

/**
 * Draws `text` as a QR code into the dialog's SVG (nothing when empty).
 * @param {string} text
 */
async function drawQr(text) {
  qrEl.replaceChildren();
  qrEl.dataset.link = text;
  if (!text) return;
  const url = "./vendor/qrcode.mjs"; // not resolved by the type checker: the package has its own types
  /** @type {{default: QrFactory}} */
  const module = await import(url);
  if (qrEl.dataset.link !== text) return; // another key meanwhile
  const qr = module.default(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let path = "";
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
  }
  const ns = "http://www.w3.org/2000/svg";
  const size = n + 2 * quiet;
  qrEl.setAttribute("viewBox", `0 0 ${size} ${size}`);
  const back = document.createElementNS(ns, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  const dark = document.createElementNS(ns, "path");
  dark.setAttribute("d", path);
  dark.setAttribute("fill", "#000");
  qrEl.append(back, dark);
}

/**
 * After the start: a sync link opened with the page asks the player before joining (joining
 * merges: nothing here is lost). A page without a sync service says so.
 */
export async function offerLink() {
  started = true;
  const typed = linkKey;
  linkKey = "";
  if (!typed) return;
  if (!sync) {
    showMessage(i18n.t("sync.link.none"), { tone: "warn", ms: 6000 });
    return;
  }
  let key;
  try {
    key = normalKey(typed);
  } catch (err) {
    showMessage(i18n.t("sync.link.bad", { reason: keyError(err) }), { tone: "warn", ms: 8000 });
    return;
  }
  if (sync.state?.key === key) {
    toast(i18n.t("sync.link.same"));
    return;
  }
  const text = i18n.t("sync.link.text") + (sync.on ? ` ${i18n.t("sync.link.switch")}` : "");
  const ok = await dialogs.confirm({ title: i18n.t("sync.link.title"), text, ok: i18n.t("sync.link.ok") });
  if (!ok) return;
  openDialog();
  input.value = key;
  await join(key);
}
