/**
 * What a reload brings back is what was shown, in the places the sweep of workbench-durability.spec.ts
 * does not look: the todo list after a TodoWrite that was refused or never ran, or was shown before its
 * result was saved; the session a tab had open when another tab opened one since; the output a Bash
 * command printed before the reload stopped it, in the foreground or the background (what the model is
 * told); the Files editor (keys typed as it loads, text not saved), and the prompt box's text when the
 * tab's sessionStorage is full. Real Chromium, the built site, the real SDK against the mock Messages API.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connectRemembering,
  openApp,
  resultText,
  sendPrompt,
  terminalText,
  toolCard,
  toolResultFor,
  waitIdle,
  waitSaved,
  withMockApi,
} from './support/app.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

/** After a reload: the next prompt is answered, and the result the model got for `toolUseId` with it. */
async function resultAfterNextPrompt(page: Page, toolUseId: string) {
  api.script([{ content: [{ type: 'text', text: 'Noted.' }] }]);
  await sendPrompt(page, 'next');
  await waitIdle(page);
  return toolResultFor(api.requests[api.requests.length - 1], toolUseId);
}

async function start(page: Page): Promise<void> {
  await openApp(page);
  await connectRemembering(page, api);
}

test('the todo list after a reload is the last one TodoWrite accepted, not one it refused', async ({
  page,
}) => {
  await start(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_tgood',
          name: 'TodoWrite',
          input: {
            todos: [{ content: 'Good item', status: 'in_progress', activeForm: 'Doing the good item' }],
          },
        },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_tbad',
          name: 'TodoWrite',
          input: {
            todos: [
              { content: 'Bad A', status: 'in_progress', activeForm: 'A' },
              { content: 'Bad B', status: 'in_progress', activeForm: 'B' },
            ],
          },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Todos done.' }] },
  ]);
  await sendPrompt(page, 'Plan it');
  await waitIdle(page);
  await expect(toolCard(page, 'toolu_tbad')).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('todo-strip-item')).toHaveText(['◐ Good item']);
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('user-message')).toHaveText('Plan it');
  // The list the restored session holds (the agent's, once the session is open), not the first paint's.
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('todo-strip-item')).toHaveText(['◐ Good item']);
  await page.getByTestId('todo-strip').getByRole('button').click();
  await expect(page.getByTestId('todo-strip-item')).toHaveText(['◐ Good item']);
});

test('a todo list shown before its result was saved is the list after a reload, and the model is told it was kept', async ({
  page,
}) => {
  await start(page);
  // A PostToolUse hook that takes its time holds back the second list's result: the list is shown (the
  // strip, the running card) and not saved yet when the page reloads.
  const settings = JSON.stringify({
    hooks: {
      PostToolUse: [
        {
          matcher: 'TodoWrite',
          hooks: [{ type: 'command', command: "grep -q 'New item' && sleep 30; exit 0" }],
        },
      ],
    },
  });
  const input = page.getByTestId('prompt-input');
  await input.fill(`!mkdir -p .claude && cat > .claude/settings.json <<'EOF'\n${settings}\nEOF`);
  await input.press('Enter');
  await expect(page.getByTestId('shell-run')).toHaveAttribute('data-exit-code', '0');
  const todo = (id: string, content: string) => ({
    type: 'tool_use' as const,
    id,
    name: 'TodoWrite',
    input: { todos: [{ content, status: 'in_progress', activeForm: `Doing: ${content}` }] },
  });
  api.script([{ content: [todo('toolu_told', 'Old item')] }, { content: [todo('toolu_tnew', 'New item')] }]);
  await sendPrompt(page, 'Plan it');
  await expect(toolCard(page, 'toolu_tnew')).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('todo-strip-item')).toHaveText(['◐ New item']);
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('todo-strip-item')).toHaveText(['◐ New item']);
  await expect(toolCard(page, 'toolu_tnew')).toHaveAttribute('data-status', 'done');
  const result = await resultAfterNextPrompt(page, 'toolu_tnew');
  expect(result?.is_error ?? false).toBe(false);
  expect(resultText(result ?? {})).toContain('[~] New item');
});

test('a reload reopens the session this tab had, though another tab opened one of its own since', async ({
  page,
  context,
}) => {
  api.script([{ content: [{ type: 'text', text: 'Reply one.' }] }]);
  await start(page);
  await sendPrompt(page, 'tab one prompt');
  await waitIdle(page);
  await waitSaved(page);

  const second = await context.newPage();
  await second.goto('/');
  await expect(second.getByTestId('readonly-banner')).toBeVisible();
  await second.getByTestId('readonly-new').click();
  await expect(second.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  api.script([{ content: [{ type: 'text', text: 'Reply two.' }] }]);
  await sendPrompt(second, 'tab two prompt');
  await waitIdle(second);
  await waitSaved(second);

  await page.reload();
  await expect(page.getByTestId('user-message')).toHaveText(['tab one prompt']);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('readonly-banner')).toHaveCount(0);
  await expect(page.getByTestId('prompt-input')).toBeEnabled();
  await second.close();
});

