/**
 * One ToolSearch through the page: the mock model searches once, then says which tools it got
 * ("Got: a, b"); the search card's text, whitespace folded, is returned once the turn is over.
 */
import { expect, type Page } from '@playwright/test';
import { allowIfAsked } from '../mcp/page.ts';
import type { MockApi } from '../mock-api/server.ts';
import { sendPrompt, toolCard, toolResultFor, waitIdle } from './app.ts';

export async function searchOnce(page: Page, api: MockApi, id: string, query: string): Promise<string> {
  api.script([
    { content: [{ type: 'tool_use' as const, id, name: 'ToolSearch', input: { query } }] },
    (req: Parameters<typeof toolResultFor>[0]) => {
      const found = toolResultFor(req, id);
      const refs = (Array.isArray(found?.content) ? found.content : []).map((b) =>
        String((b as { tool_name?: unknown }).tool_name),
      );
      return { content: [{ type: 'text' as const, text: `Got: ${refs.join(', ')}` }] };
    },
  ]);
  await sendPrompt(page, `Find a tool: ${query}`);
  await allowIfAsked(page, id);
  await expect(toolCard(page, id)).toHaveAttribute('data-status', 'done');
  await waitIdle(page);
  return ((await toolCard(page, id).textContent()) ?? '').replace(/\s+/g, ' ');
}
