/**
 * WebFetch: reads a public web page. Where the endpoint offers the Messages API's server-side web
 * fetch tool, the page is read there and the answer to `prompt` comes back; else through a fetch proxy
 * (the user's, or the dev server's `/api/fetch`), else directly for sites that allow it (CORS), with
 * HTML converted to markdown. Private addresses and non-http schemes are refused before anything is
 * sent; permission rules go by host (`WebFetch(domain:example.com)`). Deferred (ToolSearch finds it).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { DomainPermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import {
  createServerToolSupport,
  messageText,
  runServerTool,
  ServerToolRefused,
  type ServerToolSupport,
} from '../shared/server-tools.ts';
import { checkFetchUrl } from './addresses.ts';
import {
  type FetchedPage,
  fetchDirect,
  fetchThroughProxy,
  NotAProxy,
  ProxyRefused,
  sameOriginProxy,
} from './fetch-page.ts';
import { pageText, pageWindow, WEB_FETCH_MAX_CHARS } from './html.ts';
import promptText from './prompt.md?raw';

/** The server tool's type and name as the Messages API defines them. */
export const WEB_FETCH_TOOL_TYPE = 'web_fetch_20250910';
/** Most tokens of page content the server tool reads. */
export const WEB_FETCH_MAX_CONTENT_TOKENS = 20_000;

const PROMPT = promptText.replaceAll('{{MAX_CHARS}}', String(WEB_FETCH_MAX_CHARS)).trim();

const inputSchema = z.strictObject({
  url: z.string().describe('The URL to fetch content from'),
  prompt: z.string().describe('What you want to learn from the page'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'Character position in the page text to start reading from (the value the previous result gave)',
    ),
});

export type WebFetchInput = z.infer<typeof inputSchema>;

export interface WebFetchOutput {
  url: string;
  finalUrl: string;
  code: number;
  codeText: string;
  bytes: number;
  via: 'server' | 'proxy' | 'direct';
  /** The server's answer to the prompt, or the window of page text. */
  result: string;
  /** Where the next window starts (page text only). */
  next?: number;
  total?: number;
  offset?: number;
  redirectTo?: string;
  prompt: string;
  durationMs: number;
}

export interface WebFetchOptions {
  support?: ServerToolSupport;
  /** The fetch proxy the user configured (read at every call); undefined: the dev server's, if any. */
  proxy?: () => string | undefined;
  /** Try the server-side web fetch tool first (default true). */
  serverFetch?: boolean;
  /** The page's fetch (tests give one bound to loopback). */
  fetch?: typeof fetch;
}

const SERVER_SYSTEM =
  'You read web pages for a coding agent. Fetch the URL you are given with the web fetch tool, then answer the request about it from the page alone: concise, with the exact names, values and code the page gives.';

/** The page fetched through the server tool, or null when the endpoint does not offer it. */
async function viaServer(
  input: WebFetchInput,
  url: URL,
  runtime: NonNullable<Parameters<typeof runServerTool>[0]['runtime']>,
  support: ServerToolSupport,
  signal: AbortSignal,
  onProgress: Parameters<typeof runServerTool>[0]['onProgress'],
): Promise<Omit<WebFetchOutput, 'durationMs'> | null> {
  let message: Anthropic.Message;
  try {
    message = await runServerTool({
      runtime,
      kind: 'web_fetch',
      tool: {
        type: WEB_FETCH_TOOL_TYPE,
        name: 'web_fetch',
        max_uses: 1,
        allowed_domains: [url.hostname],
        max_content_tokens: WEB_FETCH_MAX_CONTENT_TOKENS,
      },
      system: SERVER_SYSTEM,
      prompt: `Fetch ${url.href} and then: ${input.prompt}`,
      signal,
      onProgress,
      describeUse: () => `Fetching ${url.hostname} (server-side)`,
      describeResult: (block) =>
        block.type === 'web_fetch_tool_result' ? 'Page read; answering…' : undefined,
    });
  } catch (err) {
    if (err instanceof ServerToolRefused) {
      support.refuse('web_fetch', err.message);
      return null;
    }
    throw err;
  }
  const result = message.content.find((b) => b.type === 'web_fetch_tool_result');
  const content = (result as { content?: { type?: string; error_code?: string } } | undefined)?.content;
  if (content?.type === 'web_fetch_tool_result_error') {
    throw new ToolInputError(
      `The server could not fetch ${url.href}: ${content.error_code ?? 'unknown error'}.`,
    );
  }
  return {
    url: url.href,
    finalUrl: url.href,
    code: 200,
    codeText: 'OK',
    bytes: 0,
    via: 'server',
    result: messageText(message) || '(The server read the page but gave no answer.)',
    prompt: input.prompt,
  };
}