test('a Bash command the reload stopped: the model gets the output the card showed, and that it was stopped', async ({
  page,
}) => {
  await start(page);
  await allowEverything(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_bp',
          name: 'Bash',
          input: { command: 'echo OUT-ONE; echo OUT-TWO; sleep 4; echo OUT-THREE' },
        },
      ],
    },
  ]);
  await sendPrompt(page, 'run it');
  const output = toolCard(page, 'toolu_bp').getByTestId('tool-progress');
  await expect(output).toContainText('OUT-TWO');
  await page.reload();
  await expect(output).toContainText('OUT-ONE\nOUT-TWO');
  const result = await resultAfterNextPrompt(page, 'toolu_bp');
  expect(result?.is_error).toBe(true);
  const text = resultText(result ?? {});
  expect(text).toContain('reloaded');
  expect(text).toContain('OUT-ONE\nOUT-TWO');
  expect(text).not.toContain('OUT-THREE');
});

test('a background command the reload stopped: its card keeps what it printed and reads stopped, and the model is told so', async ({
  page,
}) => {
  await start(page);
  await allowEverything(page);
  const command = 'i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo bgtick $i; sleep 0.5; done';
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_bg', name: 'Bash', input: { command, run_in_background: true } },
      ],
    },
    { content: [{ type: 'text', text: 'Started.' }] },
  ]);
  await sendPrompt(page, 'start it');
  await waitIdle(page);
  const card = toolCard(page, 'toolu_bg');
  const state = card.getByTestId('terminal-state');
  // The card follows the command: its output as it comes, and that it runs.
  await expect(card.getByTestId('terminal-result')).toContainText('bgtick 2');
  await expect(state).toContainText('running in the background');
  // Its header says so too (the call itself is done: it started the command).
  await expect(card.getByTestId('tool-status')).toHaveText('in background');
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(state).toHaveText('stopped by the page reload');
  await expect(card.getByTestId('tool-status')).not.toHaveText('in background');
  await expect(card.getByTestId('terminal-result')).toContainText('bgtick 1\nbgtick 2');
  await expect(card).not.toContainText('bgtick 60');

  // The next prompt tells the model, with the output so far; BashOutput then says the same of the ID.
  const started = resultText(toolResultFor(api.requests[1], 'toolu_bg') ?? {});
  const id = /bg-\d+-\w+/.exec(started)?.[0] ?? 'missing';
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_bo', name: 'BashOutput', input: { bash_id: id } }] },
    { content: [{ type: 'text', text: 'Noted.' }] },
  ]);
  await sendPrompt(page, 'next');
  await waitIdle(page);
  const told = JSON.stringify(api.requests.at(-2)?.body.messages.at(-1));
  expect(told).toContain(`stopped the background command ${id}`);
  expect(told).toContain('stopped by the page reload');
  expect(told).toMatch(/bgtick 1\\nbgtick 2/);
  expect(told).not.toContain('bgtick 60');
  const output = resultText(toolResultFor(api.requests[api.requests.length - 1], 'toolu_bo') ?? {});
  expect(output).toContain('the reload stopped it');
  // A second reload tells the model nothing new: the card reads stopped, the note was given once.
  await waitSaved(page);
  await page.reload();
  await expect(state).toHaveText('stopped by the page reload');
  const again = await resultAfterNextPrompt(page, 'toolu_bg');
  expect(again).toBeDefined();
  const notes = JSON.stringify(api.requests.at(-1)?.body.messages).split(
    `stopped the background command ${id}`,
  );
  expect(notes).toHaveLength(2);
});

test('a session of ! lines only is saved: after a reload it is listed, shows their output (also what a stopped one had printed), and the model gets them', async ({
  page,
}) => {
  await start(page);
  const input = page.getByTestId('prompt-input');
  await input.fill('!echo FIRST-RUN');
  await input.press('Enter');
  const runs = page.getByTestId('shell-run');
  await expect(runs.first()).toHaveAttribute('data-status', 'done');
  // A run's output shows as it arrives, before the run ends.
  await input.fill('!echo PART-ONE; sleep 5; echo PART-TWO');
  await input.press('Enter');
  await expect(runs.nth(1)).toHaveAttribute('data-status', 'running');
  await expect(runs.nth(1).getByTestId('shell-output')).toContainText('PART-ONE');
  await waitSaved(page);
  await page.reload();
  await expect(runs).toHaveCount(2);
  await expect(runs.first().getByTestId('shell-output')).toContainText('FIRST-RUN');
  await expect(runs.nth(1)).toHaveAttribute('data-status', 'done');
  await expect(runs.nth(1).getByTestId('shell-output')).toContainText('PART-ONE');
  await expect(runs.nth(1).getByTestId('shell-output')).not.toContainText('PART-TWO');
  await expect(page.getByTestId('session-title')).toHaveCount(1);
  expect(api.requests).toHaveLength(0);
  api.script([{ content: [{ type: 'text', text: 'Seen.' }] }]);
  await sendPrompt(page, 'what did I run?');
  await waitIdle(page);
  const sent = JSON.stringify(api.requests.at(-1)?.body.messages.at(-1));
  expect(sent).toContain('<bash-input>echo FIRST-RUN</bash-input>');
  expect(sent).toContain('FIRST-RUN');
  expect(sent).toContain('PART-ONE');
});

