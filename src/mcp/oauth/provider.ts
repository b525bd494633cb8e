/**
 * tabcode's OAuth client for one MCP server, on the SDK's `OAuthClientProvider` contract: the SDK's
 * `auth()` does discovery (protected-resource metadata, authorization-server metadata, the 2025-03-26
 * fallbacks), registration (a client ID metadata document when the server supports it and one is
 * configured, else dynamic registration), PKCE, scope selection and step-up, and refresh. This file
 * keeps what it saves in the per-server auth store and hands the authorization URL to whoever opens
 * it (a popup in the page, a headless user agent in the conformance driver).
 *
 * Also here: the non-interactive grants a host page may configure (client credentials with a secret or
 * a private-key JWT, and cross-app access, SEP-990), built on the same contract.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../types.ts';
import { authKey, type McpAuthRecord, type McpAuthStore } from './store.ts';

/** What comes back to the redirect URI: a code and the state, or an error. */
export interface AuthorizationResponse {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
}

/**
 * Takes the user agent to the authorization URL and resolves with what the authorization server sent
 * to the redirect URI. `automatic`: it needs no click from the user (a headless agent); otherwise
 * the manager waits for the user to press "Sign in" before calling it.
 */
export interface McpAuthorizer {
  readonly automatic: boolean;
  authorize(
    url: URL,
    options: { server: string; state: string; signal?: AbortSignal },
  ): Promise<AuthorizationResponse>;
  /** The answer a full-page redirect sign-in left behind for `state` (taken once), if any. */
  pendingResponse?(state: string | undefined): AuthorizationResponse | undefined;
}

/** Everything the OAuth clients of a manager share. */
export interface McpAuthEnv {
  store: McpAuthStore;
  /** Where the authorization server sends the user back (the page's callback page). */
  redirectUrl: string;
  authorizer?: McpAuthorizer;
  /** The client's name in registrations (default 'tabcode'). */
  clientName?: string;
  clientUri?: string;
  /**
   * An HTTPS URL serving this client's metadata document (SEP-991), used as the client ID when the
   * authorization server supports it; without it, or when unsupported, dynamic registration.
   */
  clientMetadataUrl?: string;
}

/** Thrown when a URL the authorization server gave is not one a user agent may be sent to. */
export class UnsafeAuthorizationUrlError extends Error {}

/** True when the space-separated `granted` scopes include every one of `wanted`. */
function coversScope(granted: string | undefined, wanted: string): boolean {
  const have = new Set((granted ?? '').split(/\s+/).filter(Boolean));
  return wanted
    .split(/\s+/)
    .filter(Boolean)
    .every((s) => have.has(s));
}

