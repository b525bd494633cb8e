/**
 * Where a key typed in Settings may go. Pure functions (no DOM), used by SettingsDialog.
 *
 * An embedding page chooses the base URL it passes in its config; in a stand-alone page the user does.
 * A key the user types must not reach a server the user did not choose without the user saying so.
 */
import type { AgentSettings } from '../agent/types.ts';

/** `url` without trailing slashes and surrounding spaces (how Settings saves a base URL). */
export function normalizeBaseURL(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/**
 * The origin a base URL sends to, as the user should read it (`https://host:port`); a relative URL
 * (`/api/anthropic`) is this page's own origin; text that is no URL is returned trimmed. Never throws.
 */
export function originOf(
  url: string,
  pageOrigin = typeof location === 'undefined' ? '' : location.origin,
): string {
  const trimmed = url.trim();
  try {
    return new URL(trimmed, pageOrigin || undefined).origin;
  } catch {
    return trimmed;
  }
}

/**
 * True when saving `apiKey` for `baseURL` needs the user's confirmation: there is a key, and the base
 * URL is the one the embedding page set (`hostBaseURL`), or has its origin. A base URL the user typed
 * to another origin needs none: the user chose it.
 */
export function keyNeedsConfirmation(
  apiKey: string,
  baseURL: string,
  hostBaseURL: string | undefined,
): boolean {
  if (!hostBaseURL || !apiKey.trim()) return false;
  if (normalizeBaseURL(baseURL) === normalizeBaseURL(hostBaseURL)) return true;
  return originOf(baseURL) === originOf(hostBaseURL);
}

/** True when the key or base URL being edited differ from the saved ones (the model list is of the saved). */
export function savedListDiffers(
  draft: { apiKey: string; baseURL: string },
  saved: Pick<AgentSettings, 'apiKey' | 'baseURL'>,
): boolean {
  return (
    draft.apiKey.trim() !== saved.apiKey.trim() ||
    normalizeBaseURL(draft.baseURL) !== normalizeBaseURL(saved.baseURL)
  );
}
