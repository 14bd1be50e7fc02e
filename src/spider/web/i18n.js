// @ts-check
// i18n: English, Catalan, German, Spanish, French, Italian, Dutch and Portuguese. Each locale
// is a module of plain strings (with {name} placeholders and plural forms keyed by the
// categories of Intl.PluralRules: one, other…) plus the How to play pages.

/** Every language of the app, each in its own name (the Settings picker lists the same). */
export const LANGUAGES = {
  en: "English",
  ca: "Català",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
  nl: "Nederlands",
  pt: "Português",
};

import { parseCard } from "./cards.js";

/** @typedef {import("./types.js").Strings} Strings */
/** @typedef {import("./types.js").HelpSection} HelpSection */

/** @type {Record<string, () => Promise<{default: Strings}>>} */
const loaders = {
  en: () => import("./locales/en.js"),
  ca: () => import("./locales/ca.js"),
  de: () => import("./locales/de.js"),
  es: () => import("./locales/es.js"),
  fr: () => import("./locales/fr.js"),
  it: () => import("./locales/it.js"),
  nl: () => import("./locales/nl.js"),
  pt: () => import("./locales/pt.js"),
};

// The language in use and its text: set once the locale module has loaded (a cache of that
// module, read everywhere through `t`; the choice itself is the settings' `lang`).
let lang = "en";
/** @type {Strings} */
let strings = {};
let plural = new Intl.PluralRules("en");

/**
 * The language to use: ?lang=xx, then the saved choice, then the browser's languages.
 * @param {string | null | undefined} saved
 */
export function pickLanguage(saved) {
  const forced = new URLSearchParams(location.search).get("lang");
  if (forced && forced.slice(0, 2).toLowerCase() in LANGUAGES) return forced.slice(0, 2).toLowerCase();
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/**
 * Loads language `code` (English when it is none of ours) and returns the one in use.
 * @param {string} code
 */
export async function setLanguage(code) {
  const mod = await (loaders[code] ?? loaders.en)();
  lang = code in loaders ? code : "en";
  strings = mod.default;
  plural = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  return lang;
}

export function current() {
  return lang;
}

/**
 * The text for `key`, with {placeholders} filled from `params`; `params.n` picks a plural form.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  let s = strings[key];
  if (s === undefined) return key;
  if (typeof s === "object" && !Array.isArray(s)) s = s[plural.select(Number(params.n ?? 0))] ?? s.other;
  return String(s).replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** @param {string} key */
export function has(key) {
  return key in strings;
}

/**
 * The How to play pages named `key` (none when the locale has no such pages).
 * @param {string} key
 * @returns {HelpSection[]}
 */
export function data(key) {
  const pages = strings[key];
  return Array.isArray(pages) ? pages : [];
}

/**
 * "Queen of hearts", "reina de corazones"…
 * @param {string} text a card as the engine names it ("QH")
 */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** Applies the locale to the static page: [data-i18n], [data-i18n-title], [data-i18n-aria]. */
export function applyToDocument(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    const h = /** @type {HTMLElement} */ (el);
    h.title = t(h.dataset.i18nTitle ?? "");
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(/** @type {HTMLElement} */ (el).dataset.i18nAria ?? ""));
  document.title = t("app.title");
}

/** @param {number} ms */
export function formatTime(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(s).padStart(2, "0")}`;
}

/** @param {number} n */
export function formatNumber(n) {
  return new Intl.NumberFormat(lang).format(n);
}

/**
 * `n` with exactly `digits` decimals, in the language's own way ("0.4", "0,4").
 * @param {number} n
 * @param {number} digits
 */
export function formatDecimal(n, digits) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/**
 * A share such as a win rate, as a whole percentage in the language's own way ("40%", "40 %").
 * @param {number} fraction from 0 to 1
 */
export function formatPercent(fraction) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(fraction);
}

/**
 * A day in full, as a heading in the language's own way: "Friday, December 4, 2026",
 * "Vendredi 4 décembre 2026", "Freitag, 4. Dezember 2026". Only the first letter is raised, since
 * most of these languages write weekdays and months in lower case.
 * @param {Date} date
 */
export function formatLongDate(date) {
  const text = date.toLocaleDateString(lang, { weekday: "long", year: "numeric", month: "long", day: "numeric" });
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}