/** A random URL-safe string (the OAuth `state`). */
function randomState(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The authorization-code client of one server. Call `load()` once before use (it reads the store).
 * `onAuthorizationUrl` hears the URL the user must visit each time the SDK starts a sign-in.
 */
export class BrowserOAuthProvider implements OAuthClientProvider {
  readonly key: string;
  private record: McpAuthRecord = {};
  private loaded?: Promise<void>;
  /** The authorization URL of the sign-in under way. */
  pendingUrl?: URL;
  /** The scope a 403 insufficient_scope asked for, until tokens carrying it are saved (step-up). */
  private stepUpScope?: string;

  constructor(
    readonly serverUrl: string,
    private readonly config: McpOAuthConfig,
    private readonly env: McpAuthEnv,
    private readonly onAuthorizationUrl: (url: URL) => void = () => {},
  ) {
    this.key = authKey(serverUrl);
  }

  /** Reads the stored record (once; later calls share the first read). */
  load(): Promise<void> {
    this.loaded ??= this.env.store.load(this.key).then((r) => {
      this.record = r;
    });
    return this.loaded;
  }

  private save(patch: Partial<McpAuthRecord>): Promise<void> {
    this.record = { ...this.record, ...patch };
    return this.env.store.update(this.key, patch);
  }

  get redirectUrl(): string {
    return this.env.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientId ? undefined : this.env.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.env.clientName ?? 'tabcode',
      ...(this.env.clientUri ? { client_uri: this.env.clientUri } : {}),
      redirect_uris: [this.env.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A page cannot keep a secret: a public client, protected by PKCE.
      token_endpoint_auth_method: this.config.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.config.scope ? { scope: this.config.scope } : {}),
    };
  }

  async state(): Promise<string> {
    const state = randomState();
    await this.save({ state });
    return state;
  }

  /** The state of the sign-in under way (what the redirect must bring back). */
  expectedState(): string | undefined {
    return this.record.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.config.clientId) {
      return {
        client_id: this.config.clientId,
        ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}),
      };
    }
    return this.record.clientInformation;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // Pre-registered credentials come from the config; only what the server issued is stored.
    if (!this.config.clientId) await this.save({ clientInformation: info });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.record.tokens;
    // Step-up: a refresh cannot widen a grant, so while the server wants a scope the tokens lack, the
    // SDK is not offered the refresh token and starts a new authorization with that scope instead.
    if (tokens?.refresh_token && this.stepUpScope && !coversScope(tokens.scope, this.stepUpScope)) {
      const { refresh_token: _, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save({ tokens, tokensSavedAt: Date.now(), codeVerifier: undefined, state: undefined });
    this.pendingUrl = undefined;
    this.stepUpScope = undefined;
  }

  /** Sees every response of the server: a 403 insufficient_scope records the scope it asks for. */
  observe(response: Response): void {
    if (response.status !== 403) return;
    const header = response.headers.get('www-authenticate') ?? '';
    if (!/error="?insufficient_scope"?/i.test(header)) return;
    const scope = /scope="([^"]*)"/i.exec(header)?.[1];
    if (scope) this.stepUpScope = scope;
  }

  redirectToAuthorization(url: URL): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new UnsafeAuthorizationUrlError(
        `The authorization server gave a sign-in address that is not http(s) (${url.protocol}); it was not opened.`,
      );
    }
    this.pendingUrl = url;
    this.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.save({ codeVerifier });
  }

  codeVerifier(): string {
    const v = this.record.codeVerifier;
    if (!v) throw new Error('No sign-in is under way for this server (no PKCE verifier).');
    return v;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all') {
      this.record = {};
      await this.env.store.clear(this.key);
      return;
    }
    const patch: Partial<McpAuthRecord> = {};
    if (scope === 'client') patch.clientInformation = undefined;
    if (scope === 'tokens') Object.assign(patch, { tokens: undefined, tokensSavedAt: undefined });
    if (scope === 'verifier') patch.codeVerifier = undefined;
    if (scope === 'discovery') patch.discoveryState = undefined;
    await this.save(patch);
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save({ discoveryState: state });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discoveryState;
  }

  /** True when an access token is stored. */
  hasTokens(): boolean {
    return Boolean(this.record.tokens?.access_token);
  }
}

/**
 * A provider for a non-interactive grant of `config` (client credentials, cross-app access), or
 * undefined for the authorization-code flow. Loaded lazily: the page never downloads these.
 */
export async function nonInteractiveProvider(
  serverUrl: string,
  config: McpOAuthConfig,
  fetchFn: typeof fetch,
): Promise<OAuthClientProvider | undefined> {
  if (config.grant === 'client_credentials') {
    if (!config.clientId) throw new Error('The client_credentials grant needs a clientId.');
    const ext = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    if (config.privateKeyPem) {
      return new ext.PrivateKeyJwtProvider({
        clientId: config.clientId,
        privateKey: config.privateKeyPem,
        algorithm: config.signingAlgorithm ?? 'ES256',
        ...(config.scope ? { scope: config.scope } : {}),
        ...(config.issuer ? { expectedIssuer: config.issuer } : {}),
      });
    }
    if (!config.clientSecret)
      throw new Error('The client_credentials grant needs a clientSecret or a privateKeyPem.');
    return new ext.ClientCredentialsProvider({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      ...(config.scope ? { scope: config.scope } : {}),
      ...(config.issuer ? { expectedIssuer: config.issuer } : {}),
    });
  }
  if (config.grant === 'cross_app_access') {
    const { crossAppAccessProvider } = await import('./cross-app.ts');
    return crossAppAccessProvider(serverUrl, config, fetchFn);
  }
  return undefined;
}
