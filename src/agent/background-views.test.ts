/**
 * Background commands' cards follow them: a real session (the real SDK against the mock Messages API,
 * the just-bash sandbox) starts commands with Bash run_in_background, and the `tool-view` events it emits
 * carry what they print and how they end, for the main conversation and a sub-agent's, and only for the
 * conversation the session holds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import type { ToolResultView } from '../core/tool.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { createInProcessSandboxWorker } from '../sandbox/worker/in-process.ts';
import { createWorkerSandbox } from '../sandbox/worker-sandbox.ts';
import { BACKGROUND_SHOWN_CHARS, followBackgroundViews } from './background-views.ts';
import { createAgentSession } from './session.ts';
import type { AgentSession, SessionEvent } from './types.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

type Terminal = Extract<ToolResultView, { kind: 'terminal' }>;
/** A tool-view event, with the sub-agent cards it goes through (their tool_use ids). */
type Seen = { toolUseId: string; view: Terminal; through: string[] };

async function session(): Promise<{ agent: AgentSession; views: Seen[] }> {
  const agent = await createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test', permissionMode: 'bypassPermissions' },
    sandbox: await createJustBashSandbox(),
    mcp: null,
  });
  const views: Seen[] = [];
  agent.subscribe((e) => {
    const through: string[] = [];
    let inner: SessionEvent = e;
    while (inner.type === 'subagent-event') {
      through.push(inner.toolUseId);
      inner = inner.event;
    }
    if (inner.type === 'tool-view' && inner.view.kind === 'terminal')
      views.push({ toolUseId: inner.toolUseId, view: inner.view, through });
  });
  return { agent, views };
}

