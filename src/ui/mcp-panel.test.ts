/**
 * McpPanel renders each server's real state: a manager connected to real servers (in memory and over
 * HTTP on loopback), a dead one and a broken one, rendered with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createManyToolsServer } from '../../e2e/mcp/many-tools-server.ts';
import { createQuirkyServer } from '../../e2e/mcp/quirky-server.ts';
import { inPageServer } from '../mcp/in-page.ts';
import { createMcpManager, type McpManager } from '../mcp/manager.ts';
import { McpPanel } from './McpPanel.tsx';

let manager: McpManager;
let quirkyHost: McpHttpHost;

beforeAll(async () => {
  const quirky = createQuirkyServer();
  quirkyHost = await startMcpHttpHost({ createServer: () => quirky.createServer() });
  const many = createManyToolsServer();
  manager = createMcpManager();
  await Promise.all([
    manager.addServer(inPageServer('many', (t) => many.createServer().connect(t))),
    manager.addServer({ type: 'http', name: 'quirky', url: quirkyHost.url }),
    manager.addServer({ type: 'http', name: 'dead', url: 'http://127.0.0.1:9/mcp' }),
  ]);
});

afterAll(async () => {
  await manager?.dispose();
  await quirkyHost?.close();
});

const render = (m: McpManager | null) => renderToStaticMarkup(createElement(McpPanel, { manager: m }));

/** The markup of one server's row. */
function row(html: string, name: string): string {
  const start = html.indexOf(`data-name="${name}"`);
  expect(start, `row ${name}`).toBeGreaterThan(-1);
  const end = html.indexOf('data-testid="mcp-server"', start + 1);
  return html.slice(start, end === -1 ? undefined : end);
}

describe('McpPanel', () => {
  it('shows connected servers with their tool counts, failures with reasons, skipped tools', () => {
    const html = render(manager);
    expect(html).toContain('data-testid="mcp-summary">2/3 connected · 248 tools');

    const many = row(html, 'many');
    expect(many).toContain('data-status="connected"');
    expect(many).toContain('Connected · 240 tools · in-page');
    expect(many).toContain('class="mcp-source">host');

    const quirky = row(html, 'quirky');
    expect(quirky).toContain('Connected · 8 tools · Streamable HTTP');
    expect(quirky).toContain('7 tools skipped');
    expect(quirky).toContain('string_schema</span> — Skipped: its inputSchema must have type');
    expect(quirky).not.toContain('data-testid="mcp-reconnect"');

    const dead = row(html, 'dead');
    expect(dead).toContain('data-status="failed"');
    expect(dead).toContain('Could not reach http://127.0.0.1:9/mcp');
    expect(dead).toContain('data-testid="mcp-reconnect"');
    expect(html.match(/data-testid="mcp-remove"/g)).toHaveLength(3);
    expect(html).toContain('data-testid="mcp-add-url"');
  });

  it('explains the empty and unavailable cases', () => {
    const empty = createMcpManager();
    expect(render(empty)).toContain('No MCP servers yet.');
    expect(render(empty)).toContain('0/0 connected · 0 tools');
    expect(render(null)).toContain('MCP is not available in this session.');
    void empty.dispose();
  });
});