/** The page through the configured proxy, the dev server's proxy, or directly. */
async function viaPage(url: URL, options: WebFetchOptions, signal: AbortSignal): Promise<FetchedPage> {
  const fetchImpl =
    options.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init));
  const configured = options.proxy?.()?.trim();
  if (configured) return fetchThroughProxy(configured, url, fetchImpl, signal);
  const local = sameOriginProxy();
  if (local) {
    try {
      return await fetchThroughProxy(local, url, fetchImpl, signal);
    } catch (err) {
      // No proxy on this origin (a static host, or it is not running): fetch directly.
      if (signal.aborted || err instanceof ProxyRefused) throw err;
      if (!(err instanceof NotAProxy) && !(err instanceof ToolInputError)) throw err;
    }
  }
  return fetchDirect(url, fetchImpl, signal);
}

export function createWebFetchTool(options: WebFetchOptions = {}) {
  const support = options.support ?? createServerToolSupport();
  return buildTool<typeof inputSchema, WebFetchOutput, DomainPermissionMatcher>({
    name: 'WebFetch',
    searchHint: 'fetch web page url http download read documentation website',
    inputSchema,
    shouldDefer: true,
    description: () => 'Fetch a public web page (as markdown, or the answer to a prompt about it)',
    prompt: () => PROMPT,

    preparePermissionMatcher: (input) => {
      const checked = checkFetchUrl(input.url);
      return { kind: 'domain', host: checked.ok ? checked.url.hostname : input.url };
    },
    // A private address or another scheme is refused before anyone is asked.
    checkPermissions: async (input) => {
      const checked = checkFetchUrl(input.url);
      return checked.ok ? { behavior: 'passthrough' } : { behavior: 'deny', message: checked.reason };
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    validateInput: (input) => {
      const checked = checkFetchUrl(input.url);
      if (!checked.ok) return checked.reason;
      return input.prompt.trim() === '' ? 'Say in `prompt` what you want from the page.' : null;
    },

    async call(input, ctx, onProgress) {
      const started = Date.now();
      const checked = checkFetchUrl(input.url);
      if (!checked.ok) throw new ToolInputError(checked.reason);
      const url = checked.url;
      const signal = ctx.abortController.signal;
      const runtime = ctx.options.runtime;
      if (runtime && options.serverFetch !== false && support.available('web_fetch') && !input.offset) {
        const served = await viaServer(input, url, runtime, support, signal, onProgress);
        if (served) return { data: { ...served, durationMs: Date.now() - started } };
      }
      onProgress?.({ kind: 'status', text: `Fetching ${url.hostname}…` });
      const page = await viaPage(url, options, signal);
      const text = pageText(page.body, page.contentType);
      const window = pageWindow(text, input.offset ?? 0);
      return {
        data: {
          url: page.url,
          finalUrl: page.finalUrl,
          code: page.status,
          codeText: page.statusText,
          bytes: page.bytes,
          via: page.via,
          result: window.text,
          total: window.total,
          offset: input.offset ?? 0,
          ...(window.next !== undefined ? { next: window.next } : {}),
          ...(page.redirectTo ? { redirectTo: page.redirectTo } : {}),
          prompt: input.prompt,
          durationMs: Date.now() - started,
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId) {
      if (output.via === 'server') return textResult(toolUseId, output.result);
      if (output.redirectTo) {
        return textResult(
          toolUseId,
          `${output.url} redirects to another host: ${output.redirectTo} (HTTP ${output.code}). It was not followed; fetch that URL with WebFetch if you want it.`,
        );
      }
      const failed = output.code >= 400;
      const range = output.total
        ? ` characters ${output.offset ?? 0}-${(output.offset ?? 0) + output.result.length} of ${output.total}`
        : '';
      const more =
        output.next !== undefined
          ? `\n\n[The page goes on: call WebFetch with offset ${output.next} to read more.]`
          : '';
      const head = `${output.finalUrl} (HTTP ${output.code}${output.codeText ? ` ${output.codeText}` : ''}, via ${output.via}${range}):`;
      const body = output.result.trim() || '(The page has no text.)';
      return textResult(
        toolUseId,
        `${head}\n\n${body}${more}\n\nUse this to answer: ${output.prompt}`,
        failed,
      );
    },
    renderToolUseMessage: (input) => ({ title: 'WebFetch', subtitle: input.url, body: { kind: 'none' } }),
    renderToolResultMessage: (output) =>
      output.via === 'server'
        ? { kind: 'markdown', text: output.result }
        : { kind: 'text', text: output.redirectTo ? `Redirects to ${output.redirectTo}` : output.result },
    toAutoClassifierInput: (input) => input.url,
  });
}

export const WebFetchTool = createWebFetchTool();
