// @ts-check
// The sync key and the encryption of what is synced (WebCrypto; also runs under Node).
//
// A sync key is 16 random bytes, written as 26 characters of Crockford's base32 (digits and
// capital letters without I, L, O, U; the bits most significant first, the last character
// padded with two zero bits) in groups of 4, 4, 4, 4, 5 and 5 joined by dashes. Reading one
// forgives what people mistype: lower case, spaces, missing or extra dashes, I or L for 1 and
// O for 0; anything else is refused with a reason.
//
// Two things are derived from it with HKDF-SHA256 (salt "spider-sync-v1"): with info "id",
// 32 bytes whose lowercase hex names the data on the server; with info "enc", an AES-GCM
// 256-bit key. The server only ever sees the id and the blob: a 12-byte random IV followed by
// the AES-GCM ciphertext (with its 16-byte tag) of the UTF-8 JSON of the document, gzipped
// first where the browser can (CompressionStream), all in base64url without padding.

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const KEY_BYTES = 16;
export const KEY_CHARS = 26;
const GROUPS = [4, 4, 4, 4, 5, 5];
const SALT = "spider-sync-v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();

/**
 * Why a typed key was refused: `code` is stable (`empty`, `char`, `short`, `long`, `check`),
 * `detail` names the wrong character or the count.
 */
export class SyncKeyError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string} [detail]
   */
  constructor(code, message, detail = "") {
    super(message);
    this.name = "SyncKeyError";
    this.code = code;
    this.detail = detail;
  }
}

/** The data on the server could not be decrypted with this key (another key, or damaged). */
export class SyncDataError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "SyncDataError";
  }
}

/** @typedef {Uint8Array<ArrayBuffer>} Bytes */

/** @returns {Bytes} 16 new random bytes */
export function newKeyBytes() {
  return crypto.getRandomValues(new Uint8Array(KEY_BYTES));
}

/**
 * The key as it is shown: 26 characters in dashed groups.
 * @param {Uint8Array} bytes
 */
export function formatKey(bytes) {
  if (bytes.length !== KEY_BYTES) throw new RangeError(`a sync key has ${KEY_BYTES} bytes`);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  out += ALPHABET[(value << (5 - bits)) & 31];
  const parts = [];
  let at = 0;
  for (const n of GROUPS) {
    parts.push(out.slice(at, at + n));
    at += n;
  }
  return parts.join("-");
}

/** @returns {string} a new random key, formatted */
export function newKey() {
  return formatKey(newKeyBytes());
}

/**
 * The 16 bytes of a typed key; throws SyncKeyError saying what is wrong.
 * @param {string} text
 * @returns {Bytes}
 */
export function parseKey(text) {
  const chars = String(text ?? "")
    .toUpperCase()
    .replace(/[\s\-_.]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  if (!chars) throw new SyncKeyError("empty", "no sync key was given");
  const bad = [...chars].find((c) => !ALPHABET.includes(c));
  if (bad !== undefined) throw new SyncKeyError("char", `"${bad}" is not a character of a sync key`, bad);
  if (chars.length < KEY_CHARS) {
    throw new SyncKeyError("short", `a sync key has ${KEY_CHARS} characters, this one ${chars.length}`, String(chars.length));
  }
  if (chars.length > KEY_CHARS) {
    throw new SyncKeyError("long", `a sync key has ${KEY_CHARS} characters, this one ${chars.length}`, String(chars.length));
  }
  const bytes = new Uint8Array(KEY_BYTES);
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const c of chars) {
    value = (value << 5) | ALPHABET.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      if (n < KEY_BYTES) bytes[n++] = (value >> (bits - 8)) & 255;
      bits -= 8;
      value &= (1 << bits) - 1;
    }
  }
  // The two bits after the 128th are always zero: a last character that sets them is mistyped.
  if (value !== 0) throw new SyncKeyError("check", "the last character of this sync key is wrong", chars.slice(-1));
  return bytes;
}

/**
 * The key in its shown form, however it was typed (throws SyncKeyError).
 * @param {string} text
 */
export function normalKey(text) {
  return formatKey(parseKey(text));
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {Uint8Array} bytes */
export function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * @param {string} text
 * @returns {Bytes}
 */
export function fromBase64url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new SyncDataError("the stored data is not base64url");
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * The server id (64 lowercase hex characters) and the AES-GCM key of a sync key.
 * @param {string | Bytes} key the key as typed or its bytes
 * @returns {Promise<{id: string, aes: CryptoKey}>}
 */
export async function deriveKeys(key) {
  const bytes = typeof key === "string" ? parseKey(key) : key;
  const base = await crypto.subtle.importKey("raw", bytes, "HKDF", false, ["deriveBits", "deriveKey"]);
  /** @param {string} info */
  const params = (info) => ({ name: "HKDF", hash: "SHA-256", salt: encoder.encode(SALT), info: encoder.encode(info) });
  const idBits = await crypto.subtle.deriveBits(params("id"), base, 256);
  const aes = await crypto.subtle.deriveKey(params("enc"), base, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  return { id: toHex(new Uint8Array(idBits)), aes };
}

/**
 * Runs bytes through a compression or decompression stream.
 * @param {Bytes} bytes
 * @param {CompressionStream | DecompressionStream} stream
 * @returns {Promise<Bytes>}
 */
async function through(bytes, stream) {
  const body = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * The blob of a document: IV || AES-GCM(gzip(UTF-8 JSON)), base64url.
 * @param {CryptoKey} aes
 * @param {unknown} doc
 */
export async function encryptDoc(aes, doc) {
  let plain = encoder.encode(JSON.stringify(doc));
  if (typeof CompressionStream === "function") plain = await through(plain, new CompressionStream("gzip"));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, plain));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return toBase64url(out);
}

/**
 * The document in a blob; throws SyncDataError when the key does not open it or what it holds
 * is not a JSON document (nothing of a blob that does not decrypt is ever used).
 * @param {CryptoKey} aes
 * @param {string} data
 * @returns {Promise<unknown>} the document, to be checked (the engine's merge checks it)
 */
export async function decryptDoc(aes, data) {
  const bytes = fromBase64url(data);
  if (bytes.length < IV_BYTES + 16) throw new SyncDataError("the stored data is too short");
  let plain;
  try {
    const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES) }, aes, bytes.subarray(IV_BYTES));
    plain = new Uint8Array(opened);
  } catch {
    throw new SyncDataError("the sync key does not open the stored data");
  }
  try {
    // JSON text never starts with 0x1f: these two bytes are gzip's mark.
    if (plain[0] === 0x1f && plain[1] === 0x8b) plain = await through(plain, new DecompressionStream("gzip"));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(plain));
  } catch {
    throw new SyncDataError("the stored data is damaged");
  }
}
