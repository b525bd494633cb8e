/**
 * The prompt box's page commands on a real agent session (real SDK, the mock Messages API, the just-bash
 * sandbox): every built-in command runs in the page and sends nothing to the model as text; /init, a
 * project command and an unknown one before the list is known go to the agent; `!` lines run in the
 * sandbox. The page's callbacks (open a panel, a file, a session) are recorded as the page would see them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockApi, type RecordedRequest, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import type { SessionMeta } from '../agent/sessions-store.ts';
import { INIT_PROMPT } from '../agent/slash/builtins.ts';
import type { SlashCommandInfo } from '../agent/slash/types.ts';
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import { createMemoryStore } from '../core/storage.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { type PageCommandDeps, runPageCommand } from './slash-actions.ts';
import { contextUsed, initialUsage, reduceUsage, type UsageState } from './usage-state.ts';

const WINDOW = 120_000;
let api: MockApi;
let agent: AgentSession;
let usage: UsageState;
let commands: SlashCommandInfo[];
let window: ContextWindow;
/** What the page was asked to do, in order: `output:<text>`, `tab:rules`, `file:CLAUDE.md`, … */
let calls: string[];
let outputs: { input: string; text: string; tone?: string }[];

beforeAll(async () => {
  api = await startMockApi({ contextWindow: WINDOW });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  const sandbox = await createJustBashSandbox({
    files: {
      'CLAUDE.md': '# Rules\nUse tabs.\n',
      '.claude/commands/greet.md': '---\ndescription: Greet someone\n---\nGreet $ARGUMENTS warmly.\n',
    },
  });
  agent = await createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, model: 'claude-sonnet-4-6', permissionMode: 'default' },
    sandbox,
    mcp: null,
    permissions: { storage: null },
    storage: { session: createMemoryStore(), results: createMemoryStore() },
  });
  usage = initialUsage;
  agent.subscribe((e: SessionEvent) => {
    usage = reduceUsage(usage, e);
  });
  commands = (await agent.listCommands?.()) ?? [];
  window = (await agent.contextWindow?.()) as ContextWindow;
  calls = [];
  outputs = [];
});

const sessions: SessionMeta[] = [
  { id: 's-1', title: 'Fix the login form', createdAt: 1, updatedAt: 2, messageCount: 4 },
];

function deps(overrides: Partial<PageCommandDeps> = {}): PageCommandDeps {
  return {
    agent,
    output: (input, text, tone) => {
      outputs.push({ input, text, ...(tone ? { tone } : {}) });
      calls.push(`output:${input}`);
    },
    commands,
    requests: usage.requests,
    contextUsed: contextUsed(usage),
    window,
    newSession: async () => void calls.push('new-session'),
    setModel: (m) => {
      calls.push(`model:${m}`);
      agent.updateSettings({ model: m });
    },
    showTab: (t) => void calls.push(`tab:${t}`),
    openFile: (p) => void calls.push(`file:${p}`),
    openSessions: () => void calls.push('sessions'),
    sessions,
    switchSession: async (id) => void calls.push(`switch:${id}`),
    exportCurrent: async () => void calls.push('export'),
    ...overrides,
  };
}

/** Runs a line in the page and waits until the page was told `count` more things. */
async function page(line: string, count = 1): Promise<string> {
  const before = calls.length;
  expect(runPageCommand(line, deps())).toBe(true);
  await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(before + count));
  return outputs.at(-1)?.text ?? '';
}

/** The Messages API requests (the mock records only those; the models list is not one). */
const messageRequests = () => api.requests;
const userTexts = (r: RecordedRequest) => JSON.stringify(r.body.messages);

