/**
 * One browser sign-in: send the user agent to the authorization URL the SDK made, check what comes
 * back to the redirect URI (the `state` must be the one this sign-in sent; an error is reported in the
 * authorization server's words), and exchange the code for tokens through the SDK's auth() (PKCE
 * verifier, client authentication, resource indicator). Tokens land in the provider's store.
 */

import { messageOf } from '../../core/errors.ts';
import type { AuthorizationResponse, BrowserOAuthProvider, McpAuthorizer } from './provider.ts';

/** A sign-in that did not give tokens, with a message for the MCP panel. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

/** Checks a redirect's answer against the sign-in under way; the code, or a SignInError. */
export function checkAuthorizationResponse(
  response: AuthorizationResponse,
  expectedState: string | undefined,
): string {
  if (response.error) {
    const why = response.errorDescription ? `: ${response.errorDescription}` : '';
    throw new SignInError(`The authorization server refused the sign-in (${response.error}${why}).`);
  }
  if (!expectedState || response.state !== expectedState) {
    throw new SignInError(
      'The sign-in answer does not belong to this sign-in (its state does not match), so it was ignored. Try signing in again.',
    );
  }
  if (!response.code) throw new SignInError('The authorization server sent no authorization code.');
  return response.code;
}

/** Exchanges an authorization code for tokens (stored by the provider). */
export async function exchangeCode(
  provider: BrowserOAuthProvider,
  code: string,
  fetchFn?: typeof fetch,
): Promise<void> {
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
  let result: string;
  try {
    result = await auth(provider, {
      serverUrl: provider.serverUrl,
      authorizationCode: code,
      ...(fetchFn ? { fetchFn } : {}),
    });
  } catch (err) {
    throw new SignInError(`Exchanging the authorization code failed: ${messageOf(err)}`);
  }
  if (result !== 'AUTHORIZED') throw new SignInError('The authorization server did not issue tokens.');
}

/**
 * Runs the sign-in under way for `provider` (its pending authorization URL) with `authorizer`, and
 * stores the tokens. Rejects with a SignInError (or the authorizer's own error, e.g. a closed popup).
 */
export async function runSignIn(
  provider: BrowserOAuthProvider,
  authorizer: McpAuthorizer,
  server: string,
  signal?: AbortSignal,
  fetchFn?: typeof fetch,
): Promise<void> {
  const url = provider.pendingUrl;
  if (!url) throw new SignInError(`No sign-in is under way for ${server}: reconnect the server first.`);
  const state = provider.expectedState();
  const response = await authorizer.authorize(url, {
    server,
    state: state ?? '',
    ...(signal ? { signal } : {}),
  });
  const code = checkAuthorizationResponse(response, state);
  await exchangeCode(provider, code, fetchFn);
}
