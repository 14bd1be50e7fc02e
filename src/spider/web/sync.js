// @ts-check
// Sync across devices: this device's backup document (backupdoc.js), encrypted with a key only
// the player's devices know (synckey.js), kept on the page's sync service (`<meta
// name="spider-sync">`, answered by `spider serve`).
//
// Offline first: play never waits for the network. Every save marks the data as changed; a sync
// runs at start, 2 s after changes, when the network comes back, when the page is hidden (as a
// keepalive request, which outlives the page) and every minute while it is visible. A sync reads
// the stored blob, has the engine merge it with this device's document (`backup-merge`: the rules
// live there, not here), writes the merge here when it changed anything, and writes it to the
// server when the server lacks something, with the revision it read: a 409 (another device wrote
// in between) brings the newer blob, which is merged in turn and written again. Nothing that
// does not decrypt with the key, or that the engine refuses, ever changes local data.

import { DOCUMENT_KEYS } from "./backupdoc.js";
import { isCount, isObject } from "./checks.js";
import * as storage from "./storage.js";
import { SyncDataError, decryptDoc, deriveKeys, encryptDoc, normalKey } from "./synckey.js";

/** @typedef {import("./types.js").Reply} Reply */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./backupdoc.js").BackupDoc} BackupDoc */
/** @typedef {import("./backupui.js").BackupReply} BackupReply */

/** The key under which this device keeps its sync key and what it knows of the server. */
export const SYNC_KEY = "sync";
const DEBOUNCE_MS = 2000;
/** A change is encrypted this soon, ready to go if the page is hidden before it syncs. */
const PREPARE_MS = 200;
const PERIOD_MS = 60_000;
/** Waits after failed syncs: the first, then doubling up to the last. */
const RETRY_MS = [2000, 4000, 8000, 16_000, 32_000, 60_000];
/** Conflicts (another device wrote between our read and write) retried at once, then given up. */
const MAX_CONFLICTS = 5;
/** The largest body a keepalive request may carry (browsers allow 64 KiB for all in flight). */
const KEEPALIVE_BYTES = 60_000;

/**
 * What this device stores: the key as shown, the server revision its local data contains, and
 * when it last synced.
 * @typedef {{key: string, rev: number, at: number}} SyncState
 */

/**
 * The state shown to the player: `off`, `syncing`, `ok`, `offline` (the network is away),
 * `waiting` (the server asked to wait), `error`. `error` holds a stable code: `mismatch` (the
 * key does not open the stored data), `damaged` (the engine refused the document), `server`,
 * `too-large`, `not-found` (a key being joined has no data).
 * @typedef {{state: string, at: number, error: string, retry: number}} Status
 */

/**
 * The sync service's address from the page's `<meta name="spider-sync">`, or "" when the page
 * offers no sync (a static host without one).
 */
export function serviceUrl() {
  const content = document.querySelector('meta[name="spider-sync"]')?.getAttribute("content") ?? "";
  if (!content) return "";
  return new URL(content, location.href).href.replace(/\/+$/, "");
}

/** @param {unknown} d @returns {SyncState} */
function validateState(d) {
  if (!isObject(d) || typeof d.key !== "string") throw new Error("sync: bad shape");
  return {
    key: normalKey(d.key),
    rev: isCount(d.rev) ? d.rev : 0,
    at: typeof d.at === "number" && Number.isFinite(d.at) && d.at >= 0 ? d.at : 0,
  };
}

/**
 * The error message of a refusal's body (`{error: {message}}`), if it has one.
 * @param {unknown} body
 */
function messageOf(body) {
  const error = isObject(body) ? body.error : undefined;
  return isObject(error) && typeof error.message === "string" ? error.message : undefined;
}

/** @returns {SyncState | null} */
export function readState() {
  return storage.read(SYNC_KEY, validateState, null);
}

