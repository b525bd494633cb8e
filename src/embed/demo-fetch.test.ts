/**
 * The scripted demo's transport under the real SDK: streamed and plain answers, the models list, an
 * abort mid-stream; and a whole agent session whose scripted Write really writes to the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { createAgentSession } from '../agent/session.ts';
import type { SessionEvent } from '../agent/types.ts';
import { createAnthropicClient } from '../core/model/anthropic.ts';
import { createMemoryStore } from '../core/storage.ts';
import type { EmbedDemo } from './config.ts';
import { createDemoFetch, DEMO_END_TEXT } from './demo-fetch.ts';

const client = (demo: EmbedDemo) =>
  createAnthropicClient({ apiKey: 'unused', fetch: createDemoFetch(demo), maxRetries: 0 });

const params = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

describe('createDemoFetch', () => {
  it('streams the scripted turns through the SDK, then the end text', async () => {
    const sdk = client({
      chunkDelayMs: 0,
      turns: [
        {
          content: [
            { type: 'text', text: 'Let me write the file for you now.' },
            { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'a.txt', content: 'A' } },
          ],
        },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
    });
    const deltas: string[] = [];
    const stream = sdk.messages.stream(params);
    stream.on('text', (t) => deltas.push(t));
    const first = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Let me write the file for you now.');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.model).toBe('claude-test');
    expect(first.content[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'Write',
      input: { file_path: 'a.txt', content: 'A' },
    });

    const second = await sdk.messages.create(params);
    expect(second.content).toEqual([{ type: 'text', text: 'Done.', citations: null }]);
    expect(second.stop_reason).toBe('end_turn');
    const third = await sdk.messages.stream(params).finalMessage();
    expect(third.content[0]).toMatchObject({ type: 'text', text: DEMO_END_TEXT });
  });

  it('lists a model, counts tokens, and refuses other routes', async () => {
    const sdk = client({ turns: [] });
    const models = [];
    for await (const m of sdk.models.list()) models.push(m.id);
    expect(models).toEqual(['tabcode-demo']);
    const count = await sdk.messages.countTokens(params);
    expect(count.input_tokens).toBeGreaterThan(0);
    const res = await createDemoFetch({ turns: [] })('https://api.anthropic.com/v1/files', {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(404);
  });

  it('stops a stream when the request is aborted', async () => {
    const sdk = client({
      chunkDelayMs: 30,
      turns: [{ content: [{ type: 'text', text: 'word '.repeat(200) }] }],
    });
    const controller = new AbortController();
    const stream = sdk.messages.stream(params, { signal: controller.signal });
    let seen = 0;
    stream.on('text', () => {
      if (++seen === 2) controller.abort();
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(stream.aborted).toBe(true);
  });

  it('drives a real agent session: the scripted Write creates the file, no key needed', async () => {
    const session = await createAgentSession({
      settings: { apiKey: '', permissionMode: 'acceptEdits' },
      openSandbox: { preference: 'just-bash', files: { 'README.md': '# Docs demo\n' }, store: null },
      mcp: null,
      permissions: { storage: null },
      storage: { session: createMemoryStore(), results: createMemoryStore() },
      keyless: true,
      fetch: createDemoFetch({
        chunkDelayMs: 0,
        turns: [
          {
            content: [
              { type: 'text', text: 'Creating hello.txt.' },
              {
                type: 'tool_use',
                name: 'Write',
                input: { file_path: 'hello.txt', content: 'Hello from the demo\n' },
              },
            ],
          },
          { content: [{ type: 'text', text: 'I wrote hello.txt.' }] },
        ],
      }),
    });
    const events: SessionEvent[] = [];
    session.subscribe((e) => events.push(e));
    await session.send('Write hello.txt');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ name: 'Write', isError: false });
    const root = session.sandbox.root;
    expect(await session.sandbox.readFile(`${root}/hello.txt`)).toBe('Hello from the demo\n');
    expect(await session.sandbox.readFile(`${root}/README.md`)).toBe('# Docs demo\n');
    expect(session.transcript()).toHaveLength(4);
    await session.dispose();
  });
});
