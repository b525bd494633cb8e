/**
 * One server of the McpManager (its entry: config, state, live connection, sign-in and reconnect
 * bookkeeping) and the waits around it: for the next change of a server, for the user to sign in,
 * and the union of every entry's tools.
 */
import { MCP_TOOL_TIMEOUT_MS } from '../core/constants.ts';
import { messageOf } from '../core/errors.ts';
import type { AnyTool } from '../core/tool.ts';
import type { AdaptedTools, McpCallFn } from './adapter.ts';
import type { McpConnection } from './connection.ts';
import type { McpChange } from './manager-api.ts';
import { checkAuthorizationResponse, exchangeCode } from './oauth/flow.ts';
import { BrowserOAuthProvider, type McpAuthEnv, nonInteractiveProvider } from './oauth/provider.ts';
import type { McpLogEntry, McpServerConfig, McpServerState } from './types.ts';

export interface Entry {
  config: McpServerConfig;
  state: McpServerState;
  connection?: McpConnection;
  /** Bumped on every (re)connect and on removal, so a stale connect result is dropped. */
  generation: number;
  provider?: BrowserOAuthProvider;
  logs: McpLogEntry[];
  /** The last tools adapted, kept across reconnects when the server lists the same tools. */
  tools?: { hash: string; adapted: AdaptedTools };
  reconnectTimer?: ReturnType<typeof setTimeout>;
  reconnectAttempts: number;
  /** A connect under way (calls wait for it). */
  connecting?: Promise<McpServerState>;
  /** Instructions text last handed to the model. */
  announced?: string;
  /** Resolvers of calls waiting for the user to sign in. */
  signInWaiters: Set<(err?: Error) => void>;
  call: McpCallFn;
}

/**
 * True while a server that dropped is being reconnected without the user (a backoff step is pending, or
 * an automatic attempt is under way). False once it is connected, gave up, failed or needs a sign-in.
 */
export function recovering(e: Entry): boolean {
  if (e.reconnectAttempts === 0) return false;
  if (e.state.status === 'connecting') return true;
  return e.state.status === 'disconnected' && e.state.reconnectAt !== undefined;
}

/**
 * The union of the usable tools of `entries`, sorted by name: `previous` itself when nothing changed
 * (the same array, the same Tool objects), else a new frozen array.
 */
export function unionTools(entries: Iterable<Entry>, previous: readonly AnyTool[]): readonly AnyTool[] {
  const next: AnyTool[] = [];
  for (const e of entries) {
    // A live connection waiting for a new sign-in (step-up) keeps its tools: calls wait for the sign-in.
    const live = e.state.status === 'connected' || e.state.status === 'needs-auth';
    if (live && e.connection) for (const t of e.connection.adapted.tools) next.push(t);
    // A server being reconnected after a drop keeps its last tools on offer: a call waits for the
    // reconnect, and the tools block (and the prompt cache) does not change while it restarts.
    else if (recovering(e) && e.tools) for (const t of e.tools.adapted.tools) next.push(t);
  }
  next.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const same = next.length === previous.length && next.every((t, i) => t === previous[i]);
  return same ? previous : Object.freeze(next);
}

/**
 * Resolves at the next change of server `name` heard by `listeners` (its state, tools or log), when
 * `ms` pass, or when `signal` aborts, whichever comes first. Never rejects; leaves no timer or listener
 * behind.
 */
export function nextChange(
  listeners: Set<(change: McpChange) => void>,
  name: string,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const listener = (change: McpChange) => {
      if (change.server === name) done();
    };
    function done() {
      clearTimeout(timer);
      listeners.delete(listener);
      signal.removeEventListener('abort', done);
      resolve();
    }
    listeners.add(listener);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Waits for the user to sign in (mid-session sign-in); rejects after the tool timeout or on abort. */
export function waitForSignIn(entry: Entry, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timeoutMs = entry.config.toolTimeoutMs ?? MCP_TOOL_TIMEOUT_MS;
    const done = (err?: Error) => {
      clearTimeout(timer);
      entry.signInWaiters.delete(done);
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        done(
          new Error(
            `Nobody signed in to the MCP server ${entry.state.name} within ${Math.round(timeoutMs / 1000)} s.`,
          ),
        ),
      timeoutMs,
    );
    signal?.addEventListener('abort', () => done(new Error('The call was interrupted.')), { once: true });
    entry.signInWaiters.add(done);
  });
}

/** Ends every wait for a sign-in of `entry`: resolved, or rejected with `err`. */
export function settleWaiters(entry: Entry, err?: Error): void {
  for (const w of [...entry.signInWaiters]) w(err);
}

/** The OAuth client of an HTTP entry (made once per config, kept across reconnects). */
export async function providerFor(entry: Entry, authEnv: McpAuthEnv) {
  const config = entry.config;
  if (config.type !== 'http') return undefined;
  const grant = config.oauth?.grant ?? 'authorization_code';
  if (grant !== 'authorization_code') return nonInteractiveProvider(config.url, config.oauth ?? {}, fetch);
  if (!entry.provider) entry.provider = new BrowserOAuthProvider(config.url, config.oauth ?? {}, authEnv);
  const provider = entry.provider;
  await provider.load();
  // Back from a full-page sign-in: finish it before connecting (a new attempt would start a new one).
  const answer = authEnv.authorizer?.pendingResponse?.(provider.expectedState());
  if (answer) {
    try {
      await exchangeCode(provider, checkAuthorizationResponse(answer, provider.expectedState()));
    } catch (err) {
      entry.state = { ...entry.state, auth: { signedIn: false, error: messageOf(err) } };
    }
  }
  return provider;
}

/** The `auth` part of the state of `entry` (HTTP servers with an OAuth client). */
export function authState(entry: Entry, error?: string): Pick<McpServerState, 'auth'> {
  return entry.provider
    ? { auth: { signedIn: entry.provider.hasTokens(), ...(error ? { error } : {}) } }
    : {};
}
