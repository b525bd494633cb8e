/**
 * One live connection to an MCP server: the session (see transport.ts), what it lists (tools,
 * resources, prompts; refetched on list_changed, a storm of notifications costing one refetch), what it
 * sends (logging, progress, elicitation, sampling and roots requests), and the calls tabcode makes.
 *
 * Recovery: a request the server answers with "unknown session" (HTTP 404, the spec's signal) opens a
 * new session and is sent once more; a request refused for authorization (expired token, a wider
 * scope: step-up) signs in again through `reauthorize` and is sent once more. A connection whose
 * stream is gone for good reports `onLost`, and the manager reconnects with backoff.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import {
  MCP_CONNECT_TIMEOUT_MS,
  MCP_LIST_CHANGED_DEBOUNCE_MS,
  MCP_MAX_INSTRUCTIONS_CHARS,
  MCP_MAX_LOG_ENTRY_CHARS,
  MCP_MAX_TOTAL_TOOL_TIME_MS,
  MCP_TOOL_TIMEOUT_MS,
} from '../core/constants.ts';
import { hashString } from '../core/hash.ts';
import { type AdaptedTools, adaptMcpTools, type McpCallFn, type McpCallOptions } from './adapter.ts';
import { listAll, type McpPromptInfo, type McpResourceInfo, toPrompts, toResources } from './catalog.ts';
import type { ElicitationAnswer, McpInteractionAnswer, SamplingSummary } from './interactions.ts';
import { elicitationFields, samplingText } from './interactions.ts';
import { guardRequest, McpMalformedMessageError } from './malformed.ts';
import { MALFORMED_MARK } from './response-guard.ts';
import type { ImageDownscaler } from './results.ts';
import type { SchemaValidator } from './schema.ts';
import {
  errMessage,
  httpFailure,
  isSessionGone,
  McpAuthRequiredError,
  openSession,
  type Sdk,
  sdk,
  type TransportKind,
  withTimeout,
} from './transport.ts';
import type { McpLogEntry, McpServerConfig } from './types.ts';

export type { TransportKind } from './transport.ts';

const CallLoose = z.looseObject({});

const isMalformedAnswer = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && (data as Record<string, unknown>)[MALFORMED_MARK] === true;

export interface ConnectionHooks {
  /** The tool list changed (after a list_changed refetch or a new session). */
  onToolsChanged(adapted: AdaptedTools, hash: string): void;
  /** The resource or prompt lists changed. */
  onCatalogChanged(): void;
  /** The connection ended without close() being called (server closed it, stream lost for good). */
  onLost(reason: string): void;
  /** A notifications/message (logging) from the server. */
  onLog(entry: McpLogEntry): void;
}

