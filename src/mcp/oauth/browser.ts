/**
 * Sign-in in the browser. The authorization page opens in a popup (from the user's click on "Sign
 * in", so the browser allows it); the authorization server sends the popup back to
 * `mcp-oauth-callback.html` on tabcode's origin, which hands `code` and `state` to the page over a
 * BroadcastChannel (a popup that went through another origin has no `opener` under COOP
 * same-origin) and closes. When popups are blocked the page itself goes to the authorization server
 * and comes back: the callback keeps the answer in localStorage under its `state`, and the next load
 * finishes the sign-in (`pendingResponse`). Either way the code is useless without the PKCE verifier,
 * which never leaves this origin.
 */
import type { AuthorizationResponse, McpAuthorizer } from './provider.ts';

/** The callback page (public/mcp-oauth-callback.html), relative to the app's URL. */
export const OAUTH_CALLBACK_PAGE = 'mcp-oauth-callback.html';
/** The BroadcastChannel the callback page posts on. */
export const OAUTH_CHANNEL = 'tabcode-mcp-oauth';
/** localStorage: the answer of a redirect sign-in, by state; and where to come back to. */
export const OAUTH_RESULT_PREFIX = 'tabcode-mcp-oauth:';
export const OAUTH_RETURN_KEY = 'tabcode-mcp-oauth-return';
/** How long a sign-in window may stay open before the sign-in is given up. */
export const OAUTH_SIGN_IN_TIMEOUT_MS = 10 * 60_000;

/** The redirect URI of this page: the callback page next to it. */
export function callbackUrl(base: string = location.href): string {
  return new URL(OAUTH_CALLBACK_PAGE, base).href;
}

/** What the callback page posts (and stores), or null when `data` is not that. */
export function parseCallbackMessage(data: unknown): AuthorizationResponse | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== 'tabcode:mcp-oauth') return null;
  const out: AuthorizationResponse = {};
  for (const key of ['code', 'state', 'error', 'errorDescription'] as const) {
    if (typeof d[key] === 'string') out[key] = d[key] as string;
  }
  return out;
}

export interface PopupAuthorizerOptions {
  /** Test seams: the window and storage to use. */
  window?: Window;
  timeoutMs?: number;
}

/** The page's authorizer: a popup, else a full-page redirect. */
export function createPopupAuthorizer(options: PopupAuthorizerOptions = {}): McpAuthorizer & {
  /** The answer a redirect sign-in left for `state` (consumed), if any. */
  pendingResponse(state: string | undefined): AuthorizationResponse | undefined;
} {
  const win = options.window ?? window;
  const timeoutMs = options.timeoutMs ?? OAUTH_SIGN_IN_TIMEOUT_MS;
  const take = (state: string | undefined): AuthorizationResponse | undefined => {
    if (!state) return undefined;
    try {
      const raw = win.localStorage.getItem(OAUTH_RESULT_PREFIX + state);
      if (raw === null) return undefined;
      win.localStorage.removeItem(OAUTH_RESULT_PREFIX + state);
      return parseCallbackMessage(JSON.parse(raw)) ?? undefined;
    } catch {
      return undefined;
    }
  };
  return {
    automatic: false,
    pendingResponse: take,
    authorize(url, { server, state, signal }) {
      // Synchronous up to window.open, so a click's user activation still allows the popup.
      const popup = win.open(url.href, `tabcode-oauth-${server}`, 'popup,width=520,height=720');
      if (!popup) {
        try {
          win.localStorage.setItem(
            OAUTH_RETURN_KEY,
            JSON.stringify({ url: win.location.href, at: Date.now() }),
          );
        } catch {
          // Without storage the page cannot come back to finish; the sign-in will simply be asked again.
        }
        win.location.assign(url.href);
        return new Promise<AuthorizationResponse>(() => {});
      }
      return new Promise<AuthorizationResponse>((resolve, reject) => {
        const channel = new BroadcastChannel(OAUTH_CHANNEL);
        let settled = false;
        const finish = (fn: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          channel.close();
          fn();
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(
                  `The sign-in window did not come back within ${Math.round(timeoutMs / 60_000)} minutes.`,
                ),
              ),
            ),
          timeoutMs,
        );
        channel.onmessage = (event: MessageEvent) => {
          const response = parseCallbackMessage(event.data);
          // Answers of other sign-ins (another server, another tab) are not ours.
          if (!response || response.state !== state) return;
          take(state);
          finish(() => resolve(response));
        };
        signal?.addEventListener(
          'abort',
          () => finish(() => reject(new Error('The sign-in was cancelled.'))),
          {
            once: true,
          },
        );
      });
    },
  };
}
