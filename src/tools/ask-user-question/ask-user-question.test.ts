/**
 * AskUserQuestion through the real loop and permission engine: the questions are the prompt, the
 * user's answers come back as the approved input, bad questions are refused with a clear message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, type RecordedRequest, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { runLoop, userMessage } from '../testing/loop.ts';
import { AskUserQuestionTool } from './ask-user-question.ts';

let api: MockApi;
let sandbox: Sandbox;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: {} });
});

const option = (label: string) => ({ label, description: `${label} it is` });
const question = (options: number, multiSelect = false) => ({
  question: 'Which library should we use?',
  header: 'Library',
  options: Array.from({ length: options }, (_, i) => option(`Lib ${i + 1}`)),
  multiSelect,
});

function resultOf(r: RecordedRequest, id: string) {
  return r.body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((b) => b.type === 'tool_result' && b.tool_use_id === id) as { content: string; is_error?: boolean };
}

describe('AskUserQuestion', () => {
  it('asks even in bypassPermissions mode; the answers the page fills in reach the model', async () => {
    api.script([
      {
        content: [
          { type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: { questions: [question(3)] } },
        ],
      },
      { content: [{ type: 'text', text: 'Going with Lib 2.' }] },
    ]);
    let asked = 0;
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools: [AskUserQuestionTool],
      messages: [userMessage('pick one')],
      mode: 'bypassPermissions',
      answer: (req) => {
        asked++;
        const input = req.input as { questions: unknown[] };
        return {
          decision: 'allow-once',
          updatedInput: { ...input, answers: { 'Which library should we use?': 'Lib 2' } },
        };
      },
    });
    expect(asked).toBe(1);
    expect(run.outcome.reason).toBe('end_turn');
    const result = resultOf(api.requests[1], 'toolu_q');
    expect(result.is_error).toBeUndefined();
    expect(result.content).toContain('Which library should we use?\n  Answer: Lib 2');
  });

  it('refuses 1 or 9 options and 5 questions with messages the model can act on; a dismissal is an error', async () => {
    api.script([
      {
        content: [
          { type: 'tool_use', id: 'toolu_one', name: 'AskUserQuestion', input: { questions: [question(1)] } },
          {
            type: 'tool_use',
            id: 'toolu_nine',
            name: 'AskUserQuestion',
            input: { questions: [question(9)] },
          },
          {
            type: 'tool_use',
            id: 'toolu_five',
            name: 'AskUserQuestion',
            input: { questions: [1, 2, 3, 4, 5].map((n) => ({ ...question(2), question: `Q${n}?` })) },
          },
          {
            type: 'tool_use',
            id: 'toolu_other',
            name: 'AskUserQuestion',
            input: { questions: [{ ...question(2), options: [option('A'), option('Other')] }] },
          },
          {
            type: 'tool_use',
            id: 'toolu_skip',
            name: 'AskUserQuestion',
            input: { questions: [question(2)] },
          },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    await runLoop({
      baseURL: api.url,
      sandbox,
      tools: [AskUserQuestionTool],
      messages: [userMessage('ask')],
      answer: () => ({ decision: 'allow-once' }),
    });
    const r = api.requests[1];
    expect(resultOf(r, 'toolu_one')).toMatchObject({ is_error: true });
    expect(resultOf(r, 'toolu_one').content).toContain('A question needs 2 to 4 options');
    expect(resultOf(r, 'toolu_nine').content).toContain('at most 4 options');
    expect(resultOf(r, 'toolu_five').content).toContain('Ask at most 4 questions at a time.');
    expect(resultOf(r, 'toolu_other').content).toContain('Leave "Other" out');
    expect(resultOf(r, 'toolu_skip')).toMatchObject({ is_error: true });
    expect(resultOf(r, 'toolu_skip').content).toContain('closed the questions without answering');
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(AskUserQuestionTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/ask-user-question.schema.json',
    );
    expect(AskUserQuestionTool.prompt?.()).not.toMatch(/\{\{/);
  });
});
