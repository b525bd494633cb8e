/**
 * Which URLs WebFetch may fetch: http and https only, and never a private, loopback, link-local or
 * otherwise internal address (the user's router, a cloud metadata service, a dev server on localhost).
 * The WHATWG URL parser already turns decimal, octal and hex IPv4 forms into dotted ones, so the checks
 * see what a request would reach. Pure functions; the fetch proxy checks resolved addresses too.
 */

/** Host names that always mean this machine or a private network. */
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

function ipv4Parts(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** True for an IPv4 address that is not on the public internet. */
export function isPrivateIPv4(host: string): boolean {
  const p = ipv4Parts(host);
  if (!p) return false;
  const [a, b] = p;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && p[2] === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** True for an IPv6 address that is not on the public internet (brackets allowed). */
export function isPrivateIPv6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':')) return false;
  if (h === '::' || h === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return isPrivateIPv4(mapped[1]);
  // ::ffff:7f00:1 style (the URL parser writes mapped IPv4 in hex).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (hexMapped) {
    const hi = Number.parseInt(hexMapped[1], 16);
    const lo = Number.parseInt(hexMapped[2], 16);
    return isPrivateIPv4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return /^(fc|fd)/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('ff');
}

/** True when `host` (a URL's hostname) names a private, loopback or internal place. */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === '') return true;
  // A single-label name (`router`, `intranet`) is resolved on the local network.
  const singleLabel = !h.includes('.') && !h.includes(':');
  return PRIVATE_NAMES.test(h) || isPrivateIPv4(h) || isPrivateIPv6(h) || singleLabel;
}

/** Longest URL accepted (characters). */
export const MAX_URL_CHARS = 2000;

/** The URL, parsed, or why WebFetch will not fetch it. */
export function checkFetchUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  if (raw.length > MAX_URL_CHARS)
    return { ok: false, reason: `The URL is longer than ${MAX_URL_CHARS} characters.` };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `"${raw}" is not a valid URL: give a full http:// or https:// address.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      reason: `WebFetch fetches http and https URLs only, not ${url.protocol.replace(':', '')}: URLs.`,
    };
  }
  if (url.username || url.password)
    return { ok: false, reason: 'URLs with a user name or password are refused.' };
  if (isPrivateHost(url.hostname)) {
    return {
      ok: false,
      reason: `${url.hostname} is a private, loopback or internal address: WebFetch only fetches public web pages.`,
    };
  }
  return { ok: true, url };
}