test('the Files editor keeps every key typed while it loads, and text not saved comes back after a reload', async ({
  page,
}) => {
  await openApp(page);
  const file = page.locator('[data-testid="file-item"]').first();
  const path = await file.getAttribute('data-path');
  await file.click();
  await page.getByTestId('file-edit').click();
  const typed = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (const ch of typed) await page.keyboard.type(ch, { delay: 20 });
  const editor = page.locator('.code-editor[data-editor="codemirror"] .cm-content');
  await expect(editor).toContainText(typed);

  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  // The file this tab had open opens again by itself, with the text not saved.
  await expect(page.getByTestId('file-viewer')).toBeVisible();
  await expect(page.getByTestId('file-draft-restored')).toBeVisible();
  await expect(editor).toContainText(typed);
  // Cancel drops it: the next reload shows the file as saved.
  await page.getByTestId('file-cancel').click();
  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await expect(page.getByTestId('file-content')).toBeVisible();
  await expect(page.getByTestId('file-draft-restored')).toHaveCount(0);
  await expect(page.getByTestId('file-content')).not.toContainText(typed);
  expect(await page.getByTestId('file-viewer').getAttribute('data-path')).toBe(path);
  // A viewer closed stays closed after a reload.
  await page.getByTestId('file-close').click();
  await expect(page.getByTestId('file-viewer')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('file-item').first()).toBeVisible();
  await expect(page.getByTestId('file-viewer')).toHaveCount(0);
});

test("the prompt box's text survives a reload when the tab's sessionStorage is full", async ({ page }) => {
  await start(page);
  await page.evaluate(() => {
    let chunk = 'x'.repeat(1 << 20);
    let i = 0;
    while (chunk.length > 8) {
      try {
        sessionStorage.setItem(`__fill${i++}`, chunk);
      } catch {
        chunk = chunk.slice(0, chunk.length >> 1);
      }
    }
  });
  await page.getByTestId('prompt-input').fill('my precious draft');
  await page.reload();
  await expect(page.getByTestId('prompt-input')).toHaveValue('my precious draft');
});

test('a background command whose session was left before the reload: the model is not told the reload stopped it', async ({
  page,
}) => {
  // Its card stopped following the command when the session was left; the command ended (its work
  // done) while another session was open. Before: "the page was reloaded, which stopped" it, "start it
  // again".
  await start(page);
  await allowEverything(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_left',
          name: 'Bash',
          input: { command: 'echo migrated > done.txt; sleep 1; echo all done', run_in_background: true },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Started.' }] },
  ]);
  await sendPrompt(page, 'bg session');
  await waitIdle(page);
  api.push({ content: [{ type: 'text', text: 'Other.' }] });
  await page.getByTestId('new-session').click();
  await sendPrompt(page, 'other session');
  await waitIdle(page);
  await page.waitForTimeout(1500); // the command ends meanwhile
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await page
    .getByTestId('session-item')
    .filter({ hasText: 'bg session' })
    .getByTestId('session-open')
    .click();
  const state = toolCard(page, 'toolu_left').getByTestId('terminal-state');
  await expect(state).toContainText('ran on after its session was left');
  api.script([{ content: [{ type: 'text', text: 'Noted.' }] }]);
  await sendPrompt(page, 'next');
  await waitIdle(page);
  const told = JSON.stringify(api.requests.at(-1)?.body.messages.at(-1));
  expect(told).toContain('may have finished before the reload');
  expect(told).not.toContain('stopped by the page reload');
});

