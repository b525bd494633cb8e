/**
 * The Agent tool through the real loop: sub-agents talk to the mock Messages API through the real SDK,
 * run real tools on the real just-bash sandbox and meet the real permission engine. Two Agent calls of
 * one message run at the same time; each has its own agent id, tool pool and transcript; their prompts
 * reach the page labelled; Esc stops them; the depth cap holds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type MockApi,
  type RecordedRequest,
  startMockApi,
  type TurnSpec,
} from '../../../e2e/mock-api/server.ts';
import { SYNTHETIC_TOOL_RESULT_INTERRUPTED } from '../../core/constants.ts';
import { createToolUseContext } from '../../core/context.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../bash/bash.ts';
import { GlobTool } from '../glob/glob.ts';
import { GrepTool } from '../grep/grep.ts';
import { ReadTool } from '../read/read.ts';
import { firstUserText, runLoop, userMessage } from '../testing/loop.ts';
import { WriteTool } from '../write/write.ts';
import { AgentTool } from './agent.ts';
import { MAX_AGENT_DEPTH } from './run-subagent.ts';

let api: MockApi;
let sandbox: Sandbox;
const tools = [AgentTool, BashTool, GlobTool, GrepTool, ReadTool, WriteTool];

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
});

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? '').includes('# Sub-agent:');
const hasResults = (r: RecordedRequest) =>
  r.body.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));
const toolNames = (r: RecordedRequest) => (r.body.tools ?? []).map((t) => (t as { name: string }).name);

/** Plays the main agent and each sub-agent by what the request holds. */
function router(
  main: (r: RecordedRequest) => TurnSpec,
  sub: (prompt: string, r: RecordedRequest) => TurnSpec,
) {
  const turn = (r: RecordedRequest) => (isSub(r) ? sub(firstUserText(r.body as never), r) : main(r));
  api.script(Array.from({ length: 20 }, () => turn));
}

