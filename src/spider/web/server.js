// @ts-check
// The solver API of the page's server (`spider serve`): "Think harder" and the review asked over
// HTTP where `/engine.json` names the API (`api`), so that they run at the server's native speed.
//
// `ask(kind, body, onProgress)` posts the question to `/api/think` or `/api/review` and reads the
// answer as it streams in, one JSON object a line: progress (given to `onProgress` as the worker
// gives it), then the answer (`think` or `review`). It resolves with null, and the caller asks the
// page's own worker, whenever the server has no API (a static host), refuses, is busy, cannot be
// reached (offline) or fails mid-way. `cancel(kind)` aborts the request: closing the connection
// stops the search on the server. Nothing here is kept by the service worker (it passes POSTs by).

/** @typedef {"think" | "review"} Kind */

// What /engine.json says of the API, read once (a promise for it, not app state).
/** @type {Promise<Record<Kind, string> | null> | null} */
let api = null;
/** @type {Map<string, Set<AbortController>>} the requests running, by their owner */
const running = new Map();

/** Whether the server offers `value` as its API: a same-origin path for each kind. */
function apiOf(/** @type {unknown} */ value) {
  if (typeof value !== "object" || value === null) return null;
  const urls = /** @type {Record<string, unknown>} */ (value);
  const path = (/** @type {unknown} */ url) => typeof url === "string" && url.startsWith("/") && !url.startsWith("//");
  return path(urls.think) && path(urls.review) ? /** @type {Record<Kind, string>} */ (urls) : null;
}

/** The API's URLs, or null where there is none. */
function urls() {
  api ??= fetch("/engine.json", { cache: "no-cache" })
    .then((response) => (response.ok ? response.json() : null))
    .then((info) => apiOf(info?.api))
    .catch(() => null);
  return api;
}

const aborted = () => new DOMException("cancelled", "AbortError");

/**
 * The JSON lines of `body` as they arrive.
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<Record<string, unknown>>}
 */
async function* jsonLines(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    text += decoder.decode(value, { stream: true });
    let end;
    while ((end = text.indexOf("\n")) >= 0) {
      const line = text.slice(0, end);
      text = text.slice(end + 1);
      if (line.trim()) yield JSON.parse(line);
    }
  }
}

/**
 * Asks the server `kind` with the body `makeBody` gives (null: not this time); resolves with
 * the answer's `kind` field, or null when the worker must answer instead. Rejects with an
 * AbortError when `cancel(kind)` stops it.
 * @template P
 * @param {Kind} kind
 * @param {() => Promise<Record<string, unknown> | null>} makeBody
 * @param {((data: P) => void) | null | undefined} onProgress
 * @returns {Promise<unknown>}
 */
export async function ask(kind, makeBody, onProgress) {
  const controller = new AbortController();
  const mine = running.get(kind) ?? new Set();
  running.set(kind, mine.add(controller));
  try {
    const url = (await urls())?.[kind];
    const body = url ? await makeBody() : null;
    if (controller.signal.aborted) throw aborted();
    if (!url || !body) return null;
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
      signal: controller.signal,
    });
    if (!response.ok || !response.body) return null;
    for await (const line of jsonLines(response.body)) {
      if (line.progress && onProgress) onProgress(/** @type {P} */ (line.progress));
      else if (line[kind]) return line[kind];
      else if (line.error) return null;
    }
    return null;
  } catch (err) {
    if (controller.signal.aborted) throw aborted();
    console.warn(`the server's ${kind} failed; the page answers itself`, err);
    return null;
  } finally {
    mine.delete(controller);
  }
}

/**
 * Stops the server's searches of `owner` (the connection closes, and the server stops).
 * @param {string} owner
 */
export function cancel(owner) {
  for (const controller of running.get(owner) ?? []) controller.abort();
}