describe('page commands', () => {
  it('run in the page and send nothing to the model', async () => {
    expect(await page('/help')).toContain('`/compact [instructions]`');
    expect(outputs.at(-1)?.text).toContain('`/greet` | Greet someone (project: .claude/commands/greet.md)');
    expect(await page('/cost')).toContain('0 requests');
    expect(await page('/context')).toContain(
      `Nothing has been sent yet. The context window of this model is ${WINDOW.toLocaleString('en-US')} tokens.`,
    );
    expect(await page('/permissions', 2)).toContain('Permissions panel');
    expect(calls).toContain('tab:rules');
    expect(await page('/mcp', 2)).toContain('No MCP servers yet');
    expect(calls).toContain('tab:mcp');
    expect(await page('/memory', 2)).toContain('Project memory: `CLAUDE.md`');
    expect(calls).toContain('file:CLAUDE.md');
    expect(await page('/model')).toContain('Current model: `claude-sonnet-4-6`');
    expect(outputs.at(-1)?.text).toContain('- `claude-opus-4-6`');
    expect(await page('/model claude-haiku-4-5', 2)).toContain('Model set to `claude-haiku-4-5`');
    expect(agent.settings().model).toBe('claude-haiku-4-5');
    // A title that matches switches to that session, with no output.
    await page('/resume login');
    expect(calls.at(-1)).toBe('switch:s-1');
    expect(await page('/resume nothing-like-it')).toContain('No session\'s title contains "nothing-like-it"');
    await page('/resume', 2);
    expect(calls).toContain('sessions');
    expect(await page('/export', 2)).toContain('downloaded');
    expect(calls).toContain('export');
    await page('/clear');
    expect(calls).toContain('new-session');
    expect(await page('/compcat')).toBe(
      'Unknown command /compcat: nothing was sent. Did you mean /compact? Type /help for the commands.',
    );
    expect(outputs.at(-1)?.tone).toBe('error');
    // Not one Messages API request (the models list was read for /model).
    expect(messageRequests()).toHaveLength(0);
  });

  it('/compact on an empty session says so and sends nothing', async () => {
    const failed = new Promise<SessionEvent>((resolve) =>
      agent.subscribe((e) => e.type === 'compaction-failed' && resolve(e)),
    );
    expect(runPageCommand('/compact', deps())).toBe(true);
    const e = await failed;
    expect(e.type === 'compaction-failed' && e.error.message).toContain('nothing to compact');
    expect(messageRequests()).toHaveLength(0);
  });

  it('/context and /cost report the last request; /compact summarizes it', async () => {
    api.script([
      { content: [{ type: 'text', text: 'Hello!' }] },
      { content: [{ type: 'text', text: '<summary>They said hello.</summary>' }] },
    ]);
    await agent.send('hello');
    const report = await page('/context');
    expect(report).toMatch(/\*\*Context: [\d,]+ of 120,000 tokens \(\d+%\)\*\*/);
    for (const part of ['| Tools |', '| System prompt |', '| Messages |', '| Free |'])
      expect(report).toContain(part);
    expect(await page('/cost')).toMatch(/^1 request: /);
    const ended = new Promise<void>((resolve) =>
      agent.subscribe((e) => e.type === 'compaction-end' && resolve()),
    );
    expect(runPageCommand('/compact only the greeting', deps())).toBe(true);
    await ended;
    const sent = messageRequests();
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[1].body.messages.at(-1))).toContain('only the greeting');
    for (const r of sent) expect(userTexts(r)).not.toContain('/compact');
  });
});

describe('what goes to the agent', () => {
  it('/init, a project command and a plain prompt go to the agent, which expands them', async () => {
    expect(runPageCommand('/init', deps())).toBe(false);
    expect(runPageCommand('/greet Ada', deps())).toBe(false);
    expect(runPageCommand('/src/app.ts is broken', deps())).toBe(false);
    // Before the command list is known, an unknown name goes to the agent, which refuses it.
    expect(runPageCommand('/nope', deps({ commands: [] }))).toBe(false);
    api.script([
      { content: [{ type: 'text', text: 'Written.' }] },
      { content: [{ type: 'text', text: 'Hi Ada!' }] },
    ]);
    await agent.send('/init');
    await agent.send('/greet Ada');
    const refused = new Promise<SessionEvent>((resolve) =>
      agent.subscribe((e) => e.type === 'prompt-refused' && resolve(e)),
    );
    await agent.send('/nope');
    const e = await refused;
    expect(e.type === 'prompt-refused' && e.reason).toContain('Unknown command /nope');
    const sent = messageRequests();
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[0].body.messages.at(-1))).toContain(INIT_PROMPT.slice(0, 60));
    expect(JSON.stringify(sent[1].body.messages.at(-1))).toContain('Greet Ada warmly.');
    for (const r of sent) expect(userTexts(r)).not.toMatch(/"text":"\/(init|greet|nope)/);
  });

  it('a ! line runs in the sandbox and its output joins the next prompt', async () => {
    const done = new Promise<SessionEvent>((resolve) =>
      agent.subscribe((e) => e.type === 'shell-end' && resolve(e)),
    );
    expect(runPageCommand('!echo from-the-shell', deps())).toBe(true);
    const e = await done;
    expect(e.type === 'shell-end' && e.run.stdout).toBe('from-the-shell\n');
    expect(messageRequests()).toHaveLength(0);
    api.script([{ content: [{ type: 'text', text: 'Seen.' }] }]);
    await agent.send('what did it print?');
    expect(JSON.stringify(messageRequests()[0].body.messages.at(-1))).toContain('from-the-shell');
  });
});