/** An answer of the service that is not the one expected. */
class HttpError extends Error {
  /**
   * @param {number} status
   * @param {unknown} body
   * @param {number} retryAfter seconds, from Retry-After
   */
  constructor(status, body, retryAfter) {
    super(messageOf(body) ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/** A refusal that ends a sync without retrying soon: the player is told. */
class Refused extends Error {
  /** @param {string} code */
  constructor(code) {
    super(code);
    this.code = code;
  }
}

/** @param {Record<string, boolean> | undefined} changed */
const anyChanged = (changed) => Object.values(changed ?? {}).some(Boolean);

export class Sync extends EventTarget {
  /**
   * @param {{request: (req: Request) => Promise<Reply>}} engine the engine client (backup-merge)
   * @param {string} url the sync service (serviceUrl())
   * @param {{collect: () => BackupDoc, apply: (doc: BackupDoc) => unknown}} docs this device's backup
   *   document (backupdoc.js): `collect()` makes it, `apply(doc)` writes a merged one here
   */
  constructor(engine, url, docs) {
    super();
    this.engine = engine;
    this.docs = docs;
    this.url = url;
    /** @type {SyncState | null} */
    this.state = url ? readState() : null;
    /** @type {{id: string, aes: CryptoKey} | null} */
    this.keys = null;
    /** @type {Status} */
    this.status = { state: this.state ? "ok" : "off", at: this.state?.at ?? 0, error: "", retry: 0 };
    /** Counts the local saves; a sync that began before the last one leaves the data dirty. */
    this.changes = 0;
    this.pushed = 0;
    this.running = false;
    this.again = false;
    this.failures = 0;
    this.timer = 0;
    this.started = false;
    this.preparing = 0;
    /** The count of saves the last flush sent (a page going fires both visibilitychange and pagehide). */
    this.flushed = -1;
    /** @type {{changes: number, rev: number, id: string, body: string} | null} */
    this.prepared = null;
  }

  get on() {
    return this.state !== null;
  }

  /** Starts syncing (when a key is stored): now, after saves, online, hidden, periodically. */
  start() {
    if (!this.url || this.started) return;
    this.started = true;
    this.#mark();
    storage.onWrite((key) => {
      if (!DOCUMENT_KEYS.has(key) || !this.on) return;
      this.changes++;
      this.#mark();
      this.schedule(DEBOUNCE_MS);
      clearTimeout(this.preparing);
      this.preparing = window.setTimeout(() => this.#prepare().catch(() => {}), PREPARE_MS);
    });
    addEventListener("online", () => this.schedule(0));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.flush();
      else this.schedule(0);
    });
    addEventListener("pagehide", () => this.flush());
    setInterval(() => {
      if (document.visibilityState === "visible") this.schedule(0);
    }, PERIOD_MS);
    this.schedule(0);
  }

  /** @param {number} ms runs a sync after `ms` (an earlier one already planned stands) */
  schedule(ms) {
    if (!this.on) return;
    if (this.timer && ms > 0) return;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      this.timer = 0;
      this.run();
    }, ms);
  }

  /**
   * Turns sync on with a new key: this device's data is written under it at once (or as soon
   * as the service can be reached).
   * @param {string} key
   */
  async turnOn(key) {
    this.#store({ key, rev: 0, at: 0 });
    await this.run();
  }

  /**
   * Joins the sync of another device's key. Refuses (throws Refused "not-found") when the
   * service has nothing under it, which is what a mistyped key gives; offline, the key is kept
   * and the sync runs when the network is back. Joining merges: nothing local is lost.
   * @param {string} typed
   */
  async join(typed) {
    const key = normalKey(typed); // throws SyncKeyError
    const keys = await deriveKeys(key);
    let remote;
    try {
      remote = await this.#get(keys.id);
    } catch (err) {
      if (err instanceof HttpError) throw new Refused("server");
      this.keys = keys;
      this.#store({ key, rev: 0, at: 0 });
      this.#set({ state: "offline", error: "" });
      this.schedule(RETRY_MS[0]);
      return;
    }
    if (!remote) throw new Refused("not-found");
    // A key that does not open the data is refused before anything is kept.
    try {
      await decryptDoc(keys.aes, remote.data);
    } catch {
      throw new Refused("mismatch");
    }
    this.keys = keys;
    this.#store({ key, rev: 0, at: 0 });
    await this.run();
  }

