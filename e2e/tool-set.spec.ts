/**
 * The rest of the tool set in real Chromium against the mock Messages API, in one session: a todo list
 * (panel and strip above the prompt), Bash's description on its card, a question answered by click, two
 * sub-agents in parallel (nested transcripts with their own usage, a labelled permission prompt), a
 * forked skill, ToolSearch loading the deferred tools, a server-tool web search streamed by the mock,
 * a server-side web fetch behind a domain prompt, NotebookEdit on a notebook Read shows as cells, and
 * plan mode entered and left through plan approval. Then a reload: server-tool results and sub-agent
 * transcripts are still there.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi, RecordedRequest, TurnSpec } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
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

const SKILL = `---
name: summarize
description: Summarize the project's README for a newcomer.
context: fork
agent: Explore
---
Read README.md and summarize it in one sentence.
`;
const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { language_info: { name: 'python' } },
  cells: [
    {
      cell_type: 'code',
      id: 'calc',
      metadata: {},
      execution_count: 1,
      source: ['print(6 * 7)'],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['42\n'] }],
    },
  ],
});

type Block = NonNullable<TurnSpec['content']>[number];
const use = (id: string, name: string, input: unknown): Block => ({ type: 'tool_use', id, name, input });
const text = (t: string): Block => ({ type: 'text', text: t });
const TODOS = [
  ['Look around', 'Looking around'],
  ['Ask and delegate', 'Asking and delegating'],
  ['Plan the change', 'Planning the change'],
];
const todos = (statuses: Array<'pending' | 'in_progress' | 'completed'>) => ({
  todos: TODOS.map(([content, activeForm], i) => ({ content, status: statuses[i], activeForm })),
});

const system = (r: RecordedRequest) => JSON.stringify(r.body.system ?? '');
const serverTool = (r: RecordedRequest) =>
  ((r.body.tools ?? []) as Array<{ type?: string }>).find((t) => t.type?.startsWith('web_'))?.type;
const firstText = (r: RecordedRequest) => JSON.stringify(r.body.messages[0]?.content ?? '');
const lastResults = (r: RecordedRequest): string[] => {
  const last = r.body.messages.at(-1);
  return Array.isArray(last?.content)
    ? last.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))
    : [];
};
const subHasResults = (r: RecordedRequest) => r.body.messages.length > 1;

/** The main agent's next turn, from the results it just got. */
function mainTurn(r: RecordedRequest): TurnSpec {
  const done = new Set(lastResults(r));
  if (done.size === 0) {
    if (JSON.stringify(r.body.messages.at(-1)).includes('Set up')) {
      return {
        content: [
          text('Creating the skill and the notebook.'),
          use('toolu_setup_skill', 'Write', {
            file_path: `${ROOT}/.claude/skills/summarize/SKILL.md`,
            content: SKILL,
          }),
          use('toolu_setup_nb', 'Write', { file_path: `${ROOT}/analysis.ipynb`, content: NOTEBOOK }),
        ],
      };
    }
    return {
      content: [
        use('toolu_todo1', 'TodoWrite', todos(['in_progress', 'pending', 'pending'])),
        use('toolu_bash', 'Bash', { command: 'ls', description: 'List the project files' }),
      ],
    };
  }
  if (done.has('toolu_setup_skill')) return { content: [text('Set up.')] };
  if (done.has('toolu_bash')) {
    return {
      content: [
        use('toolu_ask', 'AskUserQuestion', {
          questions: [
            {
              question: 'Which test runner should we use?',
              header: 'Tests',
              multiSelect: false,
              options: [
                { label: 'node:test', description: 'Built in, nothing to install' },
                { label: 'Vitest', description: 'Fast, watch mode' },
                { label: 'Jest', description: 'The classic' },
              ],
            },
          ],
        }),
      ],
    };
  }
  if (done.has('toolu_ask')) {
    return {
      content: [
        text('Two agents will look in parallel.'),
        use('toolu_agent_a', 'Agent', {
          description: 'find the readme title',
          prompt: 'Find the title of README.md.',
          subagent_type: 'Explore',
        }),
        use('toolu_agent_b', 'Agent', {
          description: 'count sources',
          prompt: 'Count the source files and write count.txt.',
        }),
      ],
    };
  }
  if (done.has('toolu_agent_a')) return { content: [use('toolu_skill', 'Skill', { skill: 'summarize' })] };
  if (done.has('toolu_skill')) {
    return {
      content: [
        use('toolu_search_tools', 'ToolSearch', {
          query: 'select:WebSearch,WebFetch,NotebookEdit,EnterPlanMode,ExitPlanMode',
        }),
      ],
    };
  }
  if (done.has('toolu_search_tools')) {
    return {
      content: [
        use('toolu_web', 'WebSearch', { query: 'vite preview headers' }),
        use('toolu_fetch', 'WebFetch', {
          url: 'https://example.com/docs',
          prompt: 'What is the main heading?',
        }),
        use('toolu_read_nb', 'Read', { file_path: `${ROOT}/analysis.ipynb` }),
      ],
    };
  }
  if (done.has('toolu_web')) {
    return {
      content: [
        use('toolu_nb', 'NotebookEdit', {
          notebook_path: `${ROOT}/analysis.ipynb`,
          cell_id: 'calc',
          new_source: 'print(7 * 6)',
        }),
      ],
    };
  }
  if (done.has('toolu_nb')) return { content: [use('toolu_enter', 'EnterPlanMode', {})] };
  if (done.has('toolu_enter')) {
    return {
      content: [
        use('toolu_exit', 'ExitPlanMode', {
          plan: '## Plan\n\n1. Switch the tests to **Vitest**\n2. Run them',
        }),
      ],
    };
  }
  if (done.has('toolu_exit'))
    return { content: [use('toolu_todo2', 'TodoWrite', todos(['completed', 'completed', 'in_progress']))] };
  return { content: [text('Tour complete.')] };
}

