/**
 * What servers ask of the client and what they offer besides tools, through the real manager and SDK
 * client against a real server over HTTP on loopback (e2e/mcp/rich-server.ts): capabilities declared
 * only when tabcode can honour them, elicitation forms answered (accept with defaults, decline,
 * cancel), sampling only after the user approves each request, roots, resources and templates,
 * prompts, and the user's `/prompt` commands and `@server:uri` mentions expanded.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { TINY_PNG } from '../../e2e/mcp/quirky-server.ts';
import { createRichServer, type RichServer } from '../../e2e/mcp/rich-server.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { clientCapabilities } from './connection.ts';
import { elicitationContent, initialValues } from './elicitation.ts';
import { createMcpManager, type McpManager, type McpManagerOptions } from './manager.ts';
import { expandPrompt } from './prompts.ts';

let ctx: ToolUseContext;
let rich: RichServer;
let h: McpHttpHost;
const managers: McpManager[] = [];

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  rich = createRichServer();
  h = await startMcpHttpHost({ createServer: () => rich.createServer() });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(async () => {
  await h?.close();
});

async function connected(
  options: McpManagerOptions = {},
  setup?: (m: McpManager) => void,
): Promise<McpManager> {
  const m = createMcpManager(options);
  managers.push(m);
  setup?.(m);
  const state = await m.addServer({ type: 'http', name: 'rich', url: h.url });
  expect(state.status).toBe('connected');
  return m;
}

async function call(m: McpManager, name: string): Promise<string> {
  const tool = m.tools().find((t) => t.name === `mcp__rich__${name}`);
  if (!tool) throw new Error(`no ${name}`);
  const out = await tool.call(
    {},
    { ...ctx, abortController: new AbortController(), toolUseId: `toolu_${name}` },
  );
  const block = tool.mapToolResultToToolResultBlockParam(out.data, 't');
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
}

/** Answers the next pending interaction with `answer(kind)`. */
function answerNext(
  m: McpManager,
  answer: (i: ReturnType<McpManager['interactions']>[number]) => Parameters<McpManager['answer']>[1],
) {
  const off = m.onChange(() => {
    const next = m.interactions()[0];
    if (!next) return;
    off();
    m.answer(next.id, answer(next));
  });
}

describe('client capabilities', () => {
  it('declares only what tabcode can do', () => {
    expect(clientCapabilities(undefined)).toEqual({});
    expect(clientCapabilities({ elicit: async () => ({ action: 'cancel' }), roots: () => [] })).toEqual({
      elicitation: { form: { applyDefaults: true } },
      roots: {},
    });
  });
});

describe('elicitation', () => {
  it('shows the form with defaults next to the call that asked; accept sends the checked content', async () => {
    let seen: ReturnType<McpManager['interactions']> = [];
    const m = await connected();
    answerNext(m, (ask) => {
      seen = m.interactions();
      if (ask.kind !== 'elicitation') throw new Error('expected a form');
      const values = { ...initialValues(ask.fields), email: 'ada@example.com' };
      const out = elicitationContent(ask.fields, values);
      if (!('content' in out)) throw new Error(JSON.stringify(out));
      return { action: 'accept', content: out.content };
    });
    const result = await call(m, 'ask_profile');
    expect(seen).toMatchObject([
      { kind: 'elicitation', server: 'rich', message: 'Who are you?', toolUseId: 'toolu_ask_profile' },
    ]);
    expect(JSON.parse(result.replace(/^elicitation: /, ''))).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, email: 'ada@example.com', plan: 'free', subscribe: true },
    });
    expect(m.interactions()).toEqual([]);
  });

  it('decline and cancel reach the server as such', async () => {
    const m = await connected();
    answerNext(m, () => ({ action: 'decline' }));
    expect(await call(m, 'ask_profile')).toBe('elicitation: {"action":"decline"}');
    answerNext(m, () => ({ action: 'cancel' }));
    expect(await call(m, 'ask_profile')).toBe('elicitation: {"action":"cancel"}');
  });

  it('without elicitation the capability is not declared and the request is refused', async () => {
    const m = await connected({ elicitation: false });
    await expect(call(m, 'ask_profile')).rejects.toThrow(/Method not found/);
    expect(m.interactions()).toEqual([]);
  });
});

describe('sampling and roots', () => {
  it('sampling is not offered without a model, and runs only after the user approves each request', async () => {
    const none = await connected();
    await expect(call(none, 'ask_model')).rejects.toThrow(/Method not found/);

    const runs: unknown[] = [];
    const m = await connected({}, (mm) =>
      mm.setSampler(async (params) => {
        runs.push(params);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'hi!' },
          model: 'claude-test',
          stopReason: 'endTurn',
        };
      }),
    );
    answerNext(m, () => ({ action: 'decline' }));
    await expect(call(m, 'ask_model')).rejects.toThrow(/The user declined the sampling request/);
    expect(runs).toEqual([]);
    let summary: unknown;
    answerNext(m, (ask) => {
      summary = ask.kind === 'sampling' ? ask.summary : undefined;
      return { action: 'approve' };
    });
    expect(await call(m, 'ask_model')).toBe('model said: {"type":"text","text":"hi!"}');
    expect(summary).toEqual({ messages: [{ role: 'user', text: 'Say hi' }], maxTokens: 50 });
    expect(runs).toHaveLength(1);
  });

  it('roots are the workspace', async () => {
    const m = await connected();
    expect(await call(m, 'list_roots')).toBe('[{"uri":"file:///home/user/project","name":"project"}]');
  });
});

