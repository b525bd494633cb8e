/**
 * The rest of the tool set in real Chromium against the mock Messages API, in one session: a todo list
 * (panel and strip above the prompt), Bash's description on its card, questions answered by click and
 * by key (a multi-select one with an "Other" answer), two sub-agents in parallel (nested transcripts
 * with their own usage, a labelled permission prompt), a forked skill, ToolSearch loading the deferred
 * tools, a server-tool web search streamed by the mock, a server-side web fetch behind a domain prompt,
 * then a WebFetch the endpoint refuses server-side that goes through the fetch proxy set in Settings
 * (the standalone proxy, started here on loopback, with a hosts entry for a loopback site),
 * NotebookEdit on a notebook Read shows as cells, and plan mode entered and left through plan approval.
 * Then a reload: server-tool results and sub-agent transcripts are still there. A second session: Esc
 * stops two running sub-agents (their requests cut, the cards interrupted). LSP is behind its build
 * gate: e2e/lsp.spec.ts runs it against a feature-lsp build.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { startFetchProxy } from '../src/tools/web-fetch/fetch-proxy-server.ts';
import type { MockApi, RecordedRequest, TurnSpec } from './mock-api/server.ts';
import {
  allowEverything,
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
/** A long session on a shared 2-core machine: each wait holds longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });
let api: MockApi;
withMockApi((started) => {
  api = started;
});

const GUIDE = `<!doctype html><html><head><title>Guide</title><script>alert(1)</script></head>
<body><h1>Docs Guide</h1><p>Run <code>npm run preview</code> after a build.</p></body></html>`;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
const stop = async (server: Server) => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
};

/**
 * A site on loopback and the standalone fetch proxy in front of it, as a user runs one on another origin:
 * `docs.example` maps to the site (the proxy's hosts file), and the app's origin may call it (CORS).
 */
