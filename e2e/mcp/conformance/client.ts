/**
 * The client under test of the MCP conformance suite (`@modelcontextprotocol/conformance`, client
 * scenarios): tabcode's own MCP layer in Node — the manager, the connection, the OAuth provider, the
 * adapters — with tool calls made through the loop's tool-call path (prepareCall + runToolCall, as the
 * loop runs a model's tool_use). Two things stand in for the page:
 *
 * - the user agent of a sign-in: the authorization URL is fetched without following its redirect,
 *   and the code and state are read off the Location header (what the popup and the callback page do);
 * - the user at an elicitation form: it is accepted as shown, i.e. with the schema's defaults applied
 *   by the same code that fills the page's form.
 *
 * The runner appends the server URL; the scenario name and its context (pre-registered credentials,
 * keys, tokens) come in MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT.
 */

import { pathToFileURL } from 'node:url';
import { WORKSPACE_ROOT } from '../../../src/core/constants.ts';
import { createToolUseContext } from '../../../src/core/context.ts';
import type { ToolUseBlockParam } from '../../../src/core/messages.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../../src/core/tool-execution.ts';
import { elicitationContent, initialValues } from '../../../src/mcp/elicitation.ts';
import { createMcpManager } from '../../../src/mcp/manager.ts';
import { createMemoryAuthStore } from '../../../src/mcp/oauth/store.ts';
import type { McpOAuthConfig } from '../../../src/mcp/types.ts';
import type { Sandbox } from '../../../src/sandbox/sandbox.ts';
import { headlessAuthorizer as createHeadlessAuthorizer } from '../oauth-server.ts';

/** Connect timeout of the driver's server (the suite gives each scenario 30 s). */
const DRIVER_CONNECT_TIMEOUT_MS = 28_000;
/** The redirect URI registered by the driver (nothing listens there: the redirect is read, not followed). */
const REDIRECT_URI = 'http://localhost:3000/callback';
/** The client ID metadata document URL the suite's authorization servers accept (SEP-991). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const headlessAuthorizer = createHeadlessAuthorizer();

/** The OAuth config a scenario's context calls for (credentials the suite hands the client). */
function oauthConfig(scenario: string, ctx: Record<string, string>): McpOAuthConfig | undefined {
  switch (scenario) {
    case 'auth/pre-registration':
      return { clientId: ctx.client_id, clientSecret: ctx.client_secret };
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: ctx.client_id, clientSecret: ctx.client_secret };
    case 'auth/client-credentials-jwt':
      return {
        grant: 'client_credentials',
        clientId: ctx.client_id,
        privateKeyPem: ctx.private_key_pem,
        ...(ctx.signing_algorithm ? { signingAlgorithm: ctx.signing_algorithm } : {}),
      };
    case 'auth/cross-app-access-complete-flow':
      return {
        grant: 'cross_app_access',
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
        idp: {
          tokenEndpoint: ctx.idp_token_endpoint,
          idToken: ctx.idp_id_token,
          clientId: ctx.idp_client_id,
        },
      };
    default:
      return undefined;
  }
}

/** Arguments a model would plausibly send, from the schema it sees: one value per property. */
function sampleArguments(schema: { properties?: Record<string, unknown> }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const s = (raw ?? {}) as { type?: unknown; enum?: unknown[]; default?: unknown };
    if (s.default !== undefined) args[name] = s.default;
    else if (Array.isArray(s.enum) && s.enum.length) args[name] = s.enum[0];
    else if (s.type === 'number' || s.type === 'integer') args[name] = 1;
    else if (s.type === 'boolean') args[name] = true;
    else if (s.type === 'array') args[name] = [];
    else if (s.type === 'object') args[name] = {};
    else args[name] = 'conformance';
  }
  return args;
}

/**
 * The context's sandbox: MCP tools never touch it (they reach their server, not the workspace), so
 * this one has the workspace root the permission check reads and fails loudly on anything else.
 */
function noSandbox(): Sandbox {
  return new Proxy({ root: WORKSPACE_ROOT } as Sandbox, {
    get(target, key) {
      if (key in target || typeof key === 'symbol') return Reflect.get(target, key);
      throw new Error(`An MCP tool call used the sandbox (${String(key)}), which it never should.`);
    },
  });
}

/**
 * Runs one scenario against the server at `url` the way tabcode would: connect (signing in when
 * asked), list, call every tool. Resolves with the exit code the runner expects (0: done); `log`
 * gets the client's output. Never throws.
 */
export async function runConformanceScenario(
  scenario: string,
  url: string,
  ctx: Record<string, string>,
  log: (line: string) => void,
): Promise<number> {
  const manager = createMcpManager({
    auth: {
      store: createMemoryAuthStore(),
      redirectUrl: REDIRECT_URI,
      authorizer: headlessAuthorizer,
      clientMetadataUrl: CLIENT_METADATA_URL,
      clientName: 'tabcode conformance driver',
    },
  });
  try {
    // The user accepts each form as tabcode shows it: defaults filled in.
    manager.onChange(() => {
      for (const ask of manager.interactions()) {
        if (ask.kind === 'elicitation') {
          const out = elicitationContent(ask.fields, initialValues(ask.fields));
          manager.answer(
            ask.id,
            'content' in out ? { action: 'accept', content: out.content } : { action: 'decline' },
          );
        } else {
          manager.answer(ask.id, { action: 'decline' });
        }
      }
    });
    const oauth = oauthConfig(scenario, ctx);
    const state = await manager.addServer({
      type: 'http',
      name: 'conformance',
      url,
      // Every scenario runs at once: on a small machine a full sign-in (discovery, registration,
      // authorization, token) can take longer than the page's default 15 s.
      connectTimeoutMs: DRIVER_CONNECT_TIMEOUT_MS,
      ...(oauth ? { oauth } : {}),
    });
    if (state.status !== 'connected') {
      log(`not connected: ${state.status}: ${state.error ?? state.auth?.error ?? ''}`);
      return 1;
    }
    log(`connected (${state.transport}); ${state.toolCount} tools; skipped ${JSON.stringify(state.skipped)}`);
    const context = createToolUseContext({ sandbox: noSandbox() });
    const tools = manager.tools();
    let failures = 0;
    for (const tool of tools) {
      const block: ToolUseBlockParam = {
        type: 'tool_use',
        id: `toolu_conformance_${tool.name}`,
        name: tool.name,
        input: sampleArguments(tool.inputJSONSchema),
      };
      const prepared = await prepareCall(block, tools);
      const out = await runToolCall(
        prepared,
        { ...context, abortController: new AbortController() },
        { tools, canUseTool: defaultCanUseTool, emit: () => {} },
      );
      const text =
        typeof out.block.content === 'string' ? out.block.content : JSON.stringify(out.block.content);
      log(`${tool.name}: ${out.block.is_error ? 'ERROR ' : ''}${text.slice(0, 300)}`);
      if (out.block.is_error) failures++;
    }
    return failures ? 1 : 0;
  } catch (err) {
    log(`driver error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  } finally {
    await manager.dispose();
  }
}

// Standalone: the runner's command is this file (one process per scenario).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: MCP_CONFORMANCE_SCENARIO=<name> tsx e2e/mcp/conformance/client.ts <server-url>');
    process.exit(2);
  }
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;
  runConformanceScenario(process.env.MCP_CONFORMANCE_SCENARIO ?? '', url, ctx, (line) =>
    console.log(line),
  ).then((code) => process.exit(code));
}
