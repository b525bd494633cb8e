/**
 * McpPanel renders each server's real state: a manager connected to real servers (in memory and over
 * HTTP on loopback), a dead one and a broken one, rendered with react-dom/server.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createManyToolsServer } from '../../e2e/mcp/many-tools-server.ts';
import { headlessAuthorizer, type OAuthServer, startOAuthServer } from '../../e2e/mcp/oauth-server.ts';
import { createQuirkyServer } from '../../e2e/mcp/quirky-server.ts';
import { createRichServer, PROFILE_SCHEMA } from '../../e2e/mcp/rich-server.ts';
import { createToolUseContext } from '../core/context.ts';
import { elicitationFields } from '../mcp/elicitation.ts';
import { inPageServer } from '../mcp/in-page.ts';
import { createMcpManager, type McpManager } from '../mcp/manager.ts';
import { createMemoryAuthStore } from '../mcp/oauth/store.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { McpPanel } from './McpPanel.tsx';
import { ElicitationForm, SamplingRequest } from './McpRequests.tsx';

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

describe('McpPanel: sign-in, logs, prompts, resources', () => {
  let rich: McpHttpHost;
  let oauth: OAuthServer;
  let m: McpManager;

  beforeAll(async () => {
    const server = createRichServer();
    rich = await startMcpHttpHost({ createServer: () => server.createServer() });
    const secured = createRichServer();
    oauth = await startOAuthServer({ createServer: () => secured.createServer() });
    m = createMcpManager({
      auth: {
        store: createMemoryAuthStore(),
        redirectUrl: 'http://localhost/mcp-oauth-callback.html',
        authorizer: headlessAuthorizer({ automatic: false }),
      },
    });
    await m.addServer({ type: 'http', name: 'rich', url: rich.url });
    await m.addServer({ type: 'http', name: 'secure', url: oauth.mcpUrl });
    const tool = m.tools().find((t) => t.name === 'mcp__rich__log_some');
    const sandbox = await createJustBashSandbox({ files: {} });
    await tool?.call({}, { ...createToolUseContext({ sandbox }), abortController: new AbortController() });
    // The log notifications arrive on the session's stream, right after the call.
    for (let i = 0; i < 50 && m.logs('rich').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
  });

  afterAll(async () => {
    await m?.dispose();
    await Promise.all([rich?.close(), oauth?.close()]);
  });

  it('a server that needs OAuth shows "Sign in"; once signed in, "Sign out"', async () => {
    const before = row(render(m), 'secure');
    expect(before).toContain('data-status="needs-auth"');
    expect(before).toContain('Needs you to sign in');
    expect(before).toContain('data-testid="mcp-sign-in"');
    expect(before).not.toContain('data-testid="mcp-sign-out"');
    await m.signIn('secure');
    const after = row(render(m), 'secure');
    expect(after).toContain('data-status="connected"');
    expect(after).toContain('· signed in');
    expect(after).toContain('data-testid="mcp-sign-out"');
    expect(after).not.toContain('data-testid="mcp-sign-in"');
  });

  it('shows the log, instructions, prompts as commands and resources as mentions — as text, never HTML', () => {
    const html = row(render(m), 'rich');
    expect(html).toContain('Connected · 14 tools · 4 resources · 1 prompt · Streamable HTTP');
    expect(html).toContain('2 log messages');
    expect(html).toContain('starting &lt;b&gt;work&lt;/b&gt;');
    expect(html).toContain('{&quot;failed&quot;:&quot;&lt;img src=x onerror=alert(1)&gt;&quot;}');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>work');
    expect(html).toContain('Instructions for the model');
    expect(html).toContain('/mcp__rich__review &lt;file&gt; [tone]</span> — Reviews a file.');
    expect(html).toContain('@rich:memo://notes/1</span> — First note');
    expect(html).toContain('@rich:memo://notes/{id}</span> — note (template)');
  });
});

describe('McpRequests', () => {
  it('renders a form with the defaults filled in, and a sampling request to approve', () => {
    const fields = elicitationFields(PROFILE_SCHEMA) ?? [];
    const html = renderToStaticMarkup(
      createElement(ElicitationForm, {
        ask: {
          id: 'a',
          kind: 'elicitation',
          server: 'rich',
          message: 'Who are <you>?',
          fields,
          createdAt: 0,
        },
        onAnswer: () => {},
      }),
    );
    expect(html).toContain('Who are &lt;you&gt;?');
    expect(html).toMatch(/<input id="[^"]+-name" type="text" value="Ada"\/>/);
    expect(html).toMatch(/type="number" step="1" min="0" max="150" value="36"/);
    expect(html).toMatch(/<option value="free" selected="">Free<\/option>/);
    expect(html).toMatch(/type="checkbox" checked=""/);
    expect(html).toContain('Your name<span aria-hidden="true"> *</span>');
    for (const b of ['accept', 'decline', 'cancel'])
      expect(html).toContain(`data-testid="mcp-elicitation-${b}"`);

    const sampling = renderToStaticMarkup(
      createElement(SamplingRequest, {
        ask: {
          id: 's',
          kind: 'sampling',
          server: 'rich',
          summary: { messages: [{ role: 'user', text: 'Say <b>hi</b>' }], maxTokens: 50 },
          createdAt: 0,
        },
        onAnswer: () => {},
      }),
    );
    expect(sampling).toContain('up to 50 tokens, billed to your key');
    expect(sampling).toContain('<b>user:</b> Say &lt;b&gt;hi&lt;/b&gt;');
    expect(sampling).toContain('data-testid="mcp-sampling-approve"');
  });
});
