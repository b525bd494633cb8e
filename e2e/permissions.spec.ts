/**
 * Permissions in the page: the prompt flow (allow once, allow always with the rule it adds, deny with
 * feedback that reaches the model as an is_error tool_result), queued prompts, settings rules refused
 * with a reason and kept across a reload, and plan mode refusing a write with a clear message.
 * Real Chromium, the built site, the real SDK against the mock Messages API.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  connect,
  openApp,
  openSideTab,
  resultText,
  SCREENSHOT_DIR,
  sendPrompt,
  toolCard,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

const prompt = (page: Page, toolUseId: string) => toolCard(page, toolUseId).getByTestId('permission-request');

async function openRules(page: Page) {
  await openSideTab(page, 'rules');
  await expect(page.getByTestId('permission-rules')).toBeVisible();
}

test('prompts: allow once, allow always (adds the rule shown), deny with feedback the model receives', async ({
  page,
}) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Creating the notes file.' },
        {
          type: 'tool_use',
          id: 'toolu_write',
          name: 'Write',
          input: { file_path: `${ROOT}/notes.md`, content: 'hi\n' },
        },
      ],
    },
    {
      content: [{ type: 'tool_use', id: 'toolu_mkdir', name: 'Bash', input: { command: 'mkdir -p build' } }],
    },
    {
      content: [
        { type: 'tool_use', id: 'toolu_mkdir2', name: 'Bash', input: { command: 'mkdir -p build/out' } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_secret',
          name: 'Write',
          input: { file_path: `${ROOT}/secret.txt`, content: 'x' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Understood: nothing written to secret.txt.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await expect(page.getByTestId('mode-switch')).toHaveValue('default');
  await sendPrompt(page, 'Set up notes and a build folder.');

  // 1. Allow once: the Write asks, says what it changes, offers the rule "allow always" would add.
  const write = prompt(page, 'toolu_write');
  await expect(write).toBeVisible();
  await expect(write.getByTestId('permission-message')).toContainText('Write wants to change notes.md');
  await expect(write.getByTestId('permission-rule')).toHaveText('Write(/notes.md)');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/permission-prompt.png` });
  await write.getByTestId('permission-allow-once').click();
  await expect(toolCard(page, 'toolu_write')).toHaveAttribute('data-status', 'done');

  // 2. Allow always: the prompt shows the rule it adds; the next mkdir runs without asking.
  const mkdir = prompt(page, 'toolu_mkdir');
  await expect(mkdir.getByTestId('permission-rule')).toHaveText('Bash(mkdir:*)');
  // The command as it was written, in a <code> element: no markdown backticks in the text.
  await expect(mkdir.getByTestId('permission-message').locator('code')).toHaveText('mkdir -p build');
  await expect(mkdir.getByTestId('permission-message')).not.toContainText('`');
  await mkdir.getByTestId('permission-allow-always').click();
  await expect(toolCard(page, 'toolu_mkdir')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_mkdir2')).toHaveAttribute('data-status', 'done');
  await expect(prompt(page, 'toolu_mkdir2')).toHaveCount(0);

  // 3. Deny with feedback: the card is an error that carries the feedback.
  const secret = prompt(page, 'toolu_secret');
  await secret
    .getByTestId('permission-feedback')
    .fill('Do not create secret files; add it to notes.md instead.');
  await secret.getByTestId('permission-deny').click();
  const secretCard = toolCard(page, 'toolu_secret');
  await expect(secretCard).toHaveAttribute('data-status', 'error');
  await expect(secretCard.getByTestId('tool-result')).toContainText('add it to notes.md instead');
  await expect(page.getByTestId('assistant-text').last()).toHaveText(
    'Understood: nothing written to secret.txt.',
  );
  await waitIdle(page);

  // What the model received: the denial as an is_error tool_result with the user's words.
  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  const denied = toolResultFor(api.requests[4], 'toolu_secret');
  expect(denied?.is_error).toBe(true);
  expect(resultText(denied ?? {})).toContain("The user doesn't want to proceed with this tool use.");
  expect(resultText(denied ?? {})).toContain('Do not create secret files; add it to notes.md instead.');
  expect(toolResultFor(api.requests[1], 'toolu_write')?.is_error).toBeUndefined();

  // The sandbox: notes.md and both folders exist, secret.txt does not.
  const files = await page
    .getByTestId('file-item')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  expect(files).toContain('notes.md');
  expect(files).not.toContain('secret.txt');

  // The Permissions tab lists the rule with its source: kept for this project.
  await openRules(page);
  const row = page.locator('[data-testid="permission-rule-row"][data-rule="Bash(mkdir:*)"]');
  await expect(row).toHaveAttribute('data-source', 'project');
  await expect(row.getByTestId('permission-rule-source')).toHaveText('this project');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/permission-rules.png` });

  // A reload keeps it: listed again, and a matching call runs without a prompt.
  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await openRules(page);
  await expect(row).toHaveAttribute('data-source', 'project');
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_mkdir3', name: 'Bash', input: { command: 'mkdir -p build/again' } },
      ],
    },
    { content: [{ type: 'text', text: 'Made it.' }] },
  ]);
  await connect(page, api);
  await sendPrompt(page, 'One more folder.');
  await expect(toolCard(page, 'toolu_mkdir3')).toHaveAttribute('data-status', 'done');
  await expect(prompt(page, 'toolu_mkdir3')).toHaveCount(0);
  await waitIdle(page);

  // Removing it from the panel removes it for good.
  await row.getByTestId('permission-rule-remove').click();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await openRules(page);
  await expect(page.getByTestId('permission-group-allow')).toContainText('No allow rules.');
});

test('the prompt takes focus and answers by key: 1 once, 2 always, 3 feedback, Esc deny', async ({
  page,
}) => {
  const write = (id: string, name: string) => ({
    content: [
      {
        type: 'tool_use' as const,
        id,
        name: 'Write',
        input: { file_path: `${ROOT}/${name}`, content: 'x\n' },
      },
    ],
  });
  api.script([
    write('toolu_k1', 'one.md'),
    { content: [{ type: 'tool_use', id: 'toolu_k2', name: 'Bash', input: { command: 'touch two.md' } }] },
    { content: [{ type: 'tool_use', id: 'toolu_k2b', name: 'Bash', input: { command: 'touch three.md' } }] },
    write('toolu_k3', 'secret.md'),
    write('toolu_k4', 'other.md'),
    { content: [{ type: 'text', text: 'Done with keys.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await sendPrompt(page, 'Keys.');

  // 1: allow once.
  const first = prompt(page, 'toolu_k1');
  await expect(first).toBeFocused();
  await page.keyboard.press('1');
  await expect(toolCard(page, 'toolu_k1')).toHaveAttribute('data-status', 'done');

  // 2: allow always (the next touch runs without asking).
  const second = prompt(page, 'toolu_k2');
  await expect(second).toBeFocused();
  await expect(second.getByTestId('permission-rule')).toHaveText('Bash(touch:*)');
  await page.keyboard.press('2');
  await expect(toolCard(page, 'toolu_k2b')).toHaveAttribute('data-status', 'done');
  await expect(prompt(page, 'toolu_k2b')).toHaveCount(0);

  // 3: the feedback field takes focus; typed text (digits too) is feedback; Enter denies with it.
  const third = prompt(page, 'toolu_k3');
  await expect(third).toBeFocused();
  await page.keyboard.press('3');
  await expect(third.getByTestId('permission-feedback')).toBeFocused();
  await page.keyboard.type('Not 2 secrets, use notes.md');
  await page.keyboard.press('Enter');
  await expect(toolCard(page, 'toolu_k3').getByTestId('tool-result')).toContainText(
    'Not 2 secrets, use notes.md',
  );

  // Esc denies this call; the run goes on (Esc on a prompt is not an interrupt).
  const fourth = prompt(page, 'toolu_k4');
  await expect(fourth).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toolCard(page, 'toolu_k4')).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Done with keys.');
  await waitIdle(page);
  const files = await page
    .getByTestId('file-item')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  expect(files).toEqual(expect.arrayContaining(['one.md', 'two.md', 'three.md']));
  expect(files).not.toContain('secret.md');
  expect(files).not.toContain('other.md');
});

test('settings rules: a malformed rule is refused with the reason, good ones apply and survive a reload; prompts queue', async ({
  page,
}) => {
  await openApp(page);
  await connect(page, api);
  await openRules(page);
  const input = page.getByTestId('permission-add-input');

  // Refused with the reason; nothing saved.
  await input.fill('bash(cat:*)');
  await page.getByTestId('permission-add').click();
  await expect(page.getByTestId('permission-add-error')).toContainText('did you mean Bash?');
  await input.fill('Read(!notes.md)');
  await page.getByTestId('permission-add').click();
  await expect(page.getByTestId('permission-add-error')).toContainText('Negated patterns');
  await expect(page.getByTestId('permission-rule-row')).toHaveCount(0);

  // A good ask rule is listed with its source, and kept across a reload (IndexedDB).
  await page.getByTestId('permission-add-behavior').selectOption('ask');
  await input.fill('Read(*.md)');
  await page.getByTestId('permission-add').click();
  await expect(page.getByTestId('permission-add-error')).toHaveCount(0);
  const row = page.locator('[data-testid="permission-rule-row"][data-rule="Read(*.md)"]');
  await expect(row).toHaveAttribute('data-behavior', 'ask');
  await expect(row.getByTestId('permission-rule-source')).toHaveText('settings');
  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await openRules(page);
  await expect(row).toHaveAttribute('data-source', 'settings');

  // The ask rule makes two reads of one message ask; their prompts queue.
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_r1', name: 'Read', input: { file_path: `${ROOT}/README.md` } },
        { type: 'tool_use', id: 'toolu_r2', name: 'Read', input: { file_path: `${ROOT}/src/index.js` } },
        { type: 'tool_use', id: 'toolu_r3', name: 'Read', input: { file_path: `${ROOT}/package.json` } },
      ],
    },
    { content: [{ type: 'text', text: 'Read what I was allowed to.' }] },
  ]);
  await connect(page, api);
  await sendPrompt(page, 'Read the readme and the sources.');
  // index.js and package.json are not *.md: they run; README.md waits for the user.
  await expect(toolCard(page, 'toolu_r2')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_r3')).toHaveAttribute('data-status', 'done');
  const readme = prompt(page, 'toolu_r1');
  await expect(readme.getByTestId('permission-message')).toContainText('ask rule Read(*.md)');
  await readme.getByTestId('permission-deny').click();
  await expect(toolCard(page, 'toolu_r1')).toHaveAttribute('data-status', 'error');
  await waitIdle(page);
});

test('queued prompts: the oldest is answered first, the next one waits its turn', async ({ page }) => {
  await openApp(page);
  await connect(page, api);
  await openRules(page);
  await page.getByTestId('permission-add-behavior').selectOption('ask');
  await page.getByTestId('permission-add-input').fill('Read(src/**)');
  await page.getByTestId('permission-add').click();
  await expect(page.locator('[data-testid="permission-rule-row"][data-rule="Read(src/**)"]')).toBeVisible();

  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_q1', name: 'Read', input: { file_path: `${ROOT}/src/index.js` } },
        { type: 'tool_use', id: 'toolu_q2', name: 'Read', input: { file_path: `${ROOT}/src/stats.js` } },
      ],
    },
    { content: [{ type: 'text', text: 'Both read.' }] },
  ]);
  await sendPrompt(page, 'Read both sources.');
  const first = prompt(page, 'toolu_q1');
  await expect(first.getByTestId('permission-queue-count')).toHaveText('1 of 2 waiting');
  await expect(toolCard(page, 'toolu_q2').getByTestId('permission-waiting')).toContainText('2 of 2');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/permission-queue.png` });
  await first.getByTestId('permission-allow-once').click();
  await expect(toolCard(page, 'toolu_q1')).toHaveAttribute('data-status', 'done');
  const second = prompt(page, 'toolu_q2');
  await expect(second).toBeVisible();
  await expect(second.getByTestId('permission-queue-count')).toHaveCount(0);
  await second.getByTestId('permission-allow-once').click();
  await expect(toolCard(page, 'toolu_q2')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Both read.');
  await waitIdle(page);
  const next = api.requests[1];
  expect(toolResultFor(next, 'toolu_q1')?.is_error).toBeUndefined();
  expect(toolResultFor(next, 'toolu_q2')?.is_error).toBeUndefined();
});

test('plan mode: the agent refuses a write with a clear message, and nothing is written', async ({
  page,
}) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Let me look first.' },
        { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${ROOT}/README.md` } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_plan_write',
          name: 'Write',
          input: { file_path: `${ROOT}/plan.md`, content: 'x' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Plan: add plan.md once you switch modes.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await page.getByTestId('mode-switch').selectOption('plan');
  await expect(page.getByTestId('mode-switch')).toHaveValue('plan');
  await sendPrompt(page, 'Plan the change.');

  await expect(toolCard(page, 'toolu_read')).toHaveAttribute('data-status', 'done');
  const card = toolCard(page, 'toolu_plan_write');
  await expect(card).toHaveAttribute('data-status', 'error');
  await expect(card.getByTestId('tool-result')).toContainText(
    'Plan mode is on: only read-only tools may run, so Write (/home/user/project/plan.md) was refused',
  );
  await expect(card.getByTestId('permission-request')).toHaveCount(0);
  await expect(page.getByTestId('assistant-text').last()).toHaveText(
    'Plan: add plan.md once you switch modes.',
  );
  await waitIdle(page);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/plan-mode-refusal.png` });

  const refused = toolResultFor(api.requests[2], 'toolu_plan_write');
  expect(refused?.is_error).toBe(true);
  expect(resultText(refused ?? {})).toContain('Plan mode is on');
  const files = await page
    .getByTestId('file-item')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  expect(files).not.toContain('plan.md');
});