describe('resources and prompts', () => {
  it('lists resources and templates, reads them, and links in results say how to open them', async () => {
    const m = await connected();
    expect(m.server('rich')).toMatchObject({ resourceCount: 4, promptCount: 1 });
    expect(m.resources().map((r) => [r.uri, r.mimeType, r.template ?? false])).toEqual([
      ['memo://notes/1', 'text/markdown', false],
      ['memo://logo.png', 'image/png', false],
      ['memo://data.bin', 'application/octet-stream', false],
      ['memo://notes/{id}', undefined, true],
    ]);
    expect(await m.readResource('rich', 'memo://notes/7')).toEqual({
      contents: [{ uri: 'memo://notes/7', mimeType: 'text/markdown', text: '# Note 7' }],
    });
    await expect(m.readResource('nope', 'x')).rejects.toThrow('There is no MCP server named "nope".');
    expect(await call(m, 'make_link')).toBe(
      '[Resource link: note-1 <memo://notes/1> (text/markdown)]\nThe first note\nRead it with ReadMcpResource {"server": "rich", "uri": "memo://notes/1"}.',
    );
    expect(m.prompts()).toEqual([
      {
        server: 'rich',
        name: 'review',
        description: 'Reviews a file.',
        arguments: [
          { name: 'file', description: 'The file', required: true },
          { name: 'tone', description: 'How to say it', required: false },
        ],
      },
    ]);
  });

  it('expands /mcp__server__prompt commands and @server:uri mentions in what the user sends', async () => {
    const m = await connected();
    const prompt = await expandPrompt(m, '/mcp__rich__review src/app.ts a "very kind" tone');
    expect(prompt.expansions).toEqual(['prompt rich/review']);
    expect(prompt.content).toEqual([
      { type: 'text', text: 'Review src/app.ts in a a very kind tone tone.' },
      { type: 'text', text: '[Resource memo://notes/1 (text/markdown)]\n# Note 1\nBuy milk.' },
    ]);
    const named = await expandPrompt(m, '/mcp__rich__review tone=dry file=README.md');
    expect(named.content[0]).toEqual({ type: 'text', text: 'Review README.md in a dry tone.' });
    await expect(expandPrompt(m, '/mcp__rich__review')).rejects.toThrow(
      '/mcp__rich__review needs file. Usage: /mcp__rich__review <file> [tone]',
    );
    await expect(expandPrompt(m, '/mcp__rich__nope x')).rejects.toThrow(
      'There is no MCP prompt /mcp__rich__nope. Prompts: /mcp__rich__review.',
    );

    const mention = await expandPrompt(
      m,
      'Compare @rich:memo://notes/1 with @rich:memo://logo.png, ignore @nobody:x and @rich:memo://missing.',
    );
    expect(mention.expansions).toEqual(['@rich:memo://notes/1', '@rich:memo://logo.png']);
    expect(mention.content).toEqual([
      {
        type: 'text',
        text: 'Compare @rich:memo://notes/1 with @rich:memo://logo.png, ignore @nobody:x and @rich:memo://missing.',
      },
      { type: 'text', text: '<mcp-resource server="rich" uri="memo://notes/1">' },
      { type: 'text', text: '[Resource memo://notes/1 (text/markdown)]\n# Note 1\nBuy milk.' },
      { type: 'text', text: '</mcp-resource>' },
      { type: 'text', text: '<mcp-resource server="rich" uri="memo://logo.png">' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG } },
      { type: 'text', text: '</mcp-resource>' },
      {
        type: 'text',
        text: expect.stringMatching(
          /^\[Could not read @rich:memo:\/\/missing: .*no resource memo:\/\/missing/,
        ),
      },
    ]);
    const plain = await expandPrompt(m, 'just text, an email a@b.c and @rich without a uri');
    expect(plain).toEqual({
      content: [{ type: 'text', text: 'just text, an email a@b.c and @rich without a uri' }],
      expansions: [],
    });
  });

  it('resources/list_changed refetches the list', async () => {
    const m = await connected();
    const before = m.resources().length;
    expect(await call(m, 'add_note')).toMatch(/^note \d+ added$/);
    await expect.poll(() => m.resources().length).toBe(before + 1);
    expect(m.server('rich')?.resourceCount).toBe(before + 1);
  });
});
