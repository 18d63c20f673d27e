// The shape of an API key: `tc_live_` + 32 random base62 characters + a 6-character checksum.
//
// The prefix lets secret scanners (and people) recognise a Textcircle key in a leaked file; the checksum, a CRC32
// of everything before it written in base62, lets a typo or a truncated key be refused before any database lookup.
// 32 base62 characters carry about 190 bits of randomness, so a plain SHA-256 of the key is a safe thing to store:
// nobody can search that space, and no salt or slow hash is needed (unlike passwords).
import crypto from "node:crypto";
import zlib from "node:zlib";

export const API_KEY_PREFIX = "tc_live_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = "";
  let n = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** The checksum of a key's prefix and random part (62^6 > 2^32, so every CRC32 fits in six characters). */
export function checksumOf(body: string): string {
  return base62(zlib.crc32(body) >>> 0, CHECKSUM_LENGTH);
}

/** A new key (uniformly random characters: crypto.randomInt never has a modulo bias). */
export function generateApiKey(): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[crypto.randomInt(0, 62)];
  const body = API_KEY_PREFIX + random;
  return body + checksumOf(body);
}

/** Whether a string has the shape of a key and its checksum matches (no database involved). */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== API_KEY_LENGTH || !SHAPE.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return crypto.timingSafeEqual(Buffer.from(checksumOf(body)), Buffer.from(key.slice(-CHECKSUM_LENGTH)));
}

/** What is stored and looked up: the hex SHA-256 of the whole key. */
export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}
