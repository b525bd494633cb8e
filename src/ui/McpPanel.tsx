/**
 * MCP servers of the session: each server's state (connecting / connected with N tools / needs a
 * sign-in / failed with the reason / disconnected and when it reconnects), the tools it sent that
 * were skipped and why, its log, instructions, prompts (as the slash commands that run them) and
 * resources (as the @mentions that attach them), and controls to add, sign in to, sign out of,
 * reconnect and remove servers. Everything a server sends is shown as text, never as HTML.
 * Standalone: give it the session's McpManager.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { McpManager } from '../mcp/manager.ts';
import { promptCommand } from '../mcp/names.ts';
import type { McpHttpServerConfig, McpServerState } from '../mcp/types.ts';
import './mcp.css';
import { messageOf } from '../core/errors.ts';

const TRANSPORT_LABEL: Record<NonNullable<McpServerState['transport']>, string> = {
  'streamable-http': 'Streamable HTTP',
  sse: 'SSE',
  'in-page': 'in-page',
};

/** The manager's server states, kept in sync with its changes. */
function useMcpServers(manager: McpManager | null | undefined): McpServerState[] {
  const [servers, setServers] = useState<McpServerState[]>(() => manager?.servers() ?? []);
  useEffect(() => {
    if (!manager) {
      setServers([]);
      return;
    }
    setServers(manager.servers());
    return manager.onChange(() => setServers(manager.servers()));
  }, [manager]);
  return servers;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function statusText(s: McpServerState, now: number): string {
  switch (s.status) {
    case 'connecting':
      return 'Connecting…';
    case 'connected': {
      const extras = [
        s.resourceCount ? plural(s.resourceCount, 'resource') : '',
        s.promptCount ? plural(s.promptCount, 'prompt') : '',
      ].filter(Boolean);
      return `Connected · ${plural(s.toolCount, 'tool')}${extras.length ? ` · ${extras.join(' · ')}` : ''}${
        s.transport ? ` · ${TRANSPORT_LABEL[s.transport]}` : ''
      }${s.auth?.signedIn ? ' · signed in' : ''}`;
    }
    case 'needs-auth':
      return 'Needs you to sign in';
    case 'failed':
      return 'Failed';
    case 'disconnected':
      return s.reconnectAt
        ? `Disconnected · reconnecting in ${Math.max(1, Math.round((s.reconnectAt - now) / 1000))} s`
        : 'Disconnected';
  }
}

/** The server's log (notifications/message), newest last, as text. */
function ServerLog({ manager, name }: { manager: McpManager; name: string }) {
  const logs = manager.logs(name);
  if (logs.length === 0) return null;
  return (
    <details className="mcp-details mcp-log" data-testid="mcp-log">
      <summary>{plural(logs.length, 'log message')}</summary>
      <ol>
        {logs.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a log is append-only; entries never move
          <li key={i} className={`mcp-log-${l.level}`}>
            <span className="mcp-log-level">{l.level}</span>
            {l.logger && <span className="mono"> {l.logger}</span>} {l.text}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** What the server offers besides tools: its prompts as slash commands, its resources as @mentions. */
function ServerCatalog({ manager, server }: { manager: McpManager; server: McpServerState }) {
  if (server.status !== 'connected') return null;
  const prompts = server.promptCount ? manager.prompts().filter((p) => p.server === server.name) : [];
  const resources = server.resourceCount ? manager.resources(server.name) : [];
  return (
    <>
      {server.instructions && (
        <details className="mcp-details" data-testid="mcp-instructions">
          <summary>Instructions for the model</summary>
          <p className="mcp-pre">{server.instructions}</p>
        </details>
      )}
      {prompts.length > 0 && (
        <details className="mcp-details" data-testid="mcp-prompts">
          <summary>{plural(prompts.length, 'prompt')} (type the command in the prompt box)</summary>
          <ul>
            {prompts.map((p) => (
              <li key={p.name}>
                <span className="mono">
                  /{promptCommand(p)}
                  {p.arguments.map((a) => (a.required ? ` <${a.name}>` : ` [${a.name}]`)).join('')}
                </span>
                {p.description && ` — ${p.description}`}
              </li>
            ))}
          </ul>
        </details>
      )}
      {resources.length > 0 && (
        <details className="mcp-details" data-testid="mcp-resources">
          <summary>{plural(resources.length, 'resource')} (mention one to attach it)</summary>
          <ul>
            {resources.slice(0, 100).map((r) => (
              <li key={r.uri}>
                <span className="mono">
                  @{server.name}:{r.uri}
                </span>
                {` — ${r.title ?? r.name}`}
                {r.template ? ' (template)' : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

function ServerRow({ server, manager }: { server: McpServerState; manager: McpManager }) {
  const [busy, setBusy] = useState(false);
  const act = (fn: () => Promise<unknown>) => {
    setBusy(true);
    fn().finally(() => setBusy(false));
  };
  const canReconnect = server.status === 'failed' || server.status === 'disconnected';
  const needsAuth = server.status === 'needs-auth';
  const canSignOut = Boolean(server.auth?.signedIn) && !needsAuth;
  return (
    <li
      className={`mcp-server mcp-${server.status}`}
      data-testid="mcp-server"
      data-name={server.name}
      data-status={server.status}
    >
      <div className="mcp-server-head">
        <span className="mcp-dot" aria-hidden="true" />
        <span className="mcp-name">{server.name}</span>
        {server.source !== 'settings' && <span className="mcp-source">{server.source}</span>}
        <span className="mcp-actions">
          {needsAuth && (
            <button
              type="button"
              className="btn btn-small btn-primary mcp-btn"
              data-testid="mcp-sign-in"
              // The sign-in opens its popup inside this click, so the browser allows it.
              onClick={() => act(() => manager.signIn(server.name))}
            >
              Sign in
            </button>
          )}
          {canSignOut && (
            <button
              type="button"
              className="btn btn-small mcp-btn"
              data-testid="mcp-sign-out"
              title="Forget the tokens this page keeps for the server"
              disabled={busy}
              onClick={() => act(() => manager.signOut(server.name))}
            >
              Sign out
            </button>
          )}
          {canReconnect && (
            <button
              type="button"
              className="btn btn-small mcp-btn"
              data-testid="mcp-reconnect"
              disabled={busy}
              onClick={() => act(() => manager.reconnect(server.name))}
            >
              Reconnect
            </button>
          )}
          <button
            type="button"
            className="btn btn-small mcp-btn"
            data-testid="mcp-remove"
            aria-label={`Remove ${server.name}`}
            disabled={busy}
            onClick={() => act(() => manager.removeServer(server.name))}
          >
            Remove
          </button>
        </span>
      </div>
      <div className="mcp-target mono" title={server.target}>
        {server.target}
      </div>
      <div className="mcp-status" data-testid="mcp-status">
        {statusText(server, Date.now())}
      </div>
      {server.error && (
        <div className="mcp-error" data-testid="mcp-error" role="status">
          {server.error}
        </div>
      )}
      {server.auth?.error && (
        <div className="mcp-error" data-testid="mcp-auth-error" role="status">
          {server.auth.error}
        </div>
      )}
      {server.skipped.length > 0 && (
        <details className="mcp-skipped" data-testid="mcp-skipped">
          <summary>
            {server.skipped.length} tool{server.skipped.length === 1 ? '' : 's'} skipped
          </summary>
          <ul>
            {server.skipped.map((t) => (
              <li key={`${t.name}:${t.reason}`}>
                <span className="mono">{t.name}</span> — {t.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ServerCatalog manager={manager} server={server} />
      <ServerLog manager={manager} name={server.name} />
    </li>
  );
}

function AddServerForm({ manager }: { manager: McpManager }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [transport, setTransport] = useState<NonNullable<McpHttpServerConfig['transport']>>('auto');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const config: McpHttpServerConfig = {
      type: 'http',
      name: name.trim(),
      url: url.trim(),
      transport,
      source: 'settings',
    };
    // addServer rejects at once for a bad config; otherwise the row shows the connection's progress.
    manager.addServer(config).catch((err: unknown) => setError(messageOf(err)));
    setName('');
    setUrl('');
  };

  return (
    <form className="mcp-add" onSubmit={submit} data-testid="mcp-add">
      <div className="mcp-add-row">
        <input
          aria-label="Server name"
          placeholder="name"
          className="mcp-add-name"
          data-testid="mcp-add-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <select
          aria-label="Transport"
          data-testid="mcp-add-transport"
          value={transport}
          onChange={(e) => setTransport(e.target.value as typeof transport)}
        >
          <option value="auto">Auto</option>
          <option value="streamable-http">Streamable HTTP</option>
          <option value="sse">SSE</option>
        </select>
      </div>
      <div className="mcp-add-row">
        <input
          aria-label="Server URL"
          placeholder="https://example.com/mcp"
          className="mcp-add-url mono"
          data-testid="mcp-add-url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
        />
        <button type="submit" className="btn btn-small" data-testid="mcp-add-submit">
          Add
        </button>
      </div>
      {error && (
        <div className="mcp-error" data-testid="mcp-add-error" role="alert">
          {error}
        </div>
      )}
      <div className="mcp-help muted">
        The page talks to the server directly, so the server must answer CORS requests from this origin.
        Servers that use OAuth show "Sign in"; their tokens stay in this browser, per server, and never go
        into a session export.
      </div>
    </form>
  );
}

export function McpPanel({ manager }: { manager: McpManager | null | undefined }) {
  const servers = useMcpServers(manager);
  const connected = servers.filter((s) => s.status === 'connected');
  const tools = connected.reduce((n, s) => n + s.toolCount, 0);
  return (
    <div className="panel-body mcp-panel" data-testid="mcp-panel">
      <div className="panel-head">
        <span className="panel-title">MCP servers</span>
        <span className="muted panel-count" data-testid="mcp-summary">
          {connected.length}/{servers.length} connected · {tools} tool{tools === 1 ? '' : 's'}
        </span>
      </div>
      {!manager ? (
        <div className="panel-empty muted">MCP is not available in this session.</div>
      ) : (
        <>
          {servers.length === 0 ? (
            <div className="panel-empty muted">
              No MCP servers yet. Add one by URL; its tools become available to the agent at the next turn.
            </div>
          ) : (
            <ul className="mcp-list">
              {servers.map((s) => (
                <ServerRow key={s.name} server={s} manager={manager} />
              ))}
            </ul>
          )}
          <AddServerForm manager={manager} />
        </>
      )}
    </div>
  );
}