/** The user-facing side of server requests; each member absent: that capability is not declared. */
export interface ClientRequestHost {
  elicit?(
    request: {
      server: string;
      message: string;
      fields: NonNullable<ReturnType<typeof elicitationFields>>;
      toolUseId?: string;
    },
    signal: AbortSignal,
  ): Promise<McpInteractionAnswer>;
  /** Asks the user, then (approved) runs the model; resolves with the sampling result. */
  sample?(
    request: {
      server: string;
      summary: SamplingSummary;
      params: Record<string, unknown>;
      toolUseId?: string;
    },
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** The roots offered to servers (the workspace). */
  roots?(): Array<{ uri: string; name?: string }>;
}

export interface ConnectionEnv {
  /** The call every adapted tool makes (the manager's, which survives reconnects). */
  call: McpCallFn;
  authProvider?: OAuthClientProvider;
  /** Signs in when the first connect is refused (see OpenOptions.signIn). */
  signIn?: () => Promise<void>;
  /** Signs in again mid-session (expired token, step-up); resolves once new tokens are stored. */
  reauthorize?: (signal?: AbortSignal) => Promise<void>;
  host?: ClientRequestHost;
  validateSchema?: SchemaValidator;
  downscale?: ImageDownscaler;
  /** The tools of the last connection: kept as they are when the server lists the same tools again. */
  previousTools?: { hash: string; adapted: AdaptedTools };
}

export interface McpConnection {
  readonly transport: TransportKind;
  readonly serverInfo?: { name: string; version: string };
  readonly instructions?: string;
  readonly adapted: AdaptedTools;
  /** Hash of the raw tools/list (identical lists keep their Tool objects). */
  readonly toolsHash: string;
  resources(): McpResourceInfo[];
  prompts(): McpPromptInfo[];
  callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<unknown>;
  readResource(uri: string, signal?: AbortSignal): Promise<unknown>;
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<unknown>;
  /** Refetches every list now (also done on list_changed). Never throws. */
  refresh(): Promise<void>;
  /** Ends the session (DELETE for Streamable HTTP) and closes the transport. Never throws. */
  close(): Promise<void>;
}

/** The client capabilities `host` can honour: nothing is declared that tabcode cannot do. */
export function clientCapabilities(
  host: ClientRequestHost | undefined,
): NonNullable<ClientOptions['capabilities']> {
  return {
    ...(host?.elicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
    ...(host?.sample ? { sampling: {} } : {}),
    ...(host?.roots ? { roots: {} } : {}),
  };
}

/** A progress notification as the tool card shows it. */
function progressText(p: { progress: number; total?: number; message?: string }): string {
  const pct = p.total ? ` ${Math.round((p.progress / p.total) * 100)}%` : '';
  const of = p.total ? `${p.progress}/${p.total}` : String(p.progress);
  return `Progress ${of}${pct}${p.message ? ` — ${p.message}` : ''}`;
}

function logText(data: unknown): string {
  const t = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  return t.length > MCP_MAX_LOG_ENTRY_CHARS ? `${t.slice(0, MCP_MAX_LOG_ENTRY_CHARS)}…` : t;
}

function cutInstructions(text: string | undefined): string | undefined {
  const t = text?.trim();
  if (!t) return undefined;
  if (t.length <= MCP_MAX_INSTRUCTIONS_CHARS) return t;
  return `${t.slice(0, MCP_MAX_INSTRUCTIONS_CHARS)}… [instructions truncated]`;
}

/**
 * Connects to the server of `config` (normalized name), lists what it offers and watches for
 * changes. Rejects with a readable reason when it cannot connect within the timeout
 * (McpAuthRequiredError when the user must sign in first).
 */
export async function connectMcpServer(
  config: McpServerConfig,
  hooks: ConnectionHooks,
  env: ConnectionEnv,
): Promise<McpConnection> {
  const s: Sdk = await sdk();
  const server = config.name;
  const connectTimeout = config.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const toolTimeout = config.toolTimeoutMs ?? MCP_TOOL_TIMEOUT_MS;
  const started = Date.now();
  let closing = false;
  let lost = false;
  /** Tool calls running now, by JSON-RPC-independent key → their tool_use id. */
  const inFlight = new Map<symbol, string | undefined>();
  const currentToolUse = (): string | undefined => {
    const ids = [...inFlight.values()];
    return ids.length === 1 ? ids[0] : undefined;
  };

  const setup = (client: Client): void => {
    const host = env.host;
    if (host?.elicit) {
      const elicit = host.elicit.bind(host);
      client.setRequestHandler(s.ElicitRequestSchema, async (req, extra) => {
        const params = req.params as { mode?: string; message?: string; requestedSchema?: unknown };
        const fields = elicitationFields(params.requestedSchema);
        // A schema tabcode cannot show as a form is declined, never guessed at.
        if (!fields) return { action: 'decline' };
        const toolUseId = currentToolUse();
        const answer = (await elicit(
          { server, message: String(params.message ?? ''), fields, ...(toolUseId ? { toolUseId } : {}) },
          extra.signal,
        )) as ElicitationAnswer;
        return answer.action === 'accept'
          ? { action: 'accept', content: answer.content }
          : { action: answer.action };
      });
    }
    if (host?.sample) {
      const sample = host.sample.bind(host);
      client.setRequestHandler(s.CreateMessageRequestSchema, async (req, extra) => {
        const p = req.params as {
          systemPrompt?: string;
          messages?: Array<{ role: string; content: unknown }>;
          maxTokens?: number;
        };
        const summary: SamplingSummary = {
          ...(p.systemPrompt ? { systemPrompt: p.systemPrompt } : {}),
          messages: (p.messages ?? []).map((m) => ({ role: m.role, text: samplingText(m.content) })),
          maxTokens: Number(p.maxTokens ?? 0),
        };
        const toolUseId = currentToolUse();
        return (await sample(
          {
            server,
            summary,
            params: req.params as Record<string, unknown>,
            ...(toolUseId ? { toolUseId } : {}),
          },
          extra.signal,
        )) as never;
      });
    }
    if (host?.roots) {
      const roots = host.roots.bind(host);
      client.setRequestHandler(s.ListRootsRequestSchema, async () => ({ roots: roots() }));
    }
    client.setNotificationHandler(s.LoggingMessageNotificationSchema, (n) => {
      const p = n.params;
      hooks.onLog({
        level: p.level,
        ...(typeof p.logger === 'string' ? { logger: p.logger } : {}),
        text: logText(p.data),
        at: Date.now(),
      });
    });
    client.setNotificationHandler(s.ToolListChangedNotificationSchema, () => scheduleRefresh());
    client.setNotificationHandler(s.ResourceListChangedNotificationSchema, () => scheduleRefresh());
    client.setNotificationHandler(s.PromptListChangedNotificationSchema, () => scheduleRefresh());
    client.onclose = () => {
      if (client === session.client) markLost('The server closed the connection.');
    };
    client.onerror = (err) => {
      // The Streamable HTTP transport gives up on its event stream after a few retries: the server is gone.
      if (client === session.client && /Maximum reconnection attempts/i.test(errMessage(err))) {
        markLost('Lost the connection: the server stopped answering.');
      }
    };
  };

  const clientOptions: ClientOptions = { capabilities: clientCapabilities(env.host) };
  const open = (kind?: TransportKind, timeoutMs = connectTimeout) =>
    openSession({
      config,
      timeoutMs,
      clientOptions,
      setup,
      ...(env.authProvider ? { authProvider: env.authProvider } : {}),
      ...(env.signIn ? { signIn: env.signIn } : {}),
      ...(kind ? { kind } : {}),
    });

  // `session` is declared before open() resolves because setup's handlers read it.
  let session: { client: Client; kind: TransportKind } = {
    client: undefined as unknown as Client,
    kind: 'in-page',
  };
  session = await open();

  let adapted: AdaptedTools = { tools: [], skipped: [] };
  let toolsHash = '';
  let resources: McpResourceInfo[] = [];
  let prompts: McpPromptInfo[] = [];

  /** Reads every list of the current session; returns whether the tools changed. */
  const loadLists = async (client: Client, timeout: number): Promise<boolean> => {
    const caps = client.getServerCapabilities() ?? {};
    const rawTools = caps.tools ? await listAll(client, 'tools/list', 'tools', timeout) : [];
    const [res, templates, prom] = await Promise.all([
      caps.resources ? listAll(client, 'resources/list', 'resources', timeout).catch(() => []) : [],
      caps.resources
        ? listAll(client, 'resources/templates/list', 'resourceTemplates', timeout).catch(() => [])
        : [],
      caps.prompts ? listAll(client, 'prompts/list', 'prompts', timeout).catch(() => []) : [],
    ]);
    const catalogBefore = JSON.stringify([resources, prompts]);
    resources = [...toResources(server, res), ...toResources(server, templates, true)];
    prompts = toPrompts(server, prom);
    if (JSON.stringify([resources, prompts]) !== catalogBefore) hooks.onCatalogChanged();
    let hash: string;
    try {
      hash = hashString(JSON.stringify(rawTools));
    } catch {
      hash = `unhashable:${Date.now()}`;
    }
    if (hash === toolsHash) return false;
    toolsHash = hash;
    const previous = env.previousTools;
    adapted =
      previous && previous.hash === hash
        ? previous.adapted
        : adaptMcpTools(rawTools, {
            server,
            call: env.call,
            ...(env.validateSchema ? { validateSchema: env.validateSchema } : {}),
            ...(env.downscale ? { downscale: env.downscale } : {}),
          });
    return true;
  };

  /** The first listing; a server that asks for a sign-in only now (some do) gets one, as at connect. */
  const firstLists = async (timeout: number): Promise<void> => {
    for (let signIns = 0; ; signIns++) {
      try {
        const client = session.client;
        await guardRequest(client, () => loadLists(client, timeout));
        return;
      } catch (err) {
        if (!(err instanceof s.UnauthorizedError) || !env.authProvider || signIns >= 2) throw err;
        if (!env.signIn) throw new McpAuthRequiredError(server);
        await env.signIn();
      }
    }
  };

  try {
    const left = Math.max(1, connectTimeout - (Date.now() - started));
    await withTimeout(
      firstLists(left),
      left,
      `listing what the server offers did not finish within ${connectTimeout} ms.`,
    );
  } catch (err) {
    closing = true;
    await session.client.close().catch(() => {});
    if (err instanceof McpAuthRequiredError) throw err;
    throw new Error(
      `Connected, but listing tools failed: ${httpFailure(config.type === 'http' ? config.url : 'in-page', err)}`,
    );
  }

  const markLost = (reason: string) => {
    if (closing || lost) return;
    lost = true;
    hooks.onLost(reason);
  };

  // list_changed: one refetch per burst, one at a time; a change during a refetch triggers one more.
  let refreshing: Promise<void> | undefined;
  let again = false;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  const refresh = async (): Promise<void> => {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const changed = await run((client) => loadLists(client, toolTimeout));
          if (closing || lost) return;
          if (changed) hooks.onToolsChanged(adapted, toolsHash);
        } catch (err) {
          if (!closing && !lost)
            console.warn(`tabcode: refreshing the lists of MCP server ${server} failed`, err);
        }
      } while (again && !closing && !lost);
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };
  function scheduleRefresh(): void {
    if (closing || lost) return;
    clearTimeout(debounce);
    debounce = setTimeout(() => void refresh(), MCP_LIST_CHANGED_DEBOUNCE_MS);
  }