async function startProxy(appOrigin: string): Promise<{ url: string; close: () => Promise<void> }> {
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(GUIDE));
  const siteUrl = await listen(site);
  const proxy = await startFetchProxy({
    port: 0,
    hosts: { 'docs.example': new URL(siteUrl).host },
    allowOrigins: [appOrigin],
  });
  return { url: proxy.url, close: async () => Promise.all([stop(site), proxy.close()]).then(() => {}) };
}
let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
test.afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
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
            {
              question: 'Which checks should CI run?',
              header: 'CI',
              multiSelect: true,
              options: [
                { label: 'Lint', description: 'Biome' },
                { label: 'Types', description: 'tsc --noEmit' },
                { label: 'Format', description: 'biome format' },
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
        use('toolu_fetch_proxy', 'WebFetch', {
          url: 'https://docs.example/guide',
          prompt: 'How is the preview started?',
        }),
      ],
    };
  }
  if (done.has('toolu_fetch_proxy')) {
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
  if (tool === 'web_fetch_20250910' && firstText(r).includes('docs.example')) {
    // This endpoint (a gateway, say) refuses the server-side fetch: WebFetch falls back to the proxy.
    return {
      fault: {
        kind: 'http',
        status: 400,
        type: 'invalid_request_error',
        message: 'tools.0: web_fetch_20250910 is not supported on this endpoint',
      },
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

test('every remaining tool in one session, and what survives a reload', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  proxy = await startProxy(new URL(baseURL as string).origin);
  api.script(Array.from({ length: 80 }, () => route));
  await openApp(page);
  await connect(page, api);
  // The user's own fetch proxy (used where the endpoint has no server-side web fetch).
  await page.getByTestId('settings-button').click();
  await page.getByTestId('fetch-proxy-input').fill(proxy.url);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();

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

  // The questions: the first answered by click (which moves on to the next), the multi-select one by
  // keys (1 and 3 pick, 4 goes to "Other"), with a free answer, sent with Enter.
  const question = toolCard(page, 'toolu_ask').getByTestId('question-card');
  await expect(question).toBeVisible();
  await question.getByTestId('question-option').nth(1).click();
  await expect(question.getByTestId('question').nth(1)).toHaveClass(/is-current/);
  await expect(question.getByTestId('question-submit')).toBeDisabled();
  await page.keyboard.press('1');
  await page.keyboard.press('3');
  const ci = question.getByTestId('question').nth(1);
  await expect(ci.getByTestId('question-option').nth(0)).toHaveAttribute('aria-pressed', 'true');
  await expect(ci.getByTestId('question-option').nth(2)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('4');
  await expect(ci.getByTestId('question-other')).toBeFocused();
  await page.keyboard.type('Coverage');
  await page.keyboard.press('Enter');
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
  // Every status line the card shows is recorded as the page draws it (a busy machine may draw and
  // replace one between two polls of an assertion).
  const search = toolCard(page, 'toolu_web');
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { webStatuses: string[] }).webStatuses = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-tool-use-id="toolu_web"] .tool-status-text')) {
        const t = el.textContent ?? '';
        if (t && seen.at(-1) !== t) seen.push(t);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await allowIn(page, 'toolu_web');
  // The fetch asks for its domain.
  const fetchPrompt = toolCard(page, 'toolu_fetch').getByTestId('permission-request');
  await expect(fetchPrompt.getByTestId('permission-rule')).toHaveText('WebFetch(domain:example.com)');
  await fetchPrompt.getByTestId('permission-allow-once').click();
  await expect(search).toHaveAttribute('data-status', 'done');
  const statuses = await page.evaluate(() => (window as unknown as { webStatuses: string[] }).webStatuses);
  expect(statuses.some((t) => t.includes('Searching: vite preview headers'))).toBe(true);
  expect(statuses.some((t) => t.includes('2 results so far'))).toBe(true);
  await expect(
    search.getByTestId('tool-markdown').getByRole('link', { name: 'Preview Options | Vite' }),
  ).toHaveAttribute('href', 'https://vite.dev/config/preview-options');
  await expect(toolCard(page, 'toolu_fetch').getByTestId('tool-result')).toContainText('Example Docs');
  await expect(toolCard(page, 'toolu_read_nb').getByTestId('tool-result')).toContainText(
    '<cell id="calc" type="code"',
  );

  // The endpoint refuses the server-side fetch of docs.example: WebFetch goes through the user's proxy.
  const viaProxy = toolCard(page, 'toolu_fetch_proxy');
  const proxyPrompt = viaProxy.getByTestId('permission-request');
  await expect(proxyPrompt.getByTestId('permission-rule')).toHaveText('WebFetch(domain:docs.example)');
  await proxyPrompt.getByTestId('permission-allow-once').click();
  await expect(viaProxy).toHaveAttribute('data-status', 'done');
  await expect(viaProxy.getByTestId('tool-result')).toContainText('# Docs Guide');
  await expect(viaProxy.getByTestId('tool-result')).not.toContainText('alert(1)');

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
  // The strip opens the Todos panel, which shows the same list.
  await page.getByTestId('todo-strip').getByRole('button').click();
  await expect(page.getByTestId('todo-item')).toHaveCount(3);
  await expect(page.getByTestId('todo-item').nth(2)).toHaveText(/Planning the change/);
  await expect(page.getByTestId('todo-item').nth(0)).toHaveAttribute('data-status', 'completed');

  // What the model received.
  const at = (id: string) => api.requests.find((r) => toolResultFor(r, id)) as RecordedRequest;
  const answers = resultText(toolResultFor(at('toolu_ask'), 'toolu_ask') ?? {});
  expect(answers).toContain('Which test runner should we use?\n  Answer: Vitest');
  expect(answers).toContain('Which checks should CI run?\n  Answer: Lint, Format, Coverage');
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
  expect(resultText(toolResultFor(at('toolu_nb'), 'toolu_nb') ?? {})).toBe(
    `Updated cell calc of ${ROOT}/analysis.ipynb.`,
  );
  const proxied = resultText(toolResultFor(at('toolu_fetch_proxy'), 'toolu_fetch_proxy') ?? {});
  expect(proxied).toContain('https://docs.example/guide (HTTP 200 OK, via proxy');
  expect(proxied).toContain('`npm run preview`');
  // Every request succeeded but the one server-side fetch the endpoint refused.
  const failed = api.requests.filter((r) => r.status !== 200);
  expect(failed).toHaveLength(1);
  expect(serverTool(failed[0])).toBe('web_fetch_20250910');
  expect(firstText(failed[0])).toContain('docs.example');
  // Sub-agents' requests count in the Usage panel (main + sub-agents; server-tool requests are the tools').
  const loopRequests = api.requests.filter((r) => !serverTool(r)).length;
  await openSideTab(page, 'usage');
  await expect(page.getByTestId('usage-row')).toHaveCount(loopRequests);

  // A reload keeps the server-tool result and the sub-agents' transcripts.
  await page.reload();
  await expect(
    toolCard(page, 'toolu_web').getByRole('link', { name: 'Server Options | Vite' }),
  ).toBeVisible();
  await expect(toolCard(page, 'toolu_agent_b').getByTestId('subagent-usage')).toContainText('2 tool uses');
  await expect(page.getByTestId('todo-strip-current')).toHaveText('Planning the change');
});

test('Esc stops two running sub-agents: their requests are cut, both cards end interrupted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const agentA = use('toolu_esc_a', 'Agent', {
    description: 'read slowly',
    prompt: 'Describe README.md at length.',
    subagent_type: 'Explore',
  });
  const agentB = use('toolu_esc_b', 'Agent', {
    description: 'write slowly',
    prompt: 'Explain src at length.',
  });
  const long = text('A very long answer that takes its time. '.repeat(80));
  api.script(
    Array.from({ length: 10 }, () => (r: RecordedRequest): TurnSpec => {
      if (system(r).includes('# Sub-agent:')) return { chunkDelayMs: 150, content: [long] };
      return lastResults(r).length
        ? { content: [text('Stopped, as you asked.')] }
        : { content: [text('Two agents start.'), agentA, agentB] };
    }),
  );
  await openApp(page);
  await connect(page, api);
  await sendPrompt(page, 'Look at everything slowly.');

  // Both sub-agents are streaming.
  const a = toolCard(page, 'toolu_esc_a');
  const b = toolCard(page, 'toolu_esc_b');
  await expect(a).toHaveAttribute('data-status', 'running');
  await expect(b).toHaveAttribute('data-status', 'running');
  const subs = () => api.requests.filter((r) => system(r).includes('# Sub-agent:'));
  await expect.poll(() => subs().length).toBe(2);
  await expect(a.getByTestId('subagent-transcript')).toContainText('A very long answer');
  await expect(b.getByTestId('subagent-transcript')).toContainText('A very long answer');

  await page.locator('body').press('Escape');
  await expect(a).toHaveAttribute('data-status', 'interrupted');
  await expect(b).toHaveAttribute('data-status', 'interrupted');
  await waitIdle(page);
  // Both sub-agent requests were cut; nothing of theirs runs on.
  await expect.poll(() => subs().every((r) => r.aborted === true)).toBe(true);
  expect(subs()).toHaveLength(2);

  // The next turn sends both calls back as interrupted errors, and the session goes on.
  await sendPrompt(page, 'Never mind.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Stopped, as you asked.');
  const next = api.requests.at(-1) as RecordedRequest;
  for (const id of ['toolu_esc_a', 'toolu_esc_b']) expect(toolResultFor(next, id)?.is_error).toBe(true);
  expect(subs()).toHaveLength(2);
});
