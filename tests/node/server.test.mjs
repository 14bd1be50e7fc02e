// @ts-check
// The page's client of the server's solver API (src/spider/web/server.js): the answer read as it
// streams, progress on the way, and null (the worker answers) whenever the server cannot.
// `node --test tests/node/` (tests/test_node.py). The server here is a stand-in `fetch`.
import assert from "node:assert/strict";
import { test } from "node:test";

/** @type {(url: string, init: RequestInit) => Promise<Response>} */
let answer = async () => new Response("", { status: 404 });
/** @type {{url: string, body: unknown, signal: AbortSignal | null}[]} */
const posted = [];

globalThis.fetch = async (input, init = {}) => {
  const url = String(input);
  if (url === "/engine.json") return Response.json({ api: { think: "/api/think", review: "/api/review" } });
  posted.push({ url, body: JSON.parse(String(init.body)), signal: init.signal ?? null });
  return answer(url, init);
};

const { ask, cancel } = await import("../../src/spider/web/server.js");

/**
 * A streamed answer of JSON `lines`; with `open`, it never ends (until the request is aborted).
 * @param {unknown[]} lines
 * @param {{open?: boolean, signal?: AbortSignal | null}} [opts]
 */
function streamed(lines, { open = false, signal = null } = {}) {
  const bytes = new TextEncoder().encode(lines.map((line) => JSON.stringify(line) + "\n").join(""));
  const body = new ReadableStream({
    start(controller) {
      // Split mid-line: the reader must join the pieces.
      controller.enqueue(bytes.slice(0, 7));
      controller.enqueue(bytes.slice(7));
      if (!open) controller.close();
      signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/x-ndjson" } });
}

const body = async () => ({ visible: { game: "spider" }, time_limit: 5 });

test("the answer and the progress before it come as the worker gives them", async () => {
  answer = async () => streamed([{ progress: { iterations: 1 } }, { progress: { iterations: 2 } }, { think: { notation: "ab" } }]);
  /** @type {unknown[]} */
  const seen = [];
  const result = await ask("think", body, (/** @type {unknown} */ p) => seen.push(p));
  assert.deepEqual(result, { notation: "ab" });
  assert.deepEqual(seen, [{ iterations: 1 }, { iterations: 2 }]);
  assert.deepEqual(posted.at(-1)?.body, { visible: { game: "spider" }, time_limit: 5 });
  assert.equal(posted.at(-1)?.url, "/api/think");
});

test("a refusal, a failure, an error line or no network leave the answer to the worker", async () => {
  for (const reply of [
    async () => Response.json({ error: { code: "busy", message: "" } }, { status: 503 }),
    async () => streamed([{ progress: {} }, { error: { code: "time-limit", message: "" } }]),
    async () => streamed([{ progress: {} }]),
    async () => {
      throw new TypeError("Failed to fetch");
    },
  ]) {
    answer = reply;
    assert.equal(await ask("review", async () => ({ saved: "x" }), null), null);
  }
});

test("no body, no request: the worker answers", async () => {
  const before = posted.length;
  assert.equal(await ask("think", async () => null, null), null);
  assert.equal(posted.length, before);
});

test("cancel aborts the request (the server then stops) and rejects with an AbortError", async () => {
  answer = async (_url, init) => streamed([{ progress: {} }], { open: true, signal: init.signal });
  const asked = ask("think", body, () => cancel("think"));
  await assert.rejects(asked, (/** @type {unknown} */ err) => err instanceof DOMException && err.name === "AbortError");
  assert.equal(posted.at(-1)?.signal?.aborted, true);
});