  // A new session for a server that forgot ours (HTTP 404): one at a time, shared by every caller.
  let reopening: Promise<void> | undefined;
  const reinitialize = (stale: Client): Promise<void> => {
    if (session.client !== stale) return Promise.resolve();
    reopening ??= (async () => {
      const next = await open(session.kind);
      const old = session.client;
      session = next;
      // The old session is gone on the server: close locally, no DELETE.
      void old.close().catch(() => {});
      const changed = await loadLists(next.client, toolTimeout).catch(() => false);
      if (changed && !closing) hooks.onToolsChanged(adapted, toolsHash);
    })().finally(() => {
      reopening = undefined;
    });
    return reopening;
  };

  /** Runs one request on the current session, recovering once from a lost session or an auth refusal. */
  const run = async <T>(
    fn: (client: Client, signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      if (reopening) await reopening;
      const client = session.client;
      try {
        // A malformed message the server sends meanwhile fails the request at once (malformed.ts).
        return await guardRequest(client, (guarded) => fn(client, guarded), signal);
      } catch (err) {
        if (signal?.aborted || closing || attempt > 0 || err instanceof McpMalformedMessageError) throw err;
        if (isSessionGone(s, err)) {
          await reinitialize(client);
          continue;
        }
        if (err instanceof s.UnauthorizedError && env.reauthorize) {
          await env.reauthorize(signal);
          continue;
        }
        throw err;
      }
    }
  };