  /** Stops syncing on this device: forgets the key; local data and the server's stay. */
  stop() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.state = null;
    this.keys = null;
    storage.remove(SYNC_KEY);
    this.#set({ state: "off", at: 0, error: "" });
  }

  /** @param {SyncState} state */
  #store(state) {
    if (this.state?.key !== state.key) this.keys = null;
    this.state = state;
    storage.write(SYNC_KEY, state);
  }

  /** @param {Partial<Status>} change */
  #set(change) {
    this.status = { ...this.status, ...change };
    this.#mark();
    this.dispatchEvent(new CustomEvent("status", { detail: this.status }));
  }

  /**
   * The state on the root element, for tests and styles: state, last sync, unsent changes, and
   * whether they are ready to go out at once if the page is hidden.
   */
  #mark() {
    const data = document.documentElement.dataset;
    data.sync = this.status.state;
    data.syncAt = String(this.status.at);
    data.syncPending = this.changes === this.pushed ? "0" : "1";
    data.syncReady = this.changes === this.pushed || this.prepared?.changes === this.changes ? "1" : "0";
  }

  /** One sync; a call while one runs makes it run once more after. */
  async run() {
    if (!this.on) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    clearTimeout(this.timer);
    this.timer = 0;
    this.#set({ state: "syncing", error: "" });
    try {
      do {
        this.again = false;
        await this.#syncOnce();
      } while (this.again && this.on);
      this.failures = 0;
    } catch (err) {
      this.#failed(err);
    } finally {
      this.running = false;
    }
  }

  /** @param {unknown} err */
  #failed(err) {
    if (!this.on) return;
    if (err instanceof Refused) {
      this.#set({ state: "error", error: err.code });
      this.schedule(PERIOD_MS);
      return;
    }
    const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
    this.failures++;
    if (err instanceof HttpError) {
      if (err.status === 429) {
        const ms = Math.max(1000, err.retryAfter * 1000);
        this.#set({ state: "waiting", error: "", retry: Math.ceil(ms / 1000) });
        this.schedule(ms);
        return;
      }
      this.#set({ state: "error", error: err.status === 413 ? "too-large" : "server" });
      this.schedule(err.status === 413 ? PERIOD_MS : wait);
      return;
    }
    if (!(err instanceof TypeError)) console.error(err);
    // A fetch that fails is the network (or the server is down): try again soon, and at once
    // when the browser says it is back online.
    this.#set({ state: "offline", error: "" });
    this.schedule(wait);
  }

  async #keys() {
    if (!this.keys && this.state) this.keys = await deriveKeys(this.state.key);
    return /** @type {{id: string, aes: CryptoKey}} */ (this.keys);
  }

  /**
   * Reads the server's blob, merges, writes locally what changed, writes the server what it
   * lacks; on a conflict merges the newer blob and writes again (a bounded number of times).
   */
  async #syncOnce() {
    const { id, aes } = await this.#keys();
    const changes = this.changes;
    let remote = await this.#get(id);
    for (let attempt = 0; ; attempt++) {
      const local = await this.#collect();
      let doc = local;
      let needed = true;
      if (remote) {
        const server = await this.#open(aes, remote.data);
        const merged = await this.#merge(local, server);
        if (anyChanged(merged.changed)) await this.#apply(merged.backup);
        doc = merged.backup;
        needed = anyChanged((await this.#merge(server, doc)).changed);
      }
      if (!needed) {
        this.#done(/** @type {{rev: number}} */ (remote).rev, changes);
        return;
      }
      const put = await this.#put(id, remote?.rev ?? 0, await encryptDoc(aes, doc));
      if (put.written) {
        this.#done(put.rev, changes);
        return;
      }
      if (attempt + 1 >= MAX_CONFLICTS) throw new HttpError(409, null, 0);
      remote = put.data === undefined ? null : { rev: put.rev, data: put.data };
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt * (1 + Math.random())));
    }
  }

  /**
   * This device's document. Until this device has synced with the key once (joining), a deal on
   * which no move was made yet goes as older than any game (`updated` 0): a device that joins
   * takes up the game the others have in progress, rather than replacing it everywhere with the
   * deal it has just opened. Later, a new deal is newer than a game left for it, as it should be.
   */
  async #collect() {
    const doc = await this.docs.collect();
    if (!this.state?.rev && doc.game && doc.game.meta?.started !== true) doc.game = { ...doc.game, updated: 0 };
    return doc;
  }

  /**
   * @param {number} rev the server's revision now held locally
   * @param {number} changes the count of saves when the sync began
   */
  #done(rev, changes) {
    if (!this.state) return;
    this.pushed = changes;
    this.#store({ ...this.state, rev, at: Date.now() });
    this.#set({ state: "ok", at: this.state.at, error: "" });
    if (this.changes !== changes) this.again = true;
  }

  /**
   * @param {CryptoKey} aes
   * @param {string} data
   */
  async #open(aes, data) {
    try {
      return await decryptDoc(aes, data);
    } catch (err) {
      if (err instanceof SyncDataError) throw new Refused("mismatch");
      throw err;
    }
  }

  /**
   * The engine's merge of `incoming` into `local`; a document it refuses is "damaged".
   * @param {unknown} local
   * @param {unknown} incoming
   * @returns {Promise<BackupReply & {backup: BackupDoc}>}
   */
  async #merge(local, incoming) {
    /** @type {BackupReply} the engine's answer to op "backup-merge" (docs/backup.md) */
    const reply = await this.engine.request({ op: "backup-merge", local, incoming });
    if (!reply?.ok || !reply.backup) {
      console.warn("sync: the engine refused the synced data:", reply?.error?.message);
      throw new Refused("damaged");
    }
    return { ...reply, backup: reply.backup };
  }

  /**
   * Writes a merged document here; the saves it makes are not changes to send back.
   * @param {BackupDoc} doc
   */
  async #apply(doc) {
    const before = this.changes;
    await this.docs.apply(doc);
    this.changes = before;
  }

  /**
   * The stored blob, or null when there is none.
   * @param {string} id
   * @returns {Promise<{rev: number, data: string} | null>}
   */
  async #get(id) {
    const response = await fetch(`${this.url}/${id}`, { cache: "no-store" });
    if (response.status === 404) return null;
    const body = await this.#body(response);
    if (!isObject(body) || !Number.isInteger(body.rev) || typeof body.data !== "string") throw new HttpError(502, null, 0);
    return { rev: /** @type {number} */ (body.rev), data: body.data };
  }

  /**
   * Writes a blob over revision `rev`: resolves {written: true, rev} when written, or
   * {written: false, rev, data} (data undefined when nothing is stored) when another device
   * wrote first.
   * @param {string} id
   * @param {number} rev
   * @param {string} data
   * @returns {Promise<{written: boolean, rev: number, data?: string}>}
   */
  async #put(id, rev, data) {
    return this.#send(id, JSON.stringify({ rev, data }));
  }

  /**
   * PUTs a body ({rev, data}) as #put says.
   * @param {string} id
   * @param {string} body
   * @param {boolean} [keepalive] whether the request may outlive the page (small bodies only)
   * @returns {Promise<{written: boolean, rev: number, data?: string}>}
   */
  async #send(id, body, keepalive = false) {
    const response = await fetch(`${this.url}/${id}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body,
      keepalive: keepalive && body.length <= KEEPALIVE_BYTES,
    });
    if (response.status === 409 || response.status === 404) {
      /** @type {unknown} */
      const answer = await response.json().catch(() => ({}));
      const conflict = isObject(answer) ? answer : undefined;
      const inner = conflict?.error ?? conflict;
      const stored = isObject(inner) ? inner : undefined;
      const data = typeof conflict?.data === "string" ? conflict.data : typeof stored?.data === "string" ? stored.data : undefined;
      const at = Number.isInteger(conflict?.rev) ? conflict?.rev : Number.isInteger(stored?.rev) ? stored?.rev : 0;
      return { written: false, rev: /** @type {number} */ (at), data };
    }
    const ok = await this.#body(response);
    if (!isObject(ok) || !Number.isInteger(ok.rev)) throw new HttpError(502, null, 0);
    return { written: true, rev: /** @type {number} */ (ok.rev) };
  }

  /**
   * The JSON body of an answer (null when it has none); a refusal throws an HttpError.
   * @param {Response} response
   * @returns {Promise<unknown>}
   */
  async #body(response) {
    /** @type {unknown} */
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new HttpError(response.status, body, Number(response.headers.get("Retry-After")) || 0);
    return body;
  }

  /**
   * Encrypts what changed, shortly after each change, so that a page being hidden or closed can
   * send it at once (the encryption is asynchronous: a page that is going away may not live to
   * finish it).
   */
  async #prepare() {
    const changes = this.changes;
    if (!this.state?.rev || changes === this.pushed) return;
    const rev = this.state.rev;
    const { id, aes } = await this.#keys();
    const data = await encryptDoc(aes, await this.#collect());
    if (this.changes !== changes) return; // a newer change prepares its own
    this.prepared = { changes, rev, id, body: JSON.stringify({ rev, data }) };
    this.#mark();
  }

  /**
   * The page is being hidden (maybe for good): unsent changes go out in keepalive requests (which
   * the browser completes even after the page is gone), over the revision this device's data
   * already contains; a conflict is merged at the next sync. The body prepared after the last
   * changes is sent at once; what changed since (the page's own save as it goes, a move made a
   * moment ago) follows once encrypted, over the next revision, which a page being closed may
   * not live to send: it then goes at the next sync.
   */
  flush() {
    const changes = this.changes;
    if (!this.on || changes === this.pushed || changes === this.flushed || !this.state?.rev) return;
    this.flushed = changes;
    const { rev } = this.state;
    const ready = this.prepared?.rev === rev ? this.prepared : null;
    if (ready) this.#sendAway(ready.id, ready.body, rev, ready.changes);
    if (ready?.changes === changes) return;
    const next = ready ? rev + 1 : rev;
    this.#keys()
      .then(async ({ id, aes }) => {
        const data = await encryptDoc(aes, await this.#collect());
        this.#sendAway(id, JSON.stringify({ rev: next, data }), next, changes);
      })
      .catch(() => {});
  }

  /**
   * Sends a body as the page goes; a write that lands is the new revision (when nothing else
   * moved it meanwhile).
   * @param {string} id
   * @param {string} body
   * @param {number} rev the revision the body is written over
   * @param {number} changes the count of saves it holds
   */
  #sendAway(id, body, rev, changes) {
    this.#send(id, body, true)
      .then((put) => {
        if (put.written && this.state && this.state.rev <= rev) this.#done(put.rev, changes);
      })
      .catch(() => {});
  }
}
