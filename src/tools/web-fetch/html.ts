/**
 * Page text for the model: HTML converted to markdown with Turndown (scripts, styles and other
 * non-content elements dropped), other text types as they are, and a window of it by character offset.
 */
import TurndownService from 'turndown';

/** Most characters of page text one WebFetch call returns; `offset` reads on. */
export const WEB_FETCH_MAX_CHARS = 40_000;

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    // Not content: drop them with what they hold.
    service.remove([
      'script',
      'style',
      'noscript',
      'template',
      'iframe',
      'object',
      'embed',
      'svg',
      'canvas',
      'form',
    ]);
  }
  return service;
}

/** True when the content type (or, without one, the text itself) says HTML. */
export function looksLikeHtml(contentType: string, text: string): boolean {
  if (/html|xhtml/i.test(contentType)) return true;
  if (contentType && !/text\/plain|octet-stream/i.test(contentType)) return false;
  return /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

/** The page as markdown (HTML) or as text. Never throws (a conversion failure falls back to the text). */
export function pageText(body: string, contentType: string): string {
  if (!looksLikeHtml(contentType, body)) return body;
  try {
    return turndown()
      .turndown(body)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  } catch {
    return body;
  }
}

/** The window of `text` from `offset`, at most WEB_FETCH_MAX_CHARS, with where the next one starts. */
export function pageWindow(text: string, offset: number): { text: string; next?: number; total: number } {
  const start = Math.min(Math.max(0, offset), text.length);
  const end = Math.min(text.length, start + WEB_FETCH_MAX_CHARS);
  return { text: text.slice(start, end), total: text.length, ...(end < text.length ? { next: end } : {}) };
}
