/**
 * Width and height of an image read from its header (PNG, JPEG, GIF, WebP), without decoding it, and
 * the API's limits on image dimensions and counts. No library for this is in the project's
 * dependencies; the formats' headers are small and fixed (PNG IHDR, GIF logical screen, WebP VP8 /
 * VP8L / VP8X, JPEG start-of-frame).
 *
 * Limits, from https://platform.claude.com/docs/en/build-with-claude/vision ("General limits"): an
 * image larger than 8000x8000 px is rejected; when a request carries more than 20 images the limit is
 * 2000x2000 px; a request takes up to 600 images (100 for models with a 200k-token context window).
 */
import type { ApiImageType } from './results.ts';

/** The longest side (px) of an image the API takes. */
export const API_IMAGE_MAX_SIDE_PX = 8000;
/** More images than this in one request lower the longest side to API_MANY_IMAGES_MAX_SIDE_PX. */
export const API_MANY_IMAGES_THRESHOLD = 20;
/** The longest side (px) of each image in a request with more than API_MANY_IMAGES_THRESHOLD images. */
export const API_MANY_IMAGES_MAX_SIDE_PX = 2000;
/**
 * Most images in one request: 100, the documented limit for models with a 200k-token context window
 * (larger windows take 600), so that a result never breaks a request whatever the model.
 */
export const API_MAX_IMAGES_PER_REQUEST = 100;

/** How much base64 is decoded first: enough for a JPEG's start of frame after its EXIF and ICC data. */
const JPEG_HEAD_BASE64_CHARS = 256 * 1024;

export interface ImageSize {
  width: number;
  height: number;
}

function decode(base64: string): Uint8Array | null {
  try {
    const bin = atob(base64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

const be16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const be32 = (b: Uint8Array, i: number) => be16(b, i) * 0x10000 + be16(b, i + 2);
const le16 = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, i: number) => le16(b, i) | ((b[i + 2] ?? 0) << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function png(b: Uint8Array): ImageSize | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: be32(b, 16), height: be32(b, 20) };
}

function gif(b: Uint8Array): ImageSize | null {
  if (b.length < 10) return null;
  return { width: le16(b, 6), height: le16(b, 8) };
}

function webp(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = ((b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  return null;
}

/** The first start-of-frame segment's size, or null (none before the scan, or cut short). */
function jpeg(b: Uint8Array): ImageSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    // Fill bytes, and markers that stand alone (no length).
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: be16(b, i + 7), height: be16(b, i + 5) };
    }
    // Start of scan or end of image before any frame header.
    if (marker === 0xda || marker === 0xd9) return null;
    i += 2 + be16(b, i + 2);
  }
  return null;
}

/**
 * The pixel size in the header of `data` (base64, no whitespace) of type `type`, or null when the
 * header cannot be read (cut short or not that format). Never throws.
 */
export function imageDimensions(data: string, type: ApiImageType): ImageSize | null {
  if (type === 'image/jpeg') {
    const head = data.slice(0, JPEG_HEAD_BASE64_CHARS - (JPEG_HEAD_BASE64_CHARS % 4));
    const size = jpeg(decode(head) ?? new Uint8Array());
    // A frame header past the first 256 KB (huge metadata): read it all.
    return size ?? (data.length > head.length ? jpeg(decode(data) ?? new Uint8Array()) : null);
  }
  const b = decode(data.slice(0, 64));
  if (!b) return null;
  if (type === 'image/png') return png(b);
  if (type === 'image/gif') return gif(b);
  return webp(b);
}