  const notConnected = () => new Error(`The MCP server ${server} is not connected.`);

  const connection: McpConnection & { adapted: AdaptedTools; toolsHash: string } = {
    transport: session.kind,
    ...(() => {
      const info = session.client.getServerVersion();
      return info ? { serverInfo: { name: info.name, version: info.version } } : {};
    })(),
    ...(() => {
      const instructions = cutInstructions(session.client.getInstructions());
      return instructions ? { instructions } : {};
    })(),
    get adapted() {
      return adapted;
    },
    get toolsHash() {
      return toolsHash;
    },
    resources: () => resources,
    prompts: () => prompts,
    async callTool(toolName, args, options) {
      if (lost || closing) throw notConnected();
      const key = Symbol(toolName);
      inFlight.set(key, options.toolUseId);
      try {
        return await run(
          (client, signal) =>
            client.request({ method: 'tools/call', params: { name: toolName, arguments: args } }, CallLoose, {
              signal,
              timeout: toolTimeout,
              // Progress shows on the tool card and keeps a long call alive, up to a total cap.
              resetTimeoutOnProgress: true,
              maxTotalTimeout: Math.max(toolTimeout, MCP_MAX_TOTAL_TOOL_TIME_MS),
              onprogress: (p) => options.onProgress?.({ kind: 'status', text: progressText(p) }),
            }),
          options.signal,
        );
      } catch (err) {
        if (options.signal.aborted) throw err;
        if (err instanceof McpMalformedMessageError) {
          throw new Error(
            `${err.message} The call to ${toolName} was abandoned: it may or may not have run on the server.`,
          );
        }
        if (err instanceof s.McpError && isMalformedAnswer(err.data)) {
          // Rewritten by response-guard.ts: the server's fault, said plainly.
          throw new Error(
            `The MCP server ${server} sent a malformed answer to ${toolName}: ${err.message.replace(/^MCP error -?\d+: /, '')}`,
          );
        }
        if (err instanceof s.McpError && err.code === s.ErrorCode.RequestTimeout) {
          throw new Error(
            `The MCP server ${server} did not answer ${toolName} within ${toolTimeout} ms (timed out).`,
          );
        }
        throw new Error(
          `The MCP server ${server} failed to run ${toolName}: ${httpFailure(config.type === 'http' ? config.url : 'in-page', err)}`,
        );
      } finally {
        inFlight.delete(key);
      }
    },
    async readResource(uri, signal) {
      if (lost || closing) throw notConnected();
      return run(
        (client, guarded) =>
          client.request({ method: 'resources/read', params: { uri } }, CallLoose, {
            timeout: toolTimeout,
            signal: guarded,
          }),
        signal,
      );
    },
    async getPrompt(name, args, signal) {
      if (lost || closing) throw notConnected();
      return run(
        (client, guarded) =>
          client.request({ method: 'prompts/get', params: { name, arguments: args } }, CallLoose, {
            timeout: toolTimeout,
            signal: guarded,
          }),
        signal,
      );
    },
    refresh,
    async close() {
      if (closing) return;
      closing = true;
      clearTimeout(debounce);
      const client = session.client;
      const transport = client.transport;
      if (transport instanceof s.StreamableHTTPClientTransport && !lost) {
        await withTimeout(transport.terminateSession(), 2_000, 'terminate timed out').catch(() => {});
      }
      await client.close().catch(() => {});
    },
  };
  return connection;
}
