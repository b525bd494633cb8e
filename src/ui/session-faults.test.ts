/**
 * Faults and reloads together, on a real agent session (real SDK → the mock API, just-bash sandbox,
 * IndexedDB through fake-indexeddb) and the real session model: a scripted session whose turns meet a
 * 429 with its wait, a stream cut inside a tool_use's input, an SSE error mid-text, a refused request,
 * a slow Bash and an Esc. At every state the page is shown, the store is read as a reload would read it
 * and the session is restored from it as the page restores one; then: everything shown is back (prompts,
 * texts, finished cards still finished, running ones settled), and the restored transcript is sent to a
 * second mock API, which refuses anything unpaired: every one must be accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockApi, type ScriptedTurn, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import { createSessionsStore, newSessionRecord, type SessionRecord } from '../agent/sessions-store.ts';
import type { AgentSession } from '../agent/types.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createSessionModel, restoreRecord, type SessionViewState } from './session-model.ts';
import type { TranscriptItem } from './transcript-state.ts';

let api: MockApi;
/** Where restored transcripts are sent: it validates pairing and roles as the real API does. */
let judge: MockApi;
beforeAll(async () => {
  [api, judge] = await Promise.all([startMockApi(), startMockApi()]);
});
afterAll(async () => {
  await Promise.all([api.close(), judge.close()]);
});

async function agentOn(url: string, files: Record<string, string> = {}): Promise<AgentSession> {
  return createAgentSession({
    settings: { apiKey: 'test', baseURL: url, model: 'claude-test', permissionMode: 'bypassPermissions' },
    sandbox: await createJustBashSandbox({ files }),
    mcp: null,
  });
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const bash = (id: string, command: string) => ({
  type: 'tool_use' as const,
  id,
  name: 'Bash',
  input: { command },
});

/** What a reader of the page sees of a state: prompts, texts, cards with their status. */
function seen(items: readonly TranscriptItem[]) {
  return {
    users: items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])),
    texts: items.flatMap((i) => (i.kind === 'assistant-text' ? [i.text] : [])),
    cards: items.flatMap((i) => (i.kind === 'tool' ? [[i.card.toolUseId, i.card.status] as const] : [])),
    errors: items.flatMap((i) => (i.kind === 'error' ? [i.error.message] : [])),
  };
}

