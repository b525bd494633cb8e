/**
 * Cross-app access (SEP-990, "enterprise-managed authorization"): the host already holds an ID token
 * from the organisation's identity provider. It is exchanged at the IdP for an identity assertion
 * grant (ID-JAG, RFC 8693 token exchange) addressed to the MCP server's authorization server, which
 * gives an access token for it (RFC 7523 jwt-bearer grant). No browser sign-in happens.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../types.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Exchanges the IdP's ID token for an ID-JAG; rejects with the IdP's own error text. */
async function exchangeIdToken(
  config: McpOAuthConfig,
  audience: string,
  resource: string,
  fetchFn: typeof fetch,
): Promise<string> {
  const idp = config.idp;
  if (!idp) throw new Error('Cross-app access needs idp.tokenEndpoint, idp.idToken and idp.clientId.');
  const res = await fetchFn(idp.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience,
      resource,
      subject_token: idp.idToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: idp.clientId,
    }),
  });
  const text = await res.text();
  if (!res.ok)
    throw new Error(
      `The identity provider refused the token exchange (HTTP ${res.status}): ${text.slice(0, 300)}`,
    );
  let token: unknown;
  try {
    token = (JSON.parse(text) as { access_token?: unknown }).access_token;
  } catch {
    throw new Error('The identity provider answered the token exchange with something that is not JSON.');
  }
  if (typeof token !== 'string' || !token) throw new Error('The identity provider returned no ID-JAG.');
  return token;
}

/**
 * The provider: discovery finds the authorization server and the resource, the IdP gives the ID-JAG,
 * and the SDK's auth() sends the jwt-bearer grant with the client's secret (client_secret_basic).
 */
export async function crossAppAccessProvider(
  serverUrl: string,
  config: McpOAuthConfig,
  fetchFn: typeof fetch,
): Promise<OAuthClientProvider> {
  if (!config.clientId || !config.clientSecret) {
    throw new Error(
      'Cross-app access needs the clientId and clientSecret registered with the authorization server.',
    );
  }
  const { discoverOAuthServerInfo } = await import('@modelcontextprotocol/sdk/client/auth.js');
  let saved: OAuthTokens | undefined;
  const clientId = config.clientId;
  const clientSecret = config.clientSecret;
  return {
    redirectUrl: undefined,
    clientMetadata: {
      client_name: 'tabcode',
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clientInformation: () => ({ client_id: clientId, client_secret: clientSecret }),
    tokens: () => saved,
    saveTokens: (tokens) => {
      saved = tokens;
    },
    redirectToAuthorization: () => {
      throw new Error('Cross-app access never sends the user to a sign-in page.');
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => '',
    async prepareTokenRequest() {
      const info = await discoverOAuthServerInfo(serverUrl, { fetchFn });
      const audience = info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
      const resource = info.resourceMetadata?.resource ?? serverUrl;
      const assertion = await exchangeIdToken(config, audience, resource, fetchFn);
      return new URLSearchParams({ grant_type: JWT_BEARER, assertion });
    },
  };
}