/** A sub-agent's turn, by its task. */
function subTurn(r: RecordedRequest): TurnSpec {
  const task = firstText(r);
  const slow = { chunkDelayMs: 40 };
  if (task.includes('README.md.')) {
    return subHasResults(r)
      ? { ...slow, content: [text('The title is "Weather notes".')] }
      : {
          ...slow,
          content: [
            use(`toolu_sa_${Date.now()}`, 'Grep', {
              pattern: '^# ',
              path: 'README.md',
              output_mode: 'content',
            }),
          ],
        };
  }
  if (task.includes('count.txt')) {
    if (!subHasResults(r))
      return { ...slow, content: [use('toolu_sb_glob', 'Glob', { pattern: 'src/**/*.js' })] };
    if (r.body.messages.length === 3)
      return {
        ...slow,
        content: [use('toolu_sb_write', 'Write', { file_path: `${ROOT}/count.txt`, content: '3\n' })],
      };
    return { ...slow, content: [text('There are 3 source files; wrote count.txt.')] };
  }
  // The forked skill.
  return subHasResults(r)
    ? { content: [text('A small Node project that summarizes weather readings per city.')] }
    : { content: [use('toolu_skill_read', 'Read', { file_path: `${ROOT}/README.md` })] };
}

function route(r: RecordedRequest): TurnSpec {
  const tool = serverTool(r);
  if (tool === 'web_search_20250305') {
    return {
      chunkDelayMs: 120,
      content: [
        { type: 'server_tool_use', name: 'web_search', input: { query: 'vite preview headers' } },
        {
          type: 'web_search_tool_result',
          content: [
            {
              type: 'web_search_result',
              title: 'Preview Options | Vite',
              url: 'https://vite.dev/config/preview-options',
              encrypted_content: 'e1',
              page_age: null,
            },
            {
              type: 'web_search_result',
              title: 'Server Options | Vite',
              url: 'https://vite.dev/config/server-options',
              encrypted_content: 'e2',
              page_age: null,
            },
          ],
        },
        text('preview.headers sets the response headers of vite preview.'),
      ],
    };
  }
  if (tool === 'web_fetch_20250910') {
    return {
      content: [
        { type: 'server_tool_use', name: 'web_fetch', input: { url: 'https://example.com/docs' } },
        {
          type: 'web_fetch_tool_result',
          content: {
            type: 'web_fetch_result',
            url: 'https://example.com/docs',
            content: {
              type: 'document',
              source: { type: 'text', media_type: 'text/plain', data: '# Example Docs' },
              title: 'Example',
            },
            retrieved_at: '2026-01-01T00:00:00Z',
          },
        },
        text('The main heading is "Example Docs".'),
      ],
    };
  }
  return system(r).includes('# Sub-agent:') ? subTurn(r) : mainTurn(r);
}