describe('Agent', () => {
  it('runs two sub-agents in parallel, each with its own id and tools; the results are their final texts', async () => {
    router(
      (r) =>
        hasResults(r)
          ? { content: [{ type: 'text', text: 'Both agents are done.' }] }
          : {
              content: [
                {
                  type: 'tool_use',
                  id: 'toolu_explore',
                  name: 'Agent',
                  input: {
                    description: 'find alpha',
                    prompt: 'Find the file holding alpha.',
                    subagent_type: 'Explore',
                  },
                },
                {
                  type: 'tool_use',
                  id: 'toolu_writer',
                  name: 'Agent',
                  input: { description: 'write notes', prompt: 'Write notes.md saying hello.' },
                },
              ],
            },
      (prompt, r) => {
        if (prompt.includes('alpha')) {
          return hasResults(r)
            ? { content: [{ type: 'text', text: 'alpha is in a.txt' }], chunkDelayMs: 20 }
            : {
                content: [{ type: 'tool_use', name: 'Grep', input: { pattern: 'alpha' } }],
                chunkDelayMs: 60,
              };
        }
        return hasResults(r)
          ? { content: [{ type: 'text', text: 'Wrote notes.md' }], chunkDelayMs: 20 }
          : {
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: `${sandbox.root}/notes.md`, content: 'hello\n' },
                },
              ],
              chunkDelayMs: 60,
            };
      },
    );
    const run = await runLoop({ baseURL: api.url, sandbox, tools, messages: [userMessage('Do both.')] });
    expect(run.outcome.reason).toBe('end_turn');

    const subs = api.requests.filter(isSub);
    expect(subs).toHaveLength(4);
    // Parallel: both sub-agents' first requests arrived before either one's second.
    const firsts = subs.filter((r) => !hasResults(r));
    const seconds = subs.filter(hasResults);
    expect(Math.max(...firsts.map((r) => r.receivedAt))).toBeLessThanOrEqual(
      Math.min(...seconds.map((r) => r.receivedAt)),
    );

    // Tool pools by type: Explore reads only; neither may start agents.
    const explore = firsts.find((r) => firstUserText(r.body as never).includes('alpha')) as RecordedRequest;
    const writer = firsts.find((r) => r !== explore) as RecordedRequest;
    expect(toolNames(explore).sort()).toEqual(['Bash', 'Glob', 'Grep', 'Read']);
    expect(toolNames(writer)).not.toContain('Agent');
    expect(toolNames(writer)).toContain('Write');
    expect(JSON.stringify(explore.body.system)).toContain('# Sub-agent: Explore');

    // Each sub-agent has its own id; the Write asked the user, labelled with its agent.
    const agentIds = new Set(run.flat.filter((f) => f.agentId !== 'main').map((f) => f.agentId));
    expect(agentIds.size).toBe(2);
    const asked = run.flat.find((f) => f.event.type === 'permission-request');
    expect(asked?.agentId).not.toBe('main');
    expect(asked?.event.type === 'permission-request' && asked.event.agentLabel).toBe(
      'general-purpose: write notes',
    );
    expect(await sandbox.readFile(`${sandbox.root}/notes.md`)).toBe('hello\n');

    // The main agent read each sub-agent's final text as its result.
    const last = api.requests.at(-1) as RecordedRequest;
    const results = last.body.messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result');
    expect(results.map((b) => (b as { content: string }).content)).toEqual([
      'alpha is in a.txt',
      'Wrote notes.md',
    ]);
    // The sub-agents' messages stay out of the main transcript.
    expect(JSON.stringify(run.outcome.messages)).not.toContain('"Grep"');
  });

  it('an Explore agent cannot change files: a Write is refused before anyone is asked', async () => {
    router(
      (r) =>
        hasResults(r)
          ? { content: [{ type: 'text', text: 'ok' }] }
          : {
              content: [
                {
                  type: 'tool_use',
                  name: 'Agent',
                  input: { description: 'sneaky', prompt: 'Try writing.', subagent_type: 'Explore' },
                },
              ],
            },
      (_prompt, r) =>
        hasResults(r)
          ? { content: [{ type: 'text', text: 'Could not write.' }] }
          : { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo x > x.txt' } }] },
    );
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools,
      messages: [userMessage('go')],
      mode: 'bypassPermissions',
    });
    expect(run.flat.some((f) => f.event.type === 'permission-request')).toBe(false);
    const refused = api.requests.filter(isSub).at(-1) as RecordedRequest;
    expect(JSON.stringify(refused.body.messages)).toContain('The Explore agent is read-only');
    await expect(sandbox.readFile(`${sandbox.root}/x.txt`)).rejects.toThrow();
  });

  it('Esc stops a sub-agent mid-run: its request is cut, the call ends interrupted, nothing hangs', async () => {
    router(
      () => ({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_slow',
            name: 'Agent',
            input: { description: 'slow', prompt: 'Take your time.' },
          },
        ],
      }),
      () => ({ content: [{ type: 'text', text: 'a very long answer '.repeat(40) }], chunkDelayMs: 100 }),
    );
    const controller = new AbortController();
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools,
      messages: [userMessage('go')],
      abortController: controller,
      onEvent: (e, agentId) => {
        if (agentId !== 'main' && e.type === 'text-delta') controller.abort();
      },
    });
    expect(run.outcome.reason).toBe('interrupted');
    const result = run.events.find((e) => e.type === 'tool-result' && e.toolUseId === 'toolu_slow');
    expect(result?.type === 'tool-result' && result.status).toBe('interrupted');
    expect(JSON.stringify(run.outcome.messages)).toContain(SYNTHETIC_TOOL_RESULT_INTERRUPTED);
    await expect.poll(() => api.requests.filter(isSub)[0]?.aborted).toBe(true);
  });

  it('refuses to nest past the depth cap, an unknown type, and a context without a model endpoint', async () => {
    const ctx = createToolUseContext({ sandbox, options: { tools } });
    const deep = { ...ctx, queryTracking: { chainId: 'c', depth: MAX_AGENT_DEPTH } };
    await expect(
      AgentTool.call(
        { description: 'd', prompt: 'p' },
        { ...deep, options: { ...deep.options, runtime: {} as never } },
      ),
    ).rejects.toThrow(/at most 2 deep/);
    await expect(AgentTool.call({ description: 'd', prompt: 'p' }, ctx)).rejects.toBeInstanceOf(
      ToolInputError,
    );
    expect(
      await AgentTool.validateInput?.({ description: 'd', prompt: 'p', subagent_type: 'Nope' }, ctx),
    ).toMatch(/Unknown subagent_type "Nope". Available types: general-purpose, Explore/);
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(AgentTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/agent.schema.json',
    );
    expect(AgentTool.prompt?.()).not.toMatch(/\{\{/);
  });
});
