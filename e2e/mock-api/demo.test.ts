import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoScript } from './demo.ts';
import { type MockApi, startMockApi } from './server.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());

it('the CLI demo replies, reads README.md, reports the result, and loops; each conversation starts at the greeting', async () => {
  const client = new Anthropic({ apiKey: 'demo', baseURL: api.url, maxRetries: 0 });
  api.script(demoScript(api, 0));
  const tools: Anthropic.Tool[] = [
    { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  ];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
  const base = { model: 'claude-sonnet-4-6', max_tokens: 1000, tools };

  const hello = await client.messages.stream({ ...base, messages }).finalMessage();
  expect(hello.stop_reason).toBe('end_turn');
  messages.push({ role: 'assistant', content: hello.content }, { role: 'user', content: 'go on' });
  // Another conversation (a new session, a reload, another tab) starts at the greeting, wherever this one is.
  const other = await client.messages
    .stream({ ...base, messages: [{ role: 'user', content: 'hello?' }] })
    .finalMessage();
  expect((other.content[0] as Anthropic.TextBlock).text).toContain("I'm the mock model");

  const read = await client.messages.stream({ ...base, messages }).finalMessage();
  expect(read.stop_reason).toBe('tool_use');
  const call = read.content.find((b) => b.type === 'tool_use');
  expect(call).toMatchObject({ name: 'Read', input: { file_path: 'README.md' } });
  messages.push(
    { role: 'assistant', content: read.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '# Weather notes\n' }] },
  );

  const done = await client.messages.stream({ ...base, messages }).finalMessage();
  expect(done.content[0]).toMatchObject({ type: 'text' });
  expect((done.content[0] as Anthropic.TextBlock).text).toContain('returned 16 characters');
  expect(api.pending()).toBe(1);
});