const background = (id: string, command: string) => ({
  type: 'tool_use' as const,
  id,
  name: 'Bash',
  input: { command, run_in_background: true },
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('background command cards', () => {
  it('get the output as it comes and the end, capped to the end of the output', async () => {
    const { agent, views } = await session();
    const big = 'i=0; while [ $i -lt 4000 ]; do echo 123456789; i=$((i+1)); done';
    api.script([
      {
        content: [
          background('toolu_a', 'echo one; sleep 0.4; echo two; exit 3'),
          background('toolu_big', big),
        ],
      },
      { content: [{ type: 'text', text: 'Started.' }] },
    ]);
    await agent.send('start them');
    const last = (id: string) => views.filter((v) => v.toolUseId === id).at(-1)?.view;
    await until(() => last('toolu_a')?.running === undefined && last('toolu_a') !== undefined, 'the end');
    const a = views.filter((v) => v.toolUseId === 'toolu_a').map((v) => v.view);
    // While it ran: what it had printed, and that it runs.
    const first = a[0];
    expect(first.running).toBe(true);
    expect(first.state).toMatch(/^running in the background \(bg-\d+-\w+\)$/);
    expect(first.stdout).toBe('one\n');
    // Its end: everything, the exit code, no state line (the card shows the exit code).
    expect(a.at(-1)).toMatchObject({ stdout: 'one\ntwo\n', exitCode: 3, backgroundId: first.backgroundId });
    expect(a.at(-1)?.state).toBeUndefined();

    await until(() => last('toolu_big')?.running === undefined, 'the big one to end');
    const bigView = last('toolu_big') as Terminal;
    expect(bigView.stdout.startsWith('…')).toBe(true);
    expect(bigView.stdout).toHaveLength(BACKGROUND_SHOWN_CHARS + 1);
    expect(bigView.stdout.endsWith('123456789\n')).toBe(true);
    await agent.dispose();
  }, 30_000);

  it("follow only the open conversation's cards, catch up when it is back, and say a killed command stopped", async () => {
    const { agent, views } = await session();
    api.script([
      { content: [background('toolu_w', 'echo before; sleep 0.5; echo while-away; sleep 30')] },
      { content: [{ type: 'text', text: 'Started.' }] },
    ]);
    await agent.send('start it');
    await until(() => views.some((v) => v.view.stdout.includes('before')), 'the first output');
    const mine = agent.transcript().slice();
    expect(agent.loadTranscript([])).toBe(true);
    const count = views.length;
    await new Promise((r) => setTimeout(r, 900));
    // Another conversation is open: its page gets nothing of this card.
    expect(views).toHaveLength(count);
    agent.loadTranscript(mine);
    await until(() => views.length > count, 'the view sent again');
    expect(views.at(-1)?.view).toMatchObject({ stdout: 'before\nwhile-away\n', running: true });

    const id = views.at(-1)?.view.backgroundId as string;
    await agent.sandbox.killBackground(id);
    await until(() => views.at(-1)?.view.running === undefined, 'the kill');
    expect(views.at(-1)?.view.state).toBe(`stopped (${id})`);
    await agent.dispose();
  }, 30_000);

  it("reach a sub-agent's card through the sub-agent's card", async () => {
    const { agent, views } = await session();
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_agent',
            name: 'Agent',
            input: { description: 'start a server', prompt: 'Start it in the background.' },
          },
        ],
      },
      { content: [background('toolu_sub', 'echo from-sub')] },
      { content: [{ type: 'text', text: 'Started it.' }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    await agent.send('delegate');
    await until(() => views.some((v) => v.view.stdout.includes('from-sub')), 'the sub-agent card view');
    const seen = views.find((v) => v.view.stdout.includes('from-sub'));
    expect(seen).toMatchObject({ toolUseId: 'toolu_sub', through: ['toolu_agent'] });
    await agent.dispose();
  }, 30_000);

  it('get the output of a backend that does not announce it (WebContainer: only the start and the end)', async () => {
    const sandbox = await createJustBashSandbox();
    const quiet = new Proxy(sandbox, {
      get(target, key) {
        if (key === 'onEvent')
          return (l: Parameters<Sandbox['onEvent']>[0]) =>
            target.onEvent((e) => (e.type === 'exec-output' ? undefined : l(e)));
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const seen: Terminal[] = [];
    const views = followBackgroundViews(quiet, (e) => {
      if (e.type === 'tool-view' && e.view.kind === 'terminal') seen.push(e.view);
    });
    const proc = await sandbox.startBackground('echo early; sleep 1.5; echo late; sleep 30');
    const view: Terminal = { kind: 'terminal', stdout: '', stderr: '', exitCode: 0, backgroundId: proc.id };
    views.see({
      type: 'tool-result',
      toolUseId: 'toolu_q',
      name: 'Bash',
      isError: false,
      block: { type: 'tool_result', tool_use_id: 'toolu_q', content: 'started' },
      view,
      status: 'done',
      durationMs: 1,
    });
    await until(() => seen.some((v) => v.stdout.includes('late')), 'output found without its events');
    expect(seen.at(-1)).toMatchObject({ stdout: 'early\nlate\n', running: true });
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 1200));
    // Nothing new: nothing sent (each view is a save of the card).
    expect(seen).toHaveLength(count);
    views.dispose();
    await sandbox.dispose();
  }, 30_000);

  it.each([
    ['just-bash', () => createJustBashSandbox()],
    [
      'just-bash in a worker (the page keeps a copy of the output)',
      () => createWorkerSandbox({ files: {}, createWorker: () => createInProcessSandboxWorker() }),
    ],
  ] as const)(
    'read a line printed in pieces as the terminal shows it (carriage returns across reads): %s',
    async (_, create) => {
      const sandbox: Sandbox = await create();
      const seen: Terminal[] = [];
      const views = followBackgroundViews(sandbox, (e) => {
        if (e.type === 'tool-view' && e.view.kind === 'terminal') seen.push(e.view);
      });
      const proc = await sandbox.startBackground(
        "echo start; for i in 1 2 3; do printf 'progress %s\\r' $i; sleep 0.4; done; echo finished; echo after",
      );
      const view: Terminal = { kind: 'terminal', stdout: '', stderr: '', exitCode: 0, backgroundId: proc.id };
      views.see({
        type: 'tool-result',
        toolUseId: 'toolu_p',
        name: 'Bash',
        isError: false,
        block: { type: 'tool_result', tool_use_id: 'toolu_p', content: 'started' },
        view,
        status: 'done',
        durationMs: 1,
      });
      await until(() => seen.length > 0 && seen.at(-1)?.running === undefined, 'the end');
      const whole = sandbox.readBackground(proc.id, { since: 0 }).output;
      expect(whole).toBe('start\nfinished 3\nafter\n');
      expect(seen.at(-1)?.stdout).toBe(whole);
      // While it ran: the line as it then stood, never its pieces run together.
      expect(seen.filter((v) => /progress \dprogress/.test(v.stdout))).toEqual([]);
      expect(seen.some((v) => /^start\nprogress [12]$/.test(v.stdout))).toBe(true);
      views.dispose();
      await sandbox.dispose();
    },
    30_000,
  );
});
