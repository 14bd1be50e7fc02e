// @ts-check
// The chart of recent results in the statistics: one bar per finished game, oldest on the left,
// drawn as plain SVG. A won game is a tall bar above the line, a lost one a short bar below it,
// so the shape tells them apart without the colours; the words beside the chart (its text
// alternative) say the same, and whether the results are rising, falling or steady.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const SLOT = 10; // the width each game takes, in the chart's own units
const HEIGHT = 60;
const LINE = 38; // the line between won (above) and lost (below)
/** The results a trend needs: each half of them at least three games. */
const TREND_MIN = 6;

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 */
function svgEl(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * Draws `results` ("W" won, "L" lost, oldest first) into `svg`, which keeps room for `slots`
 * games: the newest always at the right edge, so the chart keeps its scale as games are added.
 * @param {SVGSVGElement} svg
 * @param {string} results
 * @param {number} slots
 */
export function drawResults(svg, results, slots) {
  const width = slots * SLOT;
  svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const parts = [svgEl("line", { x1: 0, x2: width, y1: LINE, y2: LINE, class: "chart-line" })];
  const first = slots - results.length;
  [...results].forEach((r, i) => {
    const won = r === "W";
    const x = (first + i) * SLOT + 1.5;
    const bar = won ? { y: 4, height: LINE - 5 } : { y: LINE + 1, height: 15 };
    parts.push(svgEl("rect", { x, width: SLOT - 3, rx: 1.5, ...bar, class: won ? "won" : "lost", "data-result": r }));
  });
  svg.replaceChildren(...parts);
}

/**
 * The results in words: how many of the last games were won, and, with enough of them, how the
 * newer half compares with the half before it.
 * @param {string} results "W" won, "L" lost, oldest first
 */
export function describeResults(results) {
  const n = results.length;
  if (n === 0) return t("stats.trend.none");
  if (n === 1) return t(results === "W" ? "stats.trend.one.won" : "stats.trend.one.lost");
  const wins = (/** @type {string} */ s) => s.split("W").length - 1;
  const summary = t("stats.trend.summary", { won: wins(results), n });
  if (n < TREND_MIN) return summary;
  const half = Math.floor(n / 2);
  const newer = wins(results.slice(n - half));
  const older = wins(results.slice(n - 2 * half, n - half));
  const way = newer > older ? "up" : newer < older ? "down" : "same";
  return `${summary} ${t(`stats.trend.${way}`, { newer, older, half })}`;
}
