/**
 * The baseline of the conformance run: a minimal client written directly on `@modelcontextprotocol/sdk`
 * (no tabcode code), run against the same scenarios in the same run as tabcode's driver. When it
 * fails a scenario too, the scenario (or this machine) is the problem, not tabcode.
 *
 * Usage (what the conformance runner does): MCP_CONFORMANCE_SCENARIO=<name> tsx sdk-baseline-client.ts <url>
 */

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const REDIRECT = 'http://localhost:3000/callback';
const CIMD = 'https://conformance-test.local/client-metadata.json';

/** An authorization-code provider that "signs in" by reading the code off the authorize redirect. */
class HeadlessProvider implements OAuthClientProvider {
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';
  code?: string;
  readonly clientMetadataUrl = CIMD;
  constructor(info?: OAuthClientInformationMixed) {
    this.info = info;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'sdk-baseline', redirect_uris: [REDIRECT] };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    this.code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
  }
}

async function connectWithAuth(url: URL, provider: OAuthClientProvider, client: Client): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    try {
      await client.connect(transport);
      return;
    } catch (err) {
      const code = provider instanceof HeadlessProvider ? provider.code : undefined;
      if (!code || !(provider instanceof HeadlessProvider)) throw err;
      provider.code = undefined;
      await transport.finishAuth(code);
    }
  }
  throw new Error('could not sign in');
}

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = new URL(process.argv[2] ?? '');
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;
  const client = new Client(
    { name: 'sdk-baseline', version: '1.0.0' },
    { capabilities: { elicitation: { form: { applyDefaults: true } } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  let provider: OAuthClientProvider | undefined;
  if (scenario === 'auth/client-credentials-basic') {
    provider = new ClientCredentialsProvider({ clientId: ctx.client_id, clientSecret: ctx.client_secret });
  } else if (scenario === 'auth/client-credentials-jwt') {
    provider = new PrivateKeyJwtProvider({
      clientId: ctx.client_id,
      privateKey: ctx.private_key_pem,
      algorithm: ctx.signing_algorithm || 'ES256',
    });
  } else if (scenario === 'auth/pre-registration') {
    provider = new HeadlessProvider({ client_id: ctx.client_id, client_secret: ctx.client_secret });
  } else if (scenario === 'auth/cross-app-access-complete-flow') {
    provider = await crossAppProvider(url, ctx);
  } else if (scenario.startsWith('auth/')) {
    provider = new HeadlessProvider();
  }
  if (provider) await connectWithAuth(url, provider, client);
  else await client.connect(new StreamableHTTPClientTransport(url));
  // A request refused later (step-up: a wider scope) signs in again, then is sent once more.
  const retrying = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      const code = provider instanceof HeadlessProvider ? provider.code : undefined;
      if (!code || !(client.transport instanceof StreamableHTTPClientTransport)) throw err;
      (provider as HeadlessProvider).code = undefined;
      await client.transport.finishAuth(code);
      return fn();
    }
  };
  const { tools } = await retrying(() => client.listTools());
  for (const tool of tools) {
    const args: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(tool.inputSchema.properties ?? {})) {
      const type = (s as { type?: string }).type;
      args[k] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'x';
    }
    await retrying(() => client.callTool({ name: tool.name, arguments: args }));
  }
  await client.close();
}

/** SEP-990: the IdP's ID token → an ID-JAG (token exchange) → a jwt-bearer grant at the server's AS. */
async function crossAppProvider(url: URL, ctx: Record<string, string>): Promise<OAuthClientProvider> {
  const prm = (await (
    await fetch(new URL(`/.well-known/oauth-protected-resource${url.pathname}`, url))
  ).json()) as { resource: string; authorization_servers: string[] };
  const as = (await (
    await fetch(new URL('/.well-known/oauth-authorization-server', prm.authorization_servers[0]))
  ).json()) as { issuer: string };
  const exchange = await fetch(ctx.idp_token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: as.issuer,
      resource: prm.resource,
      subject_token: ctx.idp_id_token,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: ctx.idp_client_id,
    }),
  });
  const jag = ((await exchange.json()) as { access_token: string }).access_token;
  let saved: OAuthTokens | undefined;
  return {
    redirectUrl: undefined,
    clientMetadata: {
      client_name: 'sdk-baseline',
      redirect_uris: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clientInformation: () => ({ client_id: ctx.client_id, client_secret: ctx.client_secret }),
    tokens: () => saved,
    saveTokens: (t) => {
      saved = t;
    },
    redirectToAuthorization: () => {
      throw new Error('not interactive');
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => '',
    prepareTokenRequest: () =>
      new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jag }),
  };
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