async function allowIn(page: Page, toolUseId: string): Promise<void> {
  const prompt = toolCard(page, toolUseId).getByTestId('permission-request').first();
  await expect(prompt).toBeVisible();
  await prompt.getByTestId('permission-allow-once').click();
}

test('every remaining tool in one session, and what survives a reload', async ({ page }) => {
  test.setTimeout(110_000);
  api.script(Array.from({ length: 80 }, () => route));
  await openApp(page);
  await connect(page, api);

  // Setup turn: the skill and the notebook are written (no prompts in this mode).
  await allowEverything(page);
  await sendPrompt(page, 'Set up the skill and the notebook.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Set up.', { timeout: 20_000 });
  await waitIdle(page);
  await page.getByTestId('mode-switch').selectOption('default');

  await sendPrompt(page, 'Take the tour.');
  // Todos: the strip above the prompt box and the panel.
  await expect(page.getByTestId('todo-strip-current')).toHaveText('Looking around');
  // Bash's description is on its card.
  await expect(toolCard(page, 'toolu_bash').locator('.tool-subtitle')).toHaveText('List the project files');

  // The question, answered by click.
  const question = toolCard(page, 'toolu_ask').getByTestId('question-card');
  await expect(question).toBeVisible();
  await question.getByTestId('question-option').nth(1).click();
  await question.getByTestId('question-submit').click();
  await expect(toolCard(page, 'toolu_ask')).toHaveAttribute('data-status', 'done');

  // Two sub-agents at once; the writer's Write asks, labelled with its agent, inside its card.
  const writer = toolCard(page, 'toolu_agent_b');
  await expect(writer.getByTestId('subagent-transcript')).toBeVisible();
  const nested = writer.getByTestId('permission-request');
  await expect(nested).toBeVisible();
  await expect(nested.getByTestId('permission-agent')).toHaveText(
    'Asked by the sub-agent general-purpose: count sources',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/tool-set-subagents.png` });
  await nested.getByTestId('permission-allow-once').click();
  await expect(toolCard(page, 'toolu_agent_a')).toHaveAttribute('data-status', 'done');
  await expect(writer).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_agent_a').getByTestId('tool-result')).toContainText('Weather notes');
  await expect(writer.getByTestId('subagent-usage')).toContainText('2 tool uses · 3 requests');

  // The forked skill ran as a sub-agent too.
  const skill = toolCard(page, 'toolu_skill');
  await expect(skill).toHaveAttribute('data-status', 'done');
  await expect(skill.getByTestId('subagent-transcript')).toBeVisible();
  await expect(skill.getByTestId('tool-result')).toContainText('summarizes weather readings');

  // The web search streams its status from the server tool, then shows the links.
  const search = toolCard(page, 'toolu_web');
  await allowIn(page, 'toolu_web');
  await expect(search.locator('.tool-status-text')).toContainText('Searching: vite preview headers');
  await expect(search.locator('.tool-status-text')).toContainText('2 results so far');
  // The fetch asks for its domain.
  const fetchPrompt = toolCard(page, 'toolu_fetch').getByTestId('permission-request');
  await expect(fetchPrompt.getByTestId('permission-rule')).toHaveText('WebFetch(domain:example.com)');
  await fetchPrompt.getByTestId('permission-allow-once').click();
  await expect(search).toHaveAttribute('data-status', 'done');
  await expect(
    search.getByTestId('tool-markdown').getByRole('link', { name: 'Preview Options | Vite' }),
  ).toHaveAttribute('href', 'https://vite.dev/config/preview-options');
  await expect(toolCard(page, 'toolu_fetch').getByTestId('tool-result')).toContainText('Example Docs');
  await expect(toolCard(page, 'toolu_read_nb').getByTestId('tool-result')).toContainText(
    '<cell id="calc" type="code"',
  );

  // NotebookEdit changes a file: it asks.
  await allowIn(page, 'toolu_nb');
  await expect(toolCard(page, 'toolu_nb')).toHaveAttribute('data-status', 'done');

  // Plan mode: entered after a yes, left through the plan approval into acceptEdits.
  await allowIn(page, 'toolu_enter');
  await expect(page.getByTestId('mode-switch')).toHaveValue('plan');
  const approval = toolCard(page, 'toolu_exit').getByTestId('plan-approval');
  await expect(approval.getByTestId('plan-body')).toContainText('Switch the tests to Vitest');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/tool-set-plan.png` });
  await approval.getByTestId('plan-approve-accept').click();
  await expect(page.getByTestId('mode-switch')).toHaveValue('acceptEdits');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Tour complete.');
  await expect(page.getByTestId('todo-strip-current')).toHaveText('Planning the change');
  await waitIdle(page);

  // What the model received.
  const at = (id: string) => api.requests.find((r) => toolResultFor(r, id)) as RecordedRequest;
  expect(resultText(toolResultFor(at('toolu_ask'), 'toolu_ask') ?? {})).toContain('Answer: Vitest');
  expect(resultText(toolResultFor(at('toolu_agent_b'), 'toolu_agent_b') ?? {})).toBe(
    'There are 3 source files; wrote count.txt.',
  );
  expect(resultText(toolResultFor(at('toolu_web'), 'toolu_web') ?? {})).toContain(
    '[Preview Options | Vite](https://vite.dev/config/preview-options)',
  );
  expect(resultText(toolResultFor(at('toolu_exit'), 'toolu_exit') ?? {})).toContain(
    'the permission mode is now acceptEdits',
  );
  // The two sub-agents ran at the same time: both first requests before either one's second.
  const subs = api.requests.filter(
    (r) => system(r).includes('# Sub-agent:') && !firstText(r).includes('skill'),
  );
  const firsts = subs.filter((r) => !subHasResults(r)).map((r) => r.receivedAt);
  const seconds = subs.filter(subHasResults).map((r) => r.receivedAt);
  expect(Math.max(...firsts)).toBeLessThanOrEqual(Math.min(...seconds));
  expect(api.requests.every((r) => r.status === 200)).toBe(true);
  // Sub-agents' requests count in the Usage panel (main + sub-agents; server-tool requests are the tools').
  const loopRequests = api.requests.filter((r) => !serverTool(r)).length;
  await page.getByTestId('tab-usage').click();
  await expect(page.getByTestId('usage-row')).toHaveCount(loopRequests);

  // A reload keeps the server-tool result and the sub-agents' transcripts.
  await page.reload();
  await expect(
    toolCard(page, 'toolu_web').getByRole('link', { name: 'Server Options | Vite' }),
  ).toBeVisible();
  await expect(toolCard(page, 'toolu_agent_b').getByTestId('subagent-usage')).toContainText('2 tool uses');
  await expect(page.getByTestId('todo-strip-current')).toHaveText('Planning the change');
});
