/** Subresource-integrity checks of tarballs (`dist.integrity`, else the legacy sha1 `dist.shasum`). */

const ALGORITHMS: Record<string, { subtle: string; rank: number }> = {
  sha512: { subtle: 'SHA-512', rank: 4 },
  sha384: { subtle: 'SHA-384', rank: 3 },
  sha256: { subtle: 'SHA-256', rank: 2 },
  sha1: { subtle: 'SHA-1', rank: 1 },
};

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The same digests in plain JavaScript (@noble/hashes, loaded on first use), for pages where
 * SubtleCrypto is missing: it exists only in secure contexts (https, localhost).
 */
export async function digestWithoutSubtle(algorithm: string, bytes: Uint8Array): Promise<Uint8Array> {
  if (algorithm === 'SHA-1') return (await import('@noble/hashes/legacy.js')).sha1(bytes);
  const sha2 = await import('@noble/hashes/sha2.js');
  if (algorithm === 'SHA-512') return sha2.sha512(bytes);
  if (algorithm === 'SHA-384') return sha2.sha384(bytes);
  return sha2.sha256(bytes);
}

async function digest(algorithm: string, bytes: Uint8Array): Promise<Uint8Array> {
  if (!globalThis.crypto?.subtle) return digestWithoutSubtle(algorithm, bytes);
  return new Uint8Array(await crypto.subtle.digest(algorithm, bytes as Uint8Array<ArrayBuffer>));
}

/** `sha512-<base64>` of `bytes` (what a lock file records). */
export async function sha512Integrity(bytes: Uint8Array): Promise<string> {
  return `sha512-${toBase64(await digest('SHA-512', bytes))}`;
}

export interface IntegrityCheck {
  ok: boolean;
  /** What was expected, as given (for the error message). */
  wanted: string;
  /** The same algorithm's hash of the bytes. */
  got: string;
  algorithm: string;
}

/**
 * Checks `bytes` against an SRI string (the strongest algorithm it lists) or, without one, a hex sha1.
 * With neither, there is nothing to check: `ok` is true. Never throws.
 */
export async function checkIntegrity(
  bytes: Uint8Array,
  integrity: string | undefined,
  shasum: string | undefined,
): Promise<IntegrityCheck> {
  const entries = (integrity ?? '')
    .split(/\s+/)
    .map((part) => /^(sha\d+)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(part))
    .filter((m): m is RegExpExecArray => !!m && m[1] in ALGORITHMS)
    .sort((a, b) => ALGORITHMS[b[1]].rank - ALGORITHMS[a[1]].rank);
  if (entries.length) {
    const algorithm = entries[0][1];
    const got = `${algorithm}-${toBase64(await digest(ALGORITHMS[algorithm].subtle, bytes))}`;
    const ok = entries.some((m) => m[1] === algorithm && `${m[1]}-${m[2]}` === got);
    return { ok, wanted: integrity ?? '', got, algorithm };
  }
  if (shasum && /^[0-9a-f]{40}$/i.test(shasum)) {
    const got = toHex(await digest('SHA-1', bytes));
    return { ok: got === shasum.toLowerCase(), wanted: shasum, got, algorithm: 'sha1' };
  }
  return { ok: true, wanted: '', got: '', algorithm: '' };
}
