/**
 * MCP servers of the session: each server's state (connecting / connected with N tools / failed with
 * the reason / disconnected), the tools it sent that were skipped and why, and controls to add,
 * reconnect and remove servers. Standalone: give it the session's McpManager.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { McpManager } from '../mcp/manager.ts';
import type { McpHttpServerConfig, McpServerState } from '../mcp/types.ts';
import './mcp.css';

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

function statusText(s: McpServerState): string {
  switch (s.status) {
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return `Connected · ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}${
        s.transport ? ` · ${TRANSPORT_LABEL[s.transport]}` : ''
      }`;
    case 'failed':
      return 'Failed';
    case 'disconnected':
      return 'Disconnected';
  }
}

function ServerRow({ server, manager }: { server: McpServerState; manager: McpManager }) {
  const [busy, setBusy] = useState(false);
  const act = (fn: () => Promise<unknown>) => {
    setBusy(true);
    fn().finally(() => setBusy(false));
  };
  const canReconnect = server.status === 'failed' || server.status === 'disconnected';
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
        {statusText(server)}
      </div>
      {server.error && (
        <div className="mcp-error" data-testid="mcp-error" role="status">
          {server.error}
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
    manager
      .addServer(config)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
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
