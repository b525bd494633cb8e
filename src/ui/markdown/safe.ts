/**
 * What model text may turn into: link targets limited to http, https and mailto (after decoding HTML
 * entities, so `&#106;avascript:` is caught), and entity decoding for text shown as text.
 */

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  larr: '←',
  rarr: '→',
  times: '×',
};

/** Decodes numeric and common named HTML entities; unknown ones stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * The href to put on a link, or null when the target is not an absolute http(s) or mailto URL.
 * Relative targets are refused too: in this page they would point at the app itself.
 */
export function safeHref(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // Browsers ignore ASCII control characters and whitespace inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  return url.href;
}
