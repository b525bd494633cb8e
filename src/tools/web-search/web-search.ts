/**
 * WebSearch: a web search through the Messages API's server-side web search tool (`web_search`), run
 * as a request of its own on the conversation's endpoint and streamed to the card (the query, then the
 * results as they arrive). The model reads the links and the summary. Deferred (found with ToolSearch);
 * hidden for the session once the endpoint refuses server tools.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import {
  createServerToolSupport,
  messageText,
  runServerTool,
  ServerToolRefused,
  type ServerToolSupport,
} from '../shared/server-tools.ts';
import promptText from './prompt.md?raw';

/** Most searches the server may run for one call. */
export const WEB_SEARCH_MAX_USES = 5;
/** The server tool's type and name as the Messages API defines them. */
export const WEB_SEARCH_TOOL_TYPE = 'web_search_20250305';

const HOST = z.string().min(1);
const inputSchema = z.strictObject({
  query: z.string().min(2, 'The query needs at least 2 characters.').describe('The search query to use'),
  allowed_domains: z.array(HOST).optional().describe('Only include search results from these domains'),
  blocked_domains: z.array(HOST).optional().describe('Never include search results from these domains'),
});

export type WebSearchInput = z.infer<typeof inputSchema>;

export interface WebSearchHit {
  title: string;
  url: string;
}

export interface WebSearchOutput {
  query: string;
  results: WebSearchHit[];
  /** What the server's model said about the results. */
  summary: string;
  searchCount: number;
  /** Errors the search itself reported (e.g. too_many_requests). */
  errors: string[];
  durationSeconds: number;
}

const SYSTEM =
  'You run web searches for a coding agent. Search for what the user asks, then summarise what the results say in a few sentences, citing the pages. Do not answer from memory.';

/** Hits and errors of the result blocks of a response. */
function hitsOf(message: Anthropic.Message): { hits: WebSearchHit[]; errors: string[]; searches: number } {
  const hits: WebSearchHit[] = [];
  const errors: string[] = [];
  let searches = 0;
  for (const block of message.content) {
    if (block.type === 'server_tool_use' && block.name === 'web_search') searches++;
    if (block.type !== 'web_search_tool_result') continue;
    const content = block.content as unknown;
    if (Array.isArray(content)) {
      for (const r of content as Array<{ type?: string; title?: string; url?: string }>) {
        if (r.type === 'web_search_result' && typeof r.url === 'string') {
          hits.push({ title: typeof r.title === 'string' && r.title ? r.title : r.url, url: r.url });
        }
      }
    } else if (content && typeof content === 'object') {
      errors.push(String((content as { error_code?: unknown }).error_code ?? 'unknown error'));
    }
  }
  return { hits, errors, searches };
}

/** The results as the model reads them. */
export function formatSearch(output: WebSearchOutput): string {
  const links = output.results.map((r) => `- [${r.title}](${r.url})`).join('\n') || '(no results)';
  const errors = output.errors.length ? `\n\nThe search reported: ${output.errors.join(', ')}.` : '';
  const summary = output.summary ? `\n\nSummary:\n${output.summary}` : '';
  return `Web search results for "${output.query}":\n\n${links}${summary}${errors}\n\nCite the sources you use as markdown links in your reply.`;
}

export function createWebSearchTool(support: ServerToolSupport = createServerToolSupport()) {
  return buildTool({
    name: 'WebSearch',
    searchHint: 'web search internet google bing look up online documentation news',
    inputSchema,
    shouldDefer: true,
    description: () => "Search the web (the API's server-side web search)",
    prompt: () => promptText.trim(),

    isEnabled: () => support.available('web_search'),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    validateInput: (input) =>
      input.allowed_domains?.length && input.blocked_domains?.length
        ? 'Give allowed_domains or blocked_domains, not both.'
        : null,

    async call(input, ctx, onProgress) {
      const runtime = ctx.options.runtime;
      if (!runtime) throw new ToolInputError('Web search is not available here: no model endpoint.');
      if (!support.available('web_search')) {
        throw new ToolInputError(
          `Web search is not available on this endpoint: ${support.reason('web_search')}`,
        );
      }
      const started = Date.now();
      let found = 0;
      let message: Anthropic.Message;
      try {
        message = await runServerTool({
          runtime,
          kind: 'web_search',
          tool: {
            type: WEB_SEARCH_TOOL_TYPE,
            name: 'web_search',
            max_uses: WEB_SEARCH_MAX_USES,
            ...(input.allowed_domains?.length ? { allowed_domains: input.allowed_domains } : {}),
            ...(input.blocked_domains?.length ? { blocked_domains: input.blocked_domains } : {}),
          },
          system: SYSTEM,
          prompt: `Search the web for: ${input.query}`,
          signal: ctx.abortController.signal,
          onProgress,
          describeUse: (use) => `Searching: ${typeof use.query === 'string' ? use.query : input.query}`,
          describeResult: (block) => {
            if (block.type !== 'web_search_tool_result') return undefined;
            found += Array.isArray(block.content) ? block.content.length : 0;
            return `Searching: ${input.query} · ${found} result${found === 1 ? '' : 's'} so far`;
          },
        });
      } catch (err) {
        if (err instanceof ServerToolRefused) {
          support.refuse('web_search', err.message);
          throw new ToolInputError(
            `This endpoint does not offer the server-side web search tool (${err.message}). WebSearch is turned off for this session; answer without it or ask the user for the information.`,
          );
        }
        throw err;
      }
      const { hits, errors, searches } = hitsOf(message);
      return {
        data: {
          query: input.query,
          results: hits,
          summary: messageText(message),
          searchCount: searches,
          errors,
          durationSeconds: (Date.now() - started) / 1000,
        },
      };
    },

    mapToolResultToToolResultBlockParam: (output: WebSearchOutput, toolUseId) =>
      textResult(toolUseId, formatSearch(output)),
    renderToolUseMessage: (input) => ({ title: 'WebSearch', subtitle: input.query, body: { kind: 'none' } }),
    renderToolResultMessage: (output) => ({
      kind: 'markdown',
      text: `${output.results.map((r) => `- [${r.title}](${r.url})`).join('\n') || '*No results.*'}${output.summary ? `\n\n${output.summary}` : ''}`,
    }),
    toAutoClassifierInput: (input) => input.query,
  });
}

export const WebSearchTool = createWebSearchTool();
