/**
 * Images too large for the model, shrunk in the page: decoded with createImageBitmap, drawn smaller on
 * an OffscreenCanvas (longer side MCP_IMAGE_DOWNSCALE_MAX_SIDE, then smaller until it fits) and
 * encoded as JPEG on white (JPEG has no transparency). Where the page cannot (no canvas, an image the
 * browser cannot decode) it resolves null and the result says the image was left out, and why.
 */
import { MCP_IMAGE_DOWNSCALE_MAX_SIDE } from '../core/constants.ts';
import type { ImageDownscaler } from './results.ts';

/** Tries at smaller sizes before giving up. */
const ATTEMPTS = 4;
const SHRINK = 0.7;
const JPEG_QUALITY = 0.85;

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let bin = '';
  // Chunks keep String.fromCharCode's argument list short.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** True where the page can downscale (a browser with OffscreenCanvas and createImageBitmap). */
export function canDownscale(): boolean {
  return typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined';
}

/** The page's downscaler. Never rejects. */
export const browserDownscaler: ImageDownscaler = async (data, mimeType, maxBytes) => {
  if (!canDownscale()) return null;
  try {
    const bin = atob(data.replace(/\s+/g, ''));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const bitmap = await createImageBitmap(new Blob([bytes], { type: mimeType }));
    try {
      let scale = Math.min(1, MCP_IMAGE_DOWNSCALE_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
      for (let attempt = 0; attempt < ATTEMPTS; attempt++, scale *= SHRINK) {
        const width = Math.max(1, Math.round(bitmap.width * scale));
        const height = Math.max(1, Math.round(bitmap.height * scale));
        const canvas = new OffscreenCanvas(width, height);
        const ctx = canvas.getContext('2d');
        if (!ctx) return null;
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, width, height);
        ctx.drawImage(bitmap, 0, 0, width, height);
        const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
        if (blob.size <= maxBytes)
          return { data: toBase64(await blob.arrayBuffer()), mimeType: 'image/jpeg' };
      }
      return null;
    } finally {
      bitmap.close();
    }
  } catch {
    return null;
  }
};