test('what the agent ran shows in the terminal after a reload, though its tab was never opened', async ({
  page,
}) => {
  // Before: the terminal pane mounted only when its tab opened, so nothing kept its screen: after the
  // reload it showed the marker-less prompt alone.
  await start(page);
  await allowEverything(page);
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_unseen', name: 'Bash', input: { command: 'echo UNSEEN-$((6 * 7))' } },
      ],
    },
    { content: [{ type: 'text', text: 'Ran it.' }] },
  ]);
  await sendPrompt(page, 'run something');
  await waitIdle(page);
  await expect(toolCard(page, 'toolu_unseen')).toHaveAttribute('data-status', 'done');
  await page.waitForTimeout(600); // the screen is kept once writes settle
  await waitSaved(page);
  await page.reload();
  await page.getByTestId('tab-terminal').click();
  await expect(page.getByTestId('terminal')).toHaveAttribute('data-mode', 'line');
  const shown = () => terminalText(page);
  await expect.poll(shown, { timeout: 20_000 }).toMatch(/^UNSEEN-42$/m);
  expect(await shown()).toContain('the page was reloaded');
});

test('the terminal shows what ran in it before a reload, marked as from before, and runs on', async ({
  page,
}) => {
  const shown = () => terminalText(page);
  await openApp(page);
  await page.getByTestId('tab-terminal').click();
  await expect(page.getByTestId('terminal')).toHaveAttribute('data-mode', 'line');
  await expect.poll(shown, { timeout: 20_000 }).toMatch(/\$ *$/m);
  await page.getByTestId('terminal').locator('.xterm').click();
  await page.keyboard.type('echo KEPT-$((40 + 2))');
  await page.keyboard.press('Enter');
  await expect.poll(shown, { timeout: 20_000 }).toMatch(/^KEPT-42$/m);
  await page.waitForTimeout(600); // the screen is kept once writes settle
  await page.reload();
  await expect(page.getByTestId('terminal')).toHaveAttribute('data-mode', 'line');
  await expect.poll(shown, { timeout: 20_000 }).toMatch(/^KEPT-42$/m);
  expect(await shown()).toContain('the page was reloaded');
  await page.getByTestId('terminal').locator('.xterm').click();
  await page.keyboard.type('echo AFTER-$((1 + 1))');
  await page.keyboard.press('Enter');
  await expect.poll(shown, { timeout: 20_000 }).toMatch(/^AFTER-2$/m);
});

test('a sub-agent the reload stopped: the model gets what it said and ran, with the output so far', async ({
  page,
}) => {
  await start(page);
  await allowEverything(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_ag',
          name: 'Agent',
          input: { description: 'count ticks', prompt: 'Run the ticker.' },
        },
      ],
    },
    {
      content: [
        { type: 'text', text: 'Sub: starting the ticker.' },
        {
          type: 'tool_use',
          id: 'toolu_subb',
          name: 'Bash',
          input: { command: 'for i in 1 2 3 4 5 6 7 8; do echo subtick $i; sleep 0.5; done' },
        },
      ],
    },
  ]);
  await sendPrompt(page, 'use a sub-agent');
  await expect(page.getByTestId('subagent-transcript')).toBeVisible();
  await expect
    .poll(async () => (await page.getByTestId('transcript').textContent()) ?? '', { timeout: 15_000 })
    .toContain('subtick 2');
  await page.reload();
  await expect(page.getByTestId('user-message')).toHaveText('use a sub-agent');
  const result = await resultAfterNextPrompt(page, 'toolu_ag');
  expect(result?.is_error).toBe(true);
  const text = resultText(result ?? {});
  expect(text).toContain('reloaded');
  expect(text).toContain('Sub: starting the ticker.');
  expect(text).toContain('Called Bash');
  expect(text).toContain('subtick 1\nsubtick 2');
  expect(text).not.toContain('subtick 8');
});

test('answers sent to AskUserQuestion the instant before a reload reach the model and show on the card', async ({
  page,
}) => {
  await start(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_ask',
          name: 'AskUserQuestion',
          input: {
            questions: [
              {
                question: 'Which colour?',
                header: 'Colour',
                multiSelect: false,
                options: [
                  { label: 'Red', description: 'warm' },
                  { label: 'Blue', description: 'cool' },
                ],
              },
            ],
          },
        },
      ],
    },
    { chunkDelayMs: 300, content: [{ type: 'text', text: 'Red it is, and I go on talking. '.repeat(5) }] },
  ]);
  await sendPrompt(page, 'ask me');
  await expect(page.getByTestId('question-card')).toBeVisible();
  await page.getByTestId('question-option').first().click();
  // The reload starts in the same task as the click that sends the answers: nothing has been saved yet.
  await page.evaluate(() =>
    window.addEventListener('click', () => setTimeout(() => location.reload(), 0), {
      once: true,
      capture: true,
    }),
  );
  const loaded = page.waitForEvent('load');
  await page.getByTestId('question-submit').click();
  await loaded;
  await expect(page.getByTestId('user-message')).toHaveText('ask me');
  await expect(toolCard(page, 'toolu_ask')).toHaveAttribute('data-status', 'done');
  const result = await resultAfterNextPrompt(page, 'toolu_ask');
  expect(result?.is_error ?? false).toBe(false);
  expect(resultText(result ?? {})).toContain('Which colour?\n  Answer: Red');
});
