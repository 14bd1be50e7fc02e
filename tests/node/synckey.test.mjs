// @ts-check
// The sync key's format and the encryption of synced data (src/spider/web/synckey.js), under
// Node's own WebCrypto and CompressionStream: `node --test tests/node/` (tests/test_node.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  SyncDataError,
  SyncKeyError,
  decryptDoc,
  deriveKeys,
  encryptDoc,
  formatKey,
  fromBase64url,
  newKey,
  normalKey,
  parseKey,
  toBase64url,
} from "../../src/spider/web/synckey.js";

const ZERO = new Uint8Array(16);
const ONES = new Uint8Array(16).fill(255);

test("a key is 26 Crockford characters in dashed groups", () => {
  assert.equal(formatKey(ZERO), "0000-0000-0000-0000-00000-00000");
  assert.equal(formatKey(ONES), "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZ-ZZZZW");
  const key = newKey();
  assert.match(key, /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}(-[0-9A-HJKMNP-TV-Z]{5}){2}$/);
  assert.notEqual(newKey(), key);
  assert.deepEqual(parseKey(key), parseKey(key.toLowerCase()));
});

test("every key reads back as itself", () => {
  for (let i = 0; i < 200; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    assert.deepEqual(parseKey(formatKey(bytes)), bytes);
  }
});

test("what people mistype is forgiven", () => {
  const key = formatKey(Uint8Array.from({ length: 16 }, (_, i) => i * 17));
  const plain = key.replace(/-/g, "");
  assert.equal(normalKey(plain), key);
  assert.equal(normalKey(` ${plain.toLowerCase().match(/.{1,3}/g)?.join(" ")} `), key);
  assert.equal(normalKey(key.replace(/1/g, "l").replace(/0/g, "O")), key);
  assert.equal(normalKey(key.replace(/1/g, "I").replace(/0/g, "o")), key);
  assert.equal(normalKey(key.replace(/-/g, "--")), key);
});

test("a mistyped key is refused with a reason", () => {
  /** @param {string} text @param {string} code */
  const refused = (text, code) =>
    assert.throws(() => parseKey(text), (/** @type {any} */ err) => err instanceof SyncKeyError && err.code === code);
  const key = newKey();
  refused("", "empty");
  refused(" - ", "empty");
  refused(key.slice(0, -1), "short");
  refused(key + "0", "long");
  refused(key.slice(0, 3) + "U" + key.slice(4), "char");
  refused(key.slice(0, 3) + "!" + key.slice(4), "char");
  // The last character carries two zero bits: 1, 2, 3 are never last.
  refused(key.slice(0, -1) + "1", "check");
  const err = /** @type {SyncKeyError} */ (catchErr(() => parseKey("ABCU")));
  assert.equal(err.detail, "U");
  assert.match(err.message, /"U"/);
});

/** @param {() => unknown} fn */
function catchErr(fn) {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("no error");
}

test("the id is HKDF-SHA256 of the key (salt spider-sync-v1, info id), as hex", async () => {
  const { id } = await deriveKeys(ZERO);
  assert.match(id, /^[0-9a-f]{64}$/);
  // The same derivation, written out with HMAC (RFC 5869), must agree.
  const hmac = async (/** @type {Uint8Array} */ k, /** @type {Uint8Array} */ m) => {
    const key = await crypto.subtle.importKey("raw", k, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", key, m));
  };
  const prk = await hmac(new TextEncoder().encode("spider-sync-v1"), ZERO);
  const okm = await hmac(prk, new Uint8Array([...new TextEncoder().encode("id"), 1]));
  assert.equal(id, Buffer.from(okm).toString("hex"));
  assert.equal((await deriveKeys(formatKey(ZERO))).id, id);
  assert.notEqual((await deriveKeys(ONES)).id, id);
});

test("a document goes through encryption and back; another key cannot read it", async () => {
  const doc = { format: "spider-backup", version: 1, text: "é ♠ ".repeat(500) };
  const mine = await deriveKeys(newKey());
  const blob = await encryptDoc(mine.aes, doc);
  assert.match(blob, /^[A-Za-z0-9_-]+$/);
  assert.ok(blob.length < JSON.stringify(doc).length / 4, "gzipped before encryption");
  assert.deepEqual(await decryptDoc(mine.aes, blob), doc);
  assert.notEqual(await encryptDoc(mine.aes, doc), blob, "a new IV each time");
  const other = await deriveKeys(newKey());
  await assert.rejects(decryptDoc(other.aes, blob), SyncDataError);
  const bytes = fromBase64url(blob);
  bytes[20] ^= 1;
  await assert.rejects(decryptDoc(mine.aes, toBase64url(bytes)), /does not open/);
  await assert.rejects(decryptDoc(mine.aes, "not base64!"), SyncDataError);
  await assert.rejects(decryptDoc(mine.aes, "AAAA"), /too short/);
});

test("base64url round trip", () => {
  for (const n of [0, 1, 2, 3, 4, 100, 60000]) {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    assert.deepEqual(fromBase64url(toBase64url(bytes)), bytes);
  }
});
