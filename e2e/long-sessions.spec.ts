/**
 * Long sessions and Claude Code habits in real Chromium, the built site and the real SDK against the
 * mock Messages API (which refuses every request the real API would, checks thinking signatures, and
 * enforces a small context window): a long scripted session auto-compacts and goes on with valid
 * requests; /clear, /compact, /model, /context and a project command work and none reaches the model as
 * text; a CLAUDE.md rule is in the request; a PreToolUse hook denies a command; thinking is shown
 * collapsed and sent back with its signature.
 */
import { expect, type Page, test } from '@playwright/test';
import { type MockApi, type RecordedRequest, startMockApi, type TurnSpec } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  openSideTab,
  SCREENSHOT_DIR,
  sendPrompt,
  toolCard,
  waitIdle,
} from './support/app.ts';

/** The window the mock enforces and lists for its models (tokens). */
const WINDOW = 40_000;
const MODEL = 'claude-sonnet-4-6';

let api: MockApi;
test.beforeAll(async () => {
  api = await startMockApi({ contextWindow: WINDOW });
});
test.afterAll(() => api.close());
test.beforeEach(() => api.reset());

/** The user-typed text blocks of a request (reminders left out). */
function userTexts(req: RecordedRequest): string[] {
  return req.body.messages.flatMap((m) =>
    m.role === 'user' && typeof m.content !== 'string'
      ? m.content.flatMap((b) =>
          b.type === 'text' && !b.text.startsWith('<system-reminder>') ? [b.text] : [],
        )
      : [],
  );
}
const lastUserJson = (req: RecordedRequest | undefined) => JSON.stringify(req?.body.messages.at(-1) ?? {});
const isSummaryRequest = (req: RecordedRequest) => lastUserJson(req).includes('about to be compacted');

/** Types a line and presses Enter (commands, `!` lines: the box empties, nothing may be sent). */
async function typeLine(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('prompt-input');
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
}

async function setModel(page: Page): Promise<void> {
  await typeLine(page, `/model ${MODEL}`);
  await expect(page.getByTestId('command-output').last()).toContainText(`Model set to ${MODEL}`);
  await expect(page.getByTestId('model-name')).toHaveText(MODEL);
}

