/**
 * Claude Code habits through the real agent session (real SDK, the mock Messages API, the just-bash
 * sandbox, fake-indexeddb): CLAUDE.md read into the turn and again when it changes, a 1 MB one cut,
 * slash commands from the workspace expanded and unknown ones refused with nothing sent, `@` mentions
 * attached as Read gives them, `!` output joining the next prompt, /compact, hooks from
 * .claude/settings.json, the context window from the Models API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockApi, type RecordedRequest, startMockApi } from '../../../e2e/mock-api/server.ts';
import { COMPACTED_HEADER } from '../../core/compaction/prompt.ts';
import { MAX_MEMORY_CHARS } from '../../core/constants.ts';
import { createMemoryStore } from '../../core/storage.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { createAgentSession } from '../session.ts';
import type { AgentSession, SessionEvent } from '../types.ts';

let api: MockApi;
let sandbox: Sandbox;
let session: AgentSession;
let events: SessionEvent[];

beforeAll(async () => {
  api = await startMockApi({ contextWindow: 150_000 });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({
    files: {
      'CLAUDE.md': '# Rules\nAlways answer in French.\n',
      'src/app.ts': 'export const answer = 41;\n',
      '.claude/commands/fix-issue.md':
        '---\ndescription: Fix an issue\nargument-hint: <number>\n---\nFix issue #$1 and explain: $ARGUMENTS\n',
      '.claude/skills/release/SKILL.md':
        '---\nname: release\ndescription: Cut a release\n---\nBump the version, then tag it.\n',
    },
  });
  session = await createAgentSession({
    settings: {
      apiKey: 'test',
      baseURL: api.url,
      model: 'claude-sonnet-4-6',
      permissionMode: 'bypassPermissions',
    },
    sandbox,
    mcp: null,
    storage: { session: createMemoryStore(), results: createMemoryStore() },
  });
  events = [];
  session.subscribe((e) => events.push(e));
});

const ok = (text = 'ok') => ({ content: [{ type: 'text' as const, text }] });
const sent = (r: RecordedRequest | undefined) => JSON.stringify(r?.body.messages ?? []);
const lastUser = (r: RecordedRequest | undefined) => JSON.stringify(r?.body.messages.at(-1) ?? {});

describe('memory', () => {
  it('reads CLAUDE.md into the first turn, not again while unchanged, and again after an edit', async () => {
    api.script([ok(), ok(), ok()]);
    await session.send('hello');
    expect(lastUser(api.requests[0])).toContain('Always answer in French.');
    expect(events.some((e) => e.type === 'memory-loaded' && e.files.includes('CLAUDE.md'))).toBe(true);
    await session.send('again');
    expect(lastUser(api.requests[1])).not.toContain('Always answer in French.');
    // System and tools never change for it.
    expect(JSON.stringify(api.requests[1].body.system)).toBe(JSON.stringify(api.requests[0].body.system));
    await sandbox.writeFile('CLAUDE.md', '# Rules\nAlways answer in German.\n');
    await session.send('and now?');
    expect(lastUser(api.requests[2])).toContain('Always answer in German.');
  });

  it('cuts a 1 MB CLAUDE.md with a note, and takes memory from the embedding page', async () => {
    await sandbox.writeFile('CLAUDE.md', `${'x'.repeat(1_000_000)}\n`);
    session.setMemory?.('Host rule: be brief.');
    api.script([ok()]);
    await session.send('hi');
    const body = lastUser(api.requests[0]);
    expect(body).toContain('Host rule: be brief.');
    expect(body).toContain('The memory was cut');
    expect(api.requests[0].rawBody.length).toBeLessThan(MAX_MEMORY_CHARS + 30_000);
    expect(events.find((e) => e.type === 'memory-loaded')).toMatchObject({ cutChars: expect.any(Number) });
  });
});

describe('slash commands', () => {
  it('expands a project command and a skill; the typed text is what the page shows', async () => {
    api.script([ok(), ok()]);
    await session.send('/fix-issue 12 the login bug');
    expect(lastUser(api.requests[0])).toContain('Fix issue #12 and explain: 12 the login bug');
    expect(lastUser(api.requests[0])).not.toContain('/fix-issue');
    expect(events.find((e) => e.type === 'run-start')).toMatchObject({
      prompt: '/fix-issue 12 the login bug',
    });
    await session.send('/release 1.2.0');
    expect(lastUser(api.requests[1])).toContain('Bump the version, then tag it.');
    expect(lastUser(api.requests[1])).toContain("The user's request: 1.2.0");
    const names = (await session.listCommands?.())?.map((c) => `${c.source}:${c.name}`) ?? [];
    expect(names).toEqual(expect.arrayContaining(['builtin:compact', 'project:fix-issue', 'skill:release']));
  });

  it('refuses an unknown command with a hint and sends nothing', async () => {
    await session.send('/compcat');
    await session.send('/clear');
    expect(api.requests).toHaveLength(0);
    const refused = events.flatMap((e) => (e.type === 'prompt-refused' ? [e.reason] : []));
    expect(refused[0]).toContain('Unknown command /compcat');
    expect(refused[0]).toContain('/compact');
    expect(refused[1]).toContain('never sent to the model');
    // A path is not a command.
    api.script([ok()]);
    await session.send('/src/app.ts has a bug');
    expect(api.requests).toHaveLength(1);
  });
});

describe('mentions and ! mode', () => {
  it('attaches a mentioned file as Read gives it, so Edit may change it without a Read', async () => {
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: 'src/app.ts', old_string: '41', new_string: '42' },
          },
        ],
      },
      ok('fixed'),
    ]);
    await session.send('fix @src/app.ts please');
    expect(lastUser(api.requests[0])).toContain('export const answer = 41;');
    expect(await sandbox.readFile('src/app.ts')).toBe('export const answer = 42;\n');
    expect(events.find((e) => e.type === 'mentions-attached')).toMatchObject({
      paths: ['src/app.ts'],
      problems: [],
    });
  });

  it('notes a mention of a missing file', async () => {
    api.script([ok()]);
    await session.send('look at @nope.ts');
    expect(lastUser(api.requests[0])).toContain('there is no such file');
  });

  it('runs a ! line in the sandbox without a request; its output joins the next prompt', async () => {
    const run = await session.runShell?.('cat src/app.ts; echo oops >&2');
    expect(run).toMatchObject({ exitCode: 0, stdout: 'export const answer = 41;\n', stderr: 'oops\n' });
    expect(api.requests).toHaveLength(0);
    api.script([ok(), ok()]);
    await session.send('what did that print?');
    expect(lastUser(api.requests[0])).toContain('<bash-input>cat src/app.ts; echo oops >&2</bash-input>');
    expect(lastUser(api.requests[0])).toContain('<bash-stderr>oops\\n</bash-stderr>');
    await session.send('next');
    expect(lastUser(api.requests[1])).not.toContain('bash-input');
  });
});

describe('/compact', () => {
  it('on an empty session says so and sends nothing', async () => {
    const r = await session.compact?.();
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining('nothing to compact') });
    expect(api.requests).toHaveLength(0);
  });

  it('summarizes with the given instructions; the next turn goes on from the summary', async () => {
    api.script([
      ok('first answer'),
      { content: [{ type: 'text', text: '<summary>They said hello.</summary>' }] },
      ok('go on'),
    ]);
    await session.send('hello');
    const r = await session.compact?.('keep the greetings');
    expect(r).toEqual({ ok: true, summarized: 2 });
    expect(lastUser(api.requests[1])).toContain(
      'Instructions from the user for this summary: keep the greetings',
    );
    expect(session.transcript()).toHaveLength(1);
    await session.send('next');
    expect(api.requests[2].status).toBe(200);
    expect(sent(api.requests[2])).toContain(COMPACTED_HEADER.slice(0, 30));
    expect(sent(api.requests[2])).toContain('They said hello.');
    expect(events.some((e) => e.type === 'compaction-end' && e.trigger === 'manual')).toBe(true);
  });

  it('a failed summarization leaves the transcript as it was', async () => {
    api.script([
      ok('first'),
      { fault: { kind: 'http', status: 400, type: 'invalid_request_error', message: 'nope' } },
    ]);
    await session.send('hello');
    const before = session.transcript();
    const r = await session.compact?.();
    expect(r?.ok).toBe(false);
    expect(session.transcript()).toEqual(before);
  });

  it('an interrupted summarization (Esc) leaves the transcript as it was, and the session goes on', async () => {
    api.script([
      ok('first'),
      // The summary streams slowly: Esc arrives while it is under way.
      { chunkDelayMs: 200, content: [{ type: 'text', text: `<summary>${'slow '.repeat(40)}</summary>` }] },
      ok('still here'),
    ]);
    await session.send('hello');
    const before = session.transcript();
    // Esc once the summary request reached the API (the session is busy with it).
    const compacting = session.compact?.();
    await vi.waitFor(() => expect(api.requests).toHaveLength(2));
    expect(session.isRunning()).toBe(true);
    session.interrupt();
    const r = await compacting;
    expect(r).toEqual({ ok: false, message: expect.stringContaining('the conversation is unchanged') });
    expect(events.some((e) => e.type === 'compaction-failed' && e.trigger === 'manual')).toBe(true);
    expect(session.transcript()).toEqual(before);
    expect(session.isRunning()).toBe(false);
    await session.send('next');
    expect(api.requests[2].status).toBe(200);
    expect(sent(api.requests[2])).toContain('first');
    expect(sent(api.requests[2])).not.toContain('slow slow');
  });
});

describe('hooks from .claude/settings.json', () => {
  it('a UserPromptSubmit hook blocks a prompt (nothing sent); a PreToolUse hook denies a command', async () => {
    await sandbox.writeFile(
      '.claude/settings.json',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                { type: 'command', command: `grep -q secret && { echo "no secrets" >&2; exit 2; }; exit 0` },
              ],
            },
          ],
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: `grep -q '"rm ' && { echo "rm is blocked by policy" >&2; exit 2; }; exit 0`,
                },
              ],
            },
          ],
        },
      }),
    );
    await session.send('my secret is 42');
    expect(api.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'prompt-refused')).toMatchObject({
      reason: expect.stringContaining('no secrets'),
    });
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command: 'rm CLAUDE.md' } }] },
      ok('stopped'),
    ]);
    await session.send('clean up');
    expect(await sandbox.exists('CLAUDE.md')).toBe(true);
    expect(sent(api.requests[1])).toContain('rm is blocked by policy');
    expect(session.hooks?.list().map((h) => h.event)).toEqual(['UserPromptSubmit', 'PreToolUse']);
  });
});

describe('the context window', () => {
  it('comes from the Models API when it says, else from the table', async () => {
    expect(await session.contextWindow?.()).toEqual({ tokens: 150_000, source: 'models-api' });
    expect(await session.contextWindow?.('claude-opus-4-99')).toEqual({ tokens: 200_000, source: 'table' });
  });
});
