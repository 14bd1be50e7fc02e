// @ts-check
// Card text: the engine names a card by its rank and suit letter ("10H", "QS"). This module is
// the page's one table of ranks and suit symbols; the spoken names are in the locales.

/** The rank as printed on a card, by rank number (1 = ace … 13 = king). */
export const RANK_TEXT = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** @typedef {"S" | "H" | "D" | "C"} Suit */

/** @type {Readonly<Record<Suit, string>>} */
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/**
 * The rank (1–13; -1 if unknown) and suit letter of a card's text.
 * @param {string} text
 * @returns {{rank: number, suit: string}}
 */
export function parseCard(text) {
  return { rank: RANK_TEXT.indexOf(text.slice(0, -1)), suit: text.slice(-1) };
}

/**
 * The symbol of suit letter `suit` ("" for a letter that is no suit).
 * @param {string} suit
 */
export function suitSymbol(suit) {
  return suit in SUIT_SYMBOLS ? SUIT_SYMBOLS[/** @type {Suit} */ (suit)] : "";
}

/** Whether suit letter `suit` is printed red. @param {string} suit */
export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/**
 * The symbols of the first `n` suits of a game of `n` suits ("♠♥" for two).
 * @param {number} n
 */
export function suitGlyphs(n) {
  return Object.values(SUIT_SYMBOLS).slice(0, n).join("");
}