test('a long scripted session auto-compacts and goes on with valid requests', async ({ page }) => {
  const talk = (i: number) => `Step ${i}: ${'the analysis goes on and on '.repeat(300)}`;
  const turns: TurnSpec[] = Array.from({ length: 14 }, (_, i) => ({
    content: [
      { type: 'text', text: talk(i) },
      { type: 'tool_use', name: 'Bash', input: { command: `echo step-${i}` } },
    ],
  }));
  turns.push({ content: [{ type: 'text', text: 'All fourteen steps are done.' }] });
  const summary: TurnSpec = {
    content: [
      {
        type: 'text',
        text: '<summary>1. Task: run the fourteen steps. 6. Next step: go on with the next step.</summary>',
      },
    ],
  };
  api.script(
    Array.from(
      { length: 30 },
      () => (req: RecordedRequest) => (isSummaryRequest(req) ? summary : (turns.shift() ?? summary)),
    ),
  );
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await setModel(page);
  await sendPrompt(page, 'Run the fourteen steps.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All fourteen steps are done.', {
    timeout: 45_000,
  });
  await waitIdle(page);

  // Every request was valid (the mock refuses what the API refuses, and anything over the window).
  expect(api.requests.map((r) => r.status).every((s) => s === 200)).toBe(true);
  const at = api.requests.findIndex(isSummaryRequest);
  expect(at).toBeGreaterThan(0);
  const before = api.requests[at - 1];
  const after = api.requests[at + 1];
  // Tools and system byte-identical across the compaction, so their cache is read right after it.
  expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(before.body.tools));
  expect(JSON.stringify(after.body.system)).toBe(JSON.stringify(before.body.system));
  expect(after.response?.usage.cache_read_input_tokens).toBeGreaterThan(0);
  expect(after.rawBody.length).toBeLessThan(before.rawBody.length);
  // The loop went on after it: more steps ran.
  expect(api.requests.length).toBeGreaterThan(at + 2);

  // The divider says what happened; the messages before it are still in the transcript.
  const divider = page
    .getByTestId('compaction-divider')
    .filter({ has: page.getByTestId('compaction-toggle') });
  await expect(divider).toHaveAttribute('data-status', 'done');
  await expect(divider).toHaveAttribute('data-trigger', 'auto');
  await divider.getByTestId('compaction-toggle').click();
  await expect(divider.getByTestId('compaction-summary')).toContainText('run the fourteen steps');
  await expect(page.getByTestId('assistant-text').first()).toContainText('Step 0');
  // The meter measures the context from the last request: under the threshold again.
  const meter = page.getByTestId('context-meter');
  await expect(meter).toBeVisible();
  expect(Number(await meter.getAttribute('data-percent'))).toBeLessThan(85);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/long-session-compacted.png` });
});

test('the context meter warns from 80 % of the window (auto-compaction off: nothing is compacted)', async ({
  page,
}) => {
  // Several long replies rendered one after the other: slow on a busy machine, so a longer budget.
  test.setTimeout(150_000);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await setModel(page);
  await page.getByTestId('settings-button').click();
  await page.getByTestId('auto-compact-select').selectOption('off');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();

  /** The context the last request measured, as the meter computes it (input, cache, output). */
  const measured = () => {
    const u = api.requests.at(-1)?.response?.usage;
    if (!u) return 0;
    return (
      u.input_tokens +
      (u.cache_read_input_tokens ?? 0) +
      (u.cache_creation_input_tokens ?? 0) +
      u.output_tokens
    );
  };
  const meter = page.getByTestId('context-meter');
  // Each reply (at most a long answer's worth of tokens) brings the conversation nearer 90 % of the window.
  const MAX_REPLY_TOKENS = 7_000;
  for (let turn = 0; turn < 8; turn++) {
    const used = measured();
    if (used >= 0.8 * WINDOW) break;
    if (turn > 0) await expect(meter).toHaveAttribute('data-level', 'ok');
    const tokens = turn === 0 ? 10 : Math.max(10, Math.min(MAX_REPLY_TOKENS, 0.9 * WINDOW - used - 200));
    api.script([{ content: [{ type: 'text', text: `Reply ${turn}: ${'x'.repeat(tokens * 4)}` }] }]);
    await sendPrompt(page, `Go on (${turn}).`);
    await expect(page.getByTestId('assistant-text').last()).toContainText(`Reply ${turn}:`);
    await waitIdle(page);
  }
  const used = measured();
  expect(used).toBeGreaterThanOrEqual(0.8 * WINDOW);
  expect(used).toBeLessThan(WINDOW);
  await expect(meter).toHaveAttribute('data-level', 'warn');
  await expect(meter).toHaveAttribute('data-percent', String(Math.round((used / WINDOW) * 100)));
  await meter.click();
  const panel = page.getByTestId('usage-context');
  await expect(panel).toHaveAttribute('data-level', 'warn');
  await expect(page.getByTestId('context-warning')).toContainText('Use /compact before it runs out.');
  // Auto-compaction is off: every request was a turn, none a summary.
  expect(api.requests.some(isSummaryRequest)).toBe(false);
  expect(api.requests.every((r) => r.status === 200)).toBe(true);
});

test('slash commands run in the page: /model, /context, /compact (empty, then with instructions), a project command, /clear; none reaches the model as text', async ({
  page,
}) => {
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await setModel(page);

  // The menu offers commands as they are typed; Tab completes.
  const input = page.getByTestId('prompt-input');
  await input.fill('/cont');
  await expect(page.getByTestId('slash-item').first()).toHaveAttribute('data-name', 'context');
  await input.press('Tab');
  await expect(input).toHaveValue('/context ');
  // "/" lists every command (/model too), and the arrow keys reach the rows below the menu's fold:
  // Up from the first row is the last one, scrolled into view.
  await input.fill('/');
  const items = page.getByTestId('slash-item');
  await expect(page.locator('[data-testid="slash-item"][data-name="model"]')).toHaveCount(1);
  expect(await items.count()).toBeGreaterThan(8);
  await input.press('ArrowUp');
  await expect(items.last()).toHaveAttribute('aria-selected', 'true');
  await expect(items.last()).toBeInViewport();
  const lastName = await items.last().getAttribute('data-name');
  await input.press('Tab');
  await expect(input).toHaveValue(`/${lastName} `);
  await input.fill('');

  // A project command, written with ! (the shell line runs in the sandbox, nothing is sent).
  await typeLine(
    page,
    `!mkdir -p .claude/commands && printf 'Greet $ARGUMENTS warmly.\\n' > .claude/commands/greet.md`,
  );
  await expect(page.getByTestId('shell-run').last()).toHaveAttribute('data-status', 'done');
  expect(api.requests).toHaveLength(0);

  // /compact with nothing to compact says so; nothing is sent.
  await typeLine(page, '/compact');
  const refused = page.getByTestId('compaction-divider').last();
  await expect(refused).toHaveAttribute('data-status', 'failed');
  await expect(refused).toContainText('nothing to compact');
  expect(api.requests).toHaveLength(0);

  api.script([
    { content: [{ type: 'text', text: 'Hello!' }] },
    { content: [{ type: 'text', text: '<summary>The user said hello.</summary>' }] },
    { content: [{ type: 'text', text: 'Greetings, Ada!' }] },
    { content: [{ type: 'text', text: 'A fresh start.' }] },
  ]);
  await sendPrompt(page, 'hello');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Hello!');
  await waitIdle(page);
  // /model set the model of the requests.
  expect(api.requests[0].body.model).toBe(MODEL);

  await typeLine(page, '/context');
  const context = page.getByTestId('command-output').last();
  await expect(context).toContainText(`of ${WINDOW.toLocaleString('en-US')} tokens`);
  await expect(context).toContainText('Tools');
  await expect(context).toContainText('Messages');

  await typeLine(page, '/compact keep it short');
  await expect(page.getByTestId('compaction-divider').last()).toHaveAttribute('data-status', 'done');
  expect(api.requests).toHaveLength(2);
  expect(lastUserJson(api.requests[1])).toContain('keep it short');

  await input.fill('/gre');
  await expect(page.getByTestId('slash-item').first()).toHaveAttribute('data-name', 'greet');
  await input.fill('/greet Ada');
  await input.press('Enter');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Greetings, Ada!');
  await waitIdle(page);
  expect(lastUserJson(api.requests[2])).toContain('Greet Ada warmly.');
  // After the compaction the conversation goes on from the summary.
  expect(JSON.stringify(api.requests[2].body.messages)).toContain('The user said hello.');

  await typeLine(page, '/compcat');
  await expect(page.getByTestId('command-output').last()).toContainText('Unknown command /compcat');
  await expect(page.getByTestId('command-output').last()).toContainText('/compact');

  await typeLine(page, '/clear');
  await expect(page.getByTestId('user-message')).toHaveCount(0);
  expect(api.requests).toHaveLength(3);
  // After /clear the next prompt starts a new conversation: nothing of the old one is sent.
  await sendPrompt(page, 'start over');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('A fresh start.');
  await waitIdle(page);
  expect(api.requests).toHaveLength(4);
  const fresh = api.requests[3].body.messages;
  expect(fresh).toHaveLength(1);
  expect(JSON.stringify(fresh)).not.toContain('hello');
  expect(JSON.stringify(fresh)).not.toContain('Ada');
  // No command's text was ever sent as a prompt.
  for (const r of api.requests) {
    for (const t of userTexts(r)) expect(t).not.toMatch(/^\/(clear|compact|model|context|compcat|greet)\b/);
  }
});

test('CLAUDE.md is in the request, an @-mentioned file is attached, and a PreToolUse hook denies a command', async ({
  page,
}) => {
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await typeLine(page, `!printf '# Rules\\nAlways say which file you changed.\\n' > CLAUDE.md`);
  const settings = JSON.stringify({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `grep -q '"rm ' && { echo "rm is not allowed here" >&2; exit 2; }; exit 0`,
            },
          ],
        },
      ],
    },
  });
  await typeLine(page, `!mkdir -p .claude && cat > .claude/settings.json <<'EOF'\n${settings}\nEOF`);
  await expect(page.getByTestId('shell-run')).toHaveCount(2);
  await expect(page.getByTestId('shell-run').last()).toHaveAttribute('data-exit-code', '0');

  // The hook is listed in the Permissions panel.
  await openSideTab(page, 'rules');
  await expect(page.getByTestId('hook-item')).toHaveAttribute('data-event', 'PreToolUse');

  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command: 'rm README.md' } }] },
    { content: [{ type: 'text', text: 'The hook refused the rm; README.md stays.' }] },
  ]);
  const input = page.getByTestId('prompt-input');
  await input.fill('Tidy up @READ');
  await expect(page.getByTestId('mention-item').first()).toHaveAttribute('data-path', 'README.md');
  await input.press('Tab');
  await expect(input).toHaveValue('Tidy up @README.md ');
  await input.press('Enter');
  await expect(page.getByTestId('assistant-text').last()).toHaveText(
    'The hook refused the rm; README.md stays.',
  );
  await waitIdle(page);

  const first = lastUserJson(api.requests[0]);
  expect(first).toContain('Always say which file you changed.');
  expect(first).toContain('# Weather notes');
  expect(first).toContain('<bash-input>');
  await expect(page.getByTestId('habit-note').filter({ hasText: 'Memory read: CLAUDE.md' })).toBeVisible();
  const card = toolCard(page, 'toolu_rm');
  await expect(card).toHaveAttribute('data-status', 'error');
  await expect(card.getByTestId('tool-result')).toContainText('rm is not allowed here');
  expect(JSON.stringify(api.requests[1].body.messages)).toContain('rm is not allowed here');
  await expect(page.getByTestId('file-item').filter({ hasText: 'README.md' }).first()).toBeAttached();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/hook-denied.png` });
});