describe('faults and reloads at every shown state', () => {
  it('what was shown comes back, and the restored transcript is always sendable', async () => {
    const store = createSessionsStore(`faults-sweep-${Math.random()}`);
    const session = await agentOn(api.url, { 'a.txt': 'a\n' });
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    const checker = await agentOn(judge.url);

    /** Every shown state, with the record a reload then would have read. */
    const reloads: Array<{ shown: SessionViewState; loaded: Promise<SessionRecord | undefined> }> = [];
    model.subscribe(() => {
      reloads.push({ shown: model.getState(), loaded: store.load(model.id) });
    });

    const turns: Array<{ prompt: string; script: ScriptedTurn[]; esc?: number }> = [
      {
        prompt: 'Count, then tell me',
        script: [
          { chunkDelayMs: 5, content: [text('Counting now.'), bash('toolu_count', 'sleep 0.2; echo 1 2 3')] },
          { chunkDelayMs: 5, content: [text('It counted to three.')] },
        ],
      },
      {
        prompt: 'Rate limited once',
        script: [
          { fault: { kind: 'rate_limit', retryAfterSec: 1 } },
          { chunkDelayMs: 5, content: [text('Answered after the wait.')] },
        ],
      },
      {
        prompt: 'Cut in the tool input',
        script: [
          {
            chunkDelayMs: 5,
            content: [text('Running it.'), bash('toolu_cut', 'echo cut')],
            fault: { kind: 'cut_stream', afterEvents: 9 },
          },
          { chunkDelayMs: 5, content: [text('Running it again.'), bash('toolu_again', 'echo again')] },
          { chunkDelayMs: 5, content: [text('It ran once.')] },
        ],
      },
      {
        prompt: 'Overloaded mid-text',
        script: [
          {
            chunkDelayMs: 5,
            content: [text('A first try that the API breaks off in the middle of its words.')],
            fault: { kind: 'stream_error', afterEvents: 5 },
          },
          { chunkDelayMs: 5, content: [text('The second try.')] },
        ],
      },
      {
        prompt: 'Refused',
        script: [
          {
            fault: {
              kind: 'http',
              status: 400,
              type: 'invalid_request_error',
              message: 'prompt is too long: 210000 tokens > 200000 maximum',
            },
          },
        ],
      },
      {
        prompt: 'Stopped by Esc',
        script: [
          { chunkDelayMs: 5, content: [text('A long one.'), bash('toolu_long', 'sleep 5; echo late')] },
        ],
        esc: 400,
      },
      { prompt: 'After all that', script: [{ chunkDelayMs: 5, content: [text('Still here.')] }] },
    ];
    for (const turn of turns) {
      api.script(turn.script);
      const run = session.send(turn.prompt);
      if (turn.esc !== undefined) setTimeout(() => session.interrupt(), turn.esc);
      await run;
      await model.flush();
    }
    const final = seen(model.getState().transcript.items);
    expect(final.users).toEqual(turns.map((t) => t.prompt));
    expect(final.errors).toEqual([
      'The API refused the request (400): prompt is too long: 210000 tokens > 200000 maximum',
    ]);
    expect(new Map(final.cards).get('toolu_long')).toBe('interrupted');
    // The live session's own requests were all valid (none of the faults left it unsendable).
    expect(api.requests.filter((r) => r.status === 400).map((r) => r.error)).toEqual([
      'prompt is too long: 210000 tokens > 200000 maximum',
    ]);

    const problems: string[] = [];
    let checked = 0;
    for (const [n, { shown, loaded }] of reloads.entries()) {
      const record = await loaded;
      const before = seen(shown.transcript.items);
      if (!record) {
        if (before.users.length > 0)
          problems.push(`#${n}: nothing stored, ${before.users.length} prompts shown`);
        continue;
      }
      const { rec, transcript } = await restoreRecord(record);
      const back = seen(transcript.items);
      const where = `#${n} (${before.users.length} prompts shown)`;
      if (JSON.stringify(back.users.slice(0, before.users.length)) !== JSON.stringify(before.users))
        problems.push(`${where}: prompts ${JSON.stringify(back.users)}`);
      for (const t of before.texts)
        if (!back.texts.some((b) => b.startsWith(t))) problems.push(`${where}: text "${t}" lost`);
      for (const e of before.errors)
        if (!back.errors.includes(e)) problems.push(`${where}: error "${e}" lost`);
      const status = new Map(back.cards);
      for (const [id, s] of before.cards) {
        const now = status.get(id);
        if (s === 'done' ? now !== 'done' : !/^(done|interrupted|error)$/.test(now ?? ''))
          problems.push(`${where}: card ${id} was ${s}, is ${now}`);
      }
      if (back.cards.some(([, s]) => s === 'running' || s === 'pending'))
        problems.push(`${where}: a card left running`);
      // The restored transcript goes out as the next prompt's: the judge refuses anything invalid.
      expect(checker.loadTranscript(rec.messages)).toBe(true);
      judge.script([{ content: [text('ok')] }]);
      await checker.send('next');
      const sent = judge.requests.at(-1);
      if (sent?.status !== 200) problems.push(`${where}: the next request was refused: ${sent?.error}`);
      checked++;
    }

    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
    await model.dispose();
    await Promise.all([session.dispose(), checker.dispose()]);
  }, 60_000);

  it('a prompt the API refuses before any reply is given back, and the session goes on', async () => {
    // Before: the refused prompt stayed in the transcript, went out again with every later prompt, and
    // each was refused as too long (only /clear got the session going again).
    const small = await startMockApi({ contextWindow: 20_000 });
    try {
      const store = createSessionsStore(`faults-returned-${Math.random()}`);
      const session = await agentOn(small.url);
      session.updateSettings({ model: 'claude-sonnet-4-6' });
      const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
      const returned: string[] = [];
      session.subscribe((e) => {
        if (e.type === 'prompt-returned') returned.push(e.prompt);
      });
      // The first prompt of a session, with the deferred tools' announcement put after it by the loop.
      small.script([
        { fault: { kind: 'http', status: 400, type: 'invalid_request_error', message: 'a bad file' } },
      ]);
      await session.send('First, refused');
      expect(returned).toEqual(['First, refused']);
      expect(JSON.stringify(session.transcript())).not.toContain('First, refused');
      returned.length = 0;
      // A key the API rejects refuses the prompt too: it goes back to the box for when a key works.
      small.script([
        { fault: { kind: 'http', status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
      ]);
      await session.send('With a rejected key');
      expect(returned).toEqual(['With a rejected key']);
      expect(JSON.stringify(session.transcript())).not.toContain('With a rejected key');
      returned.length = 0;
      for (let i = 0; i < 3; i++) {
        small.push({ content: [text(`Reply ${i}: ${'some words '.repeat(200)}`)] });
        await session.send(`Prompt ${i}: ${'history '.repeat(300)}`);
      }
      const history = session.transcript().length;
      // One pasted log over the whole window: compacting what came before cannot make it fit.
      const huge = `Look at this log: ${'pasted log line '.repeat(7000)}`;
      small.push(
        { content: [text('<summary>Three prompts about history.</summary>')] },
        { content: [text('<summary>Three prompts.</summary>')] },
      );
      await session.send(huge);
      expect(small.requests.at(-1)?.error).toMatch(/^prompt is too long/);
      expect(returned).toEqual([huge]);
      expect(JSON.stringify(session.transcript())).not.toContain('pasted log line');
      expect(session.transcript().length).toBeLessThanOrEqual(history);
      await model.flush();
      const saved = await store.load(model.id);
      expect(JSON.stringify(saved?.messages)).not.toContain('pasted log line');
      const view = (await restoreRecord(saved as SessionRecord)).transcript.items;
      const last = view.filter((i) => i.kind === 'user').at(-1);
      expect(last).toMatchObject({ kind: 'user', text: huge, returned: true });

      // The next prompt goes out without it and is answered.
      small.script([{ content: [text('A short answer.')] }]);
      await session.send('A short question');
      expect(small.requests.at(-1)?.status).toBe(200);
      expect(session.transcript().at(-1)).toMatchObject({
        role: 'assistant',
        content: [{ text: 'A short answer.' }],
      });

      // A refusal after the turn made progress (a tool ran) keeps the turn as it is.
      small.script([
        { content: [bash('toolu_ran', 'echo ran')] },
        { fault: { kind: 'http', status: 400, type: 'invalid_request_error', message: 'bad request' } },
      ]);
      await session.send('Run something');
      expect(returned).toHaveLength(1);
      expect(JSON.stringify(session.transcript())).toContain('toolu_ran');
      await model.dispose();
      await session.dispose();
    } finally {
      await small.close();
    }
  }, 60_000);
});
