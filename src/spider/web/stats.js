// Records and statistics, kept per game, suit count, rule and scoring.
//
// A deal counts as played from its first action. Winning it adds to the wins and the streak;
// leaving it unfinished for another deal ends the current streak. Best score, best time and
// fewest moves come from won games only.

import * as storage from "./storage.js";

const KEY = "stats";

export function variantKey({ game, suits, rule, scoring }) {
  return `${game}/${suits}/${game === "spiderette" ? "classic" : rule}/${scoring}`;
}

export function parseVariant(key) {
  const [game, suits, rule, scoring] = key.split("/");
  return { game, suits: Number(suits), rule, scoring };
}

/** The shape of a statistics key (the engine says which games exist: `state.variants`). */
const KEY_SHAPE = /^(spider|spiderette)\/[124]\/(classic|flexible)\/(standard|reveal)$/;

/**
 * Every variant the player can choose, in menu order: the engine's list of games
 * (`state.variants`) under each scoring. Before the engine has answered, the variants that
 * already have statistics.
 * @param {{game: string, suits: number, rule: string}[] | undefined} variants
 * @returns {string[]}
 */
export function allVariants(variants) {
  if (!variants) return Object.keys(data.variants);
  const out = [];
  for (const scoring of ["standard", "reveal"]) {
    for (const v of variants) out.push(variantKey({ ...v, scoring }));
  }
  return out;
}

function empty() {
  return { played: 0, won: 0, streak: 0, bestStreak: 0, bestScore: null, bestTime: null, fewestMoves: null };
}

const isCount = (v) => Number.isInteger(v) && v >= 0;
const isOptional = (v) => v === null || Number.isFinite(v);

function validate(data) {
  if (!data || typeof data !== "object" || typeof data.variants !== "object" || data.variants === null) {
    throw new Error("stats: bad shape");
  }
  const variants = {};
  for (const [key, v] of Object.entries(data.variants)) {
    if (!KEY_SHAPE.test(key)) continue;
    const ok =
      ["played", "won", "streak", "bestStreak"].every((k) => isCount(v?.[k])) &&
      ["bestScore", "bestTime", "fewestMoves"].every((k) => isOptional(v?.[k])) &&
      v.won <= v.played;
    if (!ok) throw new Error(`stats: bad entry ${key}`);
    variants[key] = { ...empty(), ...v };
  }
  return { variants };
}

let data = storage.read(KEY, validate, null) ?? { variants: {} };

function save() {
  storage.write(KEY, data);
}

export function get(key) {
  return { ...empty(), ...(data.variants[key] ?? {}) };
}

function put(key, entry) {
  data.variants[key] = entry;
  save();
}

export function recordStart(key) {
  const s = get(key);
  s.played += 1;
  put(key, s);
}

/** Records a win; returns which records it set. */
export function recordWin(key, { score, moves, time }) {
  const s = get(key);
  const records = {
    score: s.bestScore === null || score > s.bestScore,
    time: s.bestTime === null || time < s.bestTime,
    moves: s.fewestMoves === null || moves < s.fewestMoves,
  };
  s.won += 1;
  s.streak += 1;
  s.bestStreak = Math.max(s.bestStreak, s.streak);
  if (records.score) s.bestScore = score;
  if (records.time) s.bestTime = time;
  if (records.moves) s.fewestMoves = moves;
  put(key, s);
  return { ...records, first: s.won === 1 };
}

/** A played game was left unfinished: the streak ends. */
export function recordLoss(key) {
  const s = get(key);
  if (s.streak === 0) return;
  s.streak = 0;
  put(key, s);
}

export function reset(key) {
  delete data.variants[key];
  save();
}

export function winRate(s) {
  return s.played ? s.won / s.played : 0;
}