test('thinking is shown collapsed and sent back with its signature on the next request', async ({ page }) => {
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await page.getByTestId('settings-button').click();
  await page.getByTestId('thinking-select').selectOption('1024');
  await page.getByTestId('settings-save').click();
  api.script([
    {
      content: [
        { type: 'thinking', thinking: 'The user wants the file list; ls shows it.', signature: 'sig-e2e-1' },
        { type: 'tool_use', id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } },
      ],
    },
    {
      content: [
        { type: 'thinking', thinking: 'README.md is there.' },
        { type: 'text', text: 'There is a README.md.' },
      ],
    },
  ]);
  await sendPrompt(page, 'What files are there?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('There is a README.md.');
  await waitIdle(page);

  const blocks = page.getByTestId('thinking-block');
  await expect(blocks).toHaveCount(2);
  await expect(page.getByTestId('thinking-text')).toHaveCount(0);
  await blocks.first().getByTestId('thinking-toggle').click();
  await expect(blocks.first().getByTestId('thinking-text')).toHaveText(
    'The user wants the file list; ls shows it.',
  );

  expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  const second = api.requests[1].body;
  expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  const assistant = second.messages.find((m) => m.role === 'assistant');
  const content = typeof assistant?.content === 'string' ? [] : (assistant?.content ?? []);
  expect(content[0]).toEqual({
    type: 'thinking',
    thinking: 'The user wants the file list; ls shows it.',
    signature: 'sig-e2e-1',
  });
});
