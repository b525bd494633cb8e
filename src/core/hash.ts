/** Fast, deterministic, synchronous string hashing (FNV-1a, 64-bit) for cache keys. Not cryptographic. */

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** 16 hex digits. Hashes UTF-16 code units, so equal strings always give equal hashes. */
export function hashString(text: string): string {
  // Two 32-bit lanes are much faster than BigInt per character; combine at the end.
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 15);
  }
  const combined = ((BigInt(h1 >>> 0) << 32n) | BigInt(h2 >>> 0)) ^ FNV_OFFSET;
  return ((combined * FNV_PRIME) & MASK).toString(16).padStart(16, '0');
}
