/**
 * Record and replay for real: a live session (the real SDK against the mock Messages API on loopback,
 * the real loop and tools on the just-bash sandbox) is recorded; the replay file is checked, then played
 * in a fresh session with no key and no network, where the recorded Bash and Write calls really run and
 * their results are compared with the recording. A changed project makes a result differ: reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import type { SessionEvent } from '../agent/types.ts';
import { createMemoryStore } from '../core/storage.ts';
import type { EmbedReplay, EmbedWarning } from './config.ts';
import { createReplayPlayer, type ReplayCheck } from './replay-player.ts';
import { createReplayRecorder } from './replay-recorder.ts';
import { checkReplay } from './validate-replay.ts';

const FILES = { 'README.md': '# Replay demo\n', 'data.txt': 'one\ntwo\nthree\n' };
const KEY = 'sk-ant-test-never-recorded';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
});

async function session(fetch: typeof globalThis.fetch, files: Record<string, string>, live: boolean) {
  const agent = await createAgentSession({
    settings: live
      ? { apiKey: KEY, baseURL: api.url, permissionMode: 'acceptEdits' }
      : { apiKey: '', permissionMode: 'acceptEdits' },
    openSandbox: { preference: 'just-bash', files, store: null },
    mcp: null,
    permissions: { rules: { allow: ['Bash(cat:*)', 'Bash(wc:*)'] }, storage: null },
    storage: { session: createMemoryStore(), results: createMemoryStore() },
    keyless: !live,
    fetch,
  });
  const events: SessionEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return { agent, events };
}

async function recordSession(): Promise<EmbedReplay> {
  api.script([
    {
      chunkDelayMs: 8,
      content: [
        { type: 'text', text: 'I will count the lines, then write a note.' },
        { type: 'tool_use', id: 'toolu_rec_1', name: 'Bash', input: { command: 'wc -l data.txt' } },
      ],
    },
    {
      chunkDelayMs: 8,
      content: [
        {
          type: 'tool_use',
          id: 'toolu_rec_2',
          name: 'Write',
          input: { file_path: 'note.md', content: '3 lines\n' },
        },
      ],
    },
    { chunkDelayMs: 8, content: [{ type: 'text', text: 'data.txt has 3 lines; note.md says so.' }] },
    {
      chunkDelayMs: 8,
      content: [{ type: 'tool_use', id: 'toolu_rec_3', name: 'Bash', input: { command: 'cat note.md' } }],
    },
    { chunkDelayMs: 8, content: [{ type: 'text', text: 'It reads "3 lines".' }] },
  ]);
  const recorder = createReplayRecorder({ files: FILES, title: 'Counting lines' });
  const { agent, events } = await session(recorder.fetch, FILES, true);
  await agent.send('How many lines has data.txt? Write it to note.md.');
  await agent.send('Show me note.md.');
  await agent.dispose();
  expect(events.filter((e) => e.type === 'error')).toEqual([]);
  expect(recorder.answers()).toBe(5);
  return recorder.replay();
}

async function play(replay: EmbedReplay, files: Record<string, string>, speed = 0) {
  const player = createReplayPlayer(replay, { speed });
  const checks: ReplayCheck[] = [];
  player.onCheck((c) => checks.push(c));
  const { agent, events } = await session(player.fetch, files, false);
  for (const turn of replay.turns) if (turn.prompt) await agent.send(turn.prompt);
  return { agent, events, checks, player };
}

describe('record and replay', () => {
  let recorded: EmbedReplay;
  beforeAll(async () => {
    recorded = await recordSession();
  }, 30_000);

  it('records answers with their timing and the tools results, never the key or the request', () => {
    const text = JSON.stringify(recorded);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('system');
    expect(recorded).toMatchObject({
      format: 'tabcode-replay',
      version: 1,
      title: 'Counting lines',
      files: FILES,
    });
    expect(recorded.turns.map((t) => [t.prompt, t.responses.length])).toEqual([
      ['How many lines has data.txt? Write it to note.md.', 3],
      ['Show me note.md.', 2],
    ]);
    expect(recorded.turns[1].pauseMs).toBeGreaterThanOrEqual(0);
    const first = recorded.turns[0].responses[0];
    const times = first.events?.map((e) => e.at) ?? [];
    expect(times.length).toBeGreaterThan(5);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Streamed at 8 ms an event: the recording keeps the pace.
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(8 * (times.length - 2));
    expect(first.results).toEqual([
      { toolUseId: 'toolu_rec_1', isError: false, content: expect.stringMatching(/3 data\.txt/) },
    ]);
    expect(recorded.turns[0].responses[1].results?.[0]).toMatchObject({
      toolUseId: 'toolu_rec_2',
      isError: false,
    });
    // The file survives a round trip through JSON and passes the replay checks.
    const warnings: EmbedWarning[] = [];
    expect(
      checkReplay(JSON.stringify(recorded), 'replay', (field, message) => warnings.push({ field, message })),
    ).toEqual(recorded);
    expect(warnings).toEqual([]);
  });

  it('plays back with no key and no network: the tools really run and match the recording', async () => {
    const before = api.requests.length;
    const { agent, events, checks } = await play(recorded, FILES);
    expect(api.requests.length).toBe(before);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['Bash', true],
      ['Write', true],
      ['Bash', true],
    ]);
    expect(await agent.sandbox.readFile(`${agent.sandbox.root}/note.md`)).toBe('3 lines\n');
    const texts = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(texts).toContain('It reads "3 lines".');
    await agent.dispose();
  });

  it('shows a mismatch when a tool now returns something else', async () => {
    const { agent, checks } = await play(recorded, { ...FILES, 'data.txt': 'one\ntwo\nthree\nfour\n' });
    const bad = checks.filter((c) => !c.ok);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ toolUseId: 'toolu_rec_1', name: 'Bash', ok: false });
    expect(bad[0].detail).toMatch(/line 1/);
    expect(bad[0].expected).toMatch(/3 data\.txt/);
    expect(bad[0].actual).toMatch(/4 data\.txt/);
    await agent.dispose();
  });

  it('plays at the recorded pace, or faster', async () => {
    const slow = createReplayPlayer(recorded, { speed: 1 });
    const fast = createReplayPlayer(recorded, { speed: 4 });
    const body = JSON.stringify({
      model: 'm',
      max_tokens: 10,
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const timeOf = async (player: typeof slow) => {
      const t0 = performance.now();
      const res = await player.fetch('http://replay.invalid/v1/messages', { method: 'POST', body });
      await res.text();
      return performance.now() - t0;
    };
    const events = recorded.turns[0].responses[0].events ?? [];
    const span = events[events.length - 1].at;
    const slowMs = await timeOf(slow);
    const fastMs = await timeOf(fast);
    expect(slowMs).toBeGreaterThanOrEqual(span * 0.9);
    expect(fastMs).toBeLessThan(slowMs * 0.6);
  });
});

describe('hand-written replays', () => {
  it('stream their blocks, and a Write they script really writes', async () => {
    const replay: EmbedReplay = {
      format: 'tabcode-replay',
      version: 1,
      turns: [
        {
          prompt: 'Write hi.txt',
          responses: [
            {
              content: [
                { type: 'text', text: 'Writing it.' },
                {
                  type: 'tool_use',
                  id: 'toolu_w',
                  name: 'Write',
                  input: { file_path: 'hi.txt', content: 'hi\n' },
                },
              ],
              results: [{ toolUseId: 'toolu_w', isError: false, content: 'not what Write says' }],
            },
            { content: [{ type: 'text', text: 'Done.' }] },
          ],
        },
      ],
    };
    const { agent, checks, player } = await play(replay, {});
    expect(await agent.sandbox.readFile(`${agent.sandbox.root}/hi.txt`)).toBe('hi\n');
    // A hand-written expectation that does not hold is reported like a recorded one.
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ name: 'Write', ok: false });
    expect(player.pending()).toBe(0);
    expect(player.nextTurn()).toBe(1);
    await agent.dispose();
  });
});

describe('checkReplay refuses a bad replay whole, naming the first problem', () => {
  const base = (): Record<string, unknown> => ({
    format: 'tabcode-replay',
    version: 1,
    turns: [{ prompt: 'p', responses: [{ content: [{ type: 'text', text: 't' }] }] }],
  });
  const problem = (raw: unknown): string => {
    const warnings: string[] = [];
    expect(checkReplay(raw, 'replay', (f, m) => warnings.push(`${f}: ${m}`))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    return warnings[0];
  };
  const events = (list: unknown[]) => ({ ...base(), turns: [{ responses: [{ events: list }] }] });
  const start = { at: 0, event: 'message_start', data: { type: 'message_start', message: {} } };
  const stop = { at: 5, event: 'message_stop', data: { type: 'message_stop' } };

  it('accepts a good one', () => {
    expect(checkReplay(base(), 'replay', () => expect.fail('no warning expected'))).toMatchObject({
      version: 1,
    });
  });
  it('corrupt text, wrong format, another version', () => {
    expect(problem('{"format": "tabcode-replay", "turns": [')).toMatch(/^replay: The replay is not JSON/);
    expect(problem({ ...base(), format: 'sandpack' })).toMatch(/not a tabcode replay/);
    expect(problem({ ...base(), version: 3 })).toMatch(/version 3; this tabcode plays version 1 replays/);
    expect(problem({ ...base(), turns: [] })).toMatch(/at least one turn/);
  });
  it('events out of order, unknown, unstarted or unfinished', () => {
    const delta = (at: number, index = 0) => ({
      at,
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: 'x' } },
    });
    const blockStart = {
      at: 1,
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    };
    expect(problem(events([start, blockStart, delta(3), delta(2), stop]))).toMatch(
      /events\[3\]\.at: .*time order/,
    );
    expect(problem(events([start, { at: 1, event: 'hello', data: { type: 'hello' } }, stop]))).toMatch(
      /not a Messages API stream event/,
    );
    expect(problem(events([start, delta(1, 2), stop]))).toMatch(/block 2 was not started/);
    expect(problem(events([start, blockStart, stop]))).toMatch(/block 0 was never stopped/);
    expect(problem(events([blockStart, stop]))).toMatch(/first event must be message_start/);
    expect(problem(events([start, { ...stop, at: -1 }]))).toMatch(/at: must be a number of milliseconds/);
  });
  it('a bad block, a bad result, both events and content', () => {
    expect(problem({ ...base(), turns: [{ responses: [{ content: [{ type: 'image' }] }] }] })).toMatch(
      /content\[0\]/,
    );
    expect(
      problem({
        ...base(),
        turns: [{ responses: [{ content: [{ type: 'text', text: 'a' }], results: [{ toolUseId: 'x' }] }] }],
      }),
    ).toMatch(/results\[0\]/);
    expect(
      problem({
        ...base(),
        turns: [{ responses: [{ content: [{ type: 'text', text: 'a' }], events: [start, stop] }] }],
      }),
    ).toMatch(/either recorded `events` or hand-written `content`/);
  });
});
