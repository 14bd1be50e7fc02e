// @ts-check
// Sound effects, synthesized with Web Audio (no audio files): a deal, a move, a completed run and
// a win. Off by default (settings `sound`). The audio context is made on the first sound, which
// always follows a player's action, so browsers allow it. `<html data-sound>` names the last
// effect played and `data-sounds` counts them (read by the tests: a headless browser has no
// speakers to listen to).

import * as settings from "./settings.js";

/** @typedef {"deal" | "move" | "run" | "win"} Effect */

// The audio context, made on the first sound (a handle of the browser's audio, not app state).
/** @type {AudioContext | null} */
let ctx = null;

/** @returns {AudioContext | null} */
function context() {
  if (ctx) return ctx;
  // Older Safari names it webkitAudioContext.
  const Ctor = globalThis.AudioContext ?? /** @type {{webkitAudioContext?: typeof AudioContext}} */ (globalThis).webkitAudioContext;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    ctx = null;
  }
  return ctx;
}

/**
 * One short tone with a quick attack and an exponential fade.
 * @param {AudioContext} ac
 * @param {{freq: number, at: number, dur: number, type?: OscillatorType, gain?: number, to?: number}} n
 */
function tone(ac, { freq, at, dur, type = "triangle", gain = 0.18, to }) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  const t0 = ac.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/**
 * A card's soft snap: a burst of filtered noise.
 * @param {AudioContext} ac
 * @param {number} at seconds from now
 * @param {number} gain
 */
function snap(ac, at, gain = 0.35) {
  const length = Math.floor(ac.sampleRate * 0.045);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  filter.Q.value = 0.9;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(ac.currentTime + at);
}

/** @type {Record<Effect, (ac: AudioContext) => void>} */
const EFFECTS = {
  move: (ac) => snap(ac, 0),
  deal: (ac) => {
    for (let i = 0; i < 10; i++) snap(ac, i * 0.032, 0.22);
  },
  run: (ac) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) => tone(ac, { freq, at: i * 0.07, dur: 0.22 }));
  },
  win: (ac) => {
    const notes = [523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5];
    notes.forEach((freq, i) => tone(ac, { freq, at: i * 0.12, dur: i === notes.length - 1 ? 0.7 : 0.2, gain: 0.2 }));
    tone(ac, { freq: 261.63, at: 0, dur: 1.2, type: "sine", gain: 0.12 });
  },
};

/**
 * Plays `effect` when sound is on.
 * @param {Effect} effect
 */
export function play(effect) {
  if (!settings.get().sound) return;
  const ac = context();
  if (!ac) return;
  if (ac.state === "suspended") ac.resume().catch(() => {});
  try {
    EFFECTS[effect](ac);
  } catch {
    return; // a sound is never worth an error
  }
  const root = document.documentElement;
  root.dataset.sound = effect;
  root.dataset.sounds = String(Number(root.dataset.sounds ?? 0) + 1);
}

/**
 * The effect of an engine reply's events, or null: a win over a run over a deal over a move.
 * @param {{type: string}[] | undefined} events
 * @param {boolean} won the game was won by this reply
 * @returns {Effect | null}
 */
export function effectOf(events, won) {
  if (won) return "win";
  const types = new Set((events ?? []).map((e) => e.type));
  if (types.has("run")) return "run";
  if (types.has("deal") || types.has("new") || types.has("restart")) return "deal";
  if (types.has("move")) return "move";
  return null;
}
