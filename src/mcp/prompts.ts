/**
 * What the user types, expanded with MCP: a prompt of a server as a slash command
 * (`/mcp__<server>__<prompt> arg1 arg2` or `name=value`), and `@<server>:<uri>` mentions of resources,
 * whose contents are attached to the message. The typed text stays as the user wrote it; what was
 * fetched follows it. A failed mention is noted in the message rather than dropped silently; a slash
 * command that cannot run rejects with the reason (the page shows it and sends nothing).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { MCP_MAX_MENTION_CHARS } from '../core/constants.ts';
import { messageOf } from '../core/errors.ts';
import type { McpPromptInfo, McpResourceInfo } from './catalog.ts';
import { promptCommand } from './names.ts';
import { type McpResultBlock, mapContentItem } from './results.ts';

/** What expansion needs from the manager. */
export interface PromptSource {
  prompts(): McpPromptInfo[];
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  resources(server?: string): McpResourceInfo[];
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<unknown>;
  servers(): Array<{ name: string; status: string; resourceCount?: number }>;
}

export interface ExpandedPrompt {
  /** The user message to send. */
  content: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam>;
  /** What was fetched, e.g. "prompt everything/simple_prompt", "@everything:demo://resource/1". */
  expansions: string[];
}

export { promptCommand } from './names.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Words of an argument string; "double" or 'single' quotes keep spaces. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** The arguments of a prompt from what followed its command; throws when a required one is missing. */
export function promptArguments(prompt: McpPromptInfo, text: string): Record<string, string> {
  const args: Record<string, string> = {};
  const positional: string[] = [];
  const names = new Set(prompt.arguments.map((a) => a.name));
  for (const word of splitArgs(text)) {
    const eq = word.indexOf('=');
    if (eq > 0 && names.has(word.slice(0, eq))) args[word.slice(0, eq)] = word.slice(eq + 1);
    else positional.push(word);
  }
  const open = prompt.arguments.filter((a) => args[a.name] === undefined);
  open.forEach((a, i) => {
    if (i >= positional.length) return;
    // The last open argument takes the rest of the words.
    args[a.name] = i === open.length - 1 ? positional.slice(i).join(' ') : positional[i];
  });
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length) {
    const usage = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
    throw new Error(
      `/${promptCommand(prompt)} needs ${missing.join(', ')}. Usage: /${promptCommand(prompt)} ${usage}`,
    );
  }
  return args;
}

const text = (t: string): Anthropic.TextBlockParam => ({ type: 'text', text: t });

/** The messages of a prompts/get result as user-message content. */
async function promptContent(result: unknown, server: string): Promise<McpResultBlock[]> {
  const r = isObject(result) ? result : {};
  const messages = Array.isArray(r.messages) ? r.messages.filter(isObject) : [];
  const mixed = new Set(messages.map((m) => m.role)).size > 1;
  const out: McpResultBlock[] = [];
  for (const m of messages) {
    const items = Array.isArray(m.content) ? m.content : [m.content];
    for (const item of items) {
      const block = await mapContentItem(item, { displayName: 'prompt', server });
      if (mixed && block.type === 'text')
        block.text = `${m.role === 'assistant' ? 'Assistant' : 'User'}: ${block.text}`;
      out.push(block);
    }
  }
  return out.length ? out : [text('(The prompt had no messages.)')];
}

/** `@server:uri` mentions of servers that offer resources. */
function findMentions(
  input: string,
  servers: Set<string>,
): Array<{ server: string; uri: string; raw: string }> {
  const out: Array<{ server: string; uri: string; raw: string }> = [];
  for (const m of input.matchAll(/(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g)) {
    const server = m[1];
    const uri = m[2].replace(/[.,;:!?)\]]+$/, '');
    if (servers.has(server) && uri) out.push({ server, uri, raw: `@${server}:${uri}` });
  }
  return out;
}

/** The contents of a resources/read result, cut to MCP_MAX_MENTION_CHARS of text. */
async function resourceBlocks(result: unknown, server: string): Promise<McpResultBlock[]> {
  const r = isObject(result) ? result : {};
  const contents = Array.isArray(r.contents) ? r.contents : [];
  const out: McpResultBlock[] = [];
  let left = MCP_MAX_MENTION_CHARS;
  for (const c of contents) {
    const block = await mapContentItem(
      { type: 'resource', resource: c },
      { displayName: 'resource', server },
    );
    if (block.type === 'text') {
      if (left <= 0) break;
      if (block.text.length > left)
        block.text = `${block.text.slice(0, left)}\n… [cut at ${MCP_MAX_MENTION_CHARS} characters]`;
      left -= block.text.length;
    }
    out.push(block);
  }
  return out;
}

/**
 * Expands `input`: a leading `/mcp__…` prompt command, and `@server:uri` mentions. Input with neither
 * comes back as one text block. Rejects only for a prompt command that cannot run.
 */
export async function expandPrompt(
  source: PromptSource,
  input: string,
  signal?: AbortSignal,
): Promise<ExpandedPrompt> {
  const content: ExpandedPrompt['content'] = [];
  const expansions: string[] = [];
  const command = /^\/(mcp__[A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (command) {
    const prompt = source.prompts().find((p) => promptCommand(p) === command[1]);
    if (!prompt) {
      const known = source.prompts().map((p) => `/${promptCommand(p)}`);
      throw new Error(
        `There is no MCP prompt /${command[1]}.${known.length ? ` Prompts: ${known.slice(0, 20).join(', ')}.` : ' No connected server offers prompts.'}`,
      );
    }
    const args = promptArguments(prompt, command[2] ?? '');
    let result: unknown;
    try {
      result = await source.getPrompt(prompt.server, prompt.name, args, signal);
    } catch (err) {
      throw new Error(`The MCP prompt /${command[1]} failed: ${messageOf(err)}`);
    }
    content.push(...(await promptContent(result, prompt.server)));
    expansions.push(`prompt ${prompt.server}/${prompt.name}`);
  } else {
    content.push(text(input));
  }
  const withResources = new Set(
    source
      .servers()
      .filter((s) => s.status === 'connected' && (s.resourceCount ?? 0) > 0)
      .map((s) => s.name),
  );
  const seen = new Set<string>();
  for (const mention of findMentions(input, withResources)) {
    if (seen.has(mention.raw)) continue;
    seen.add(mention.raw);
    try {
      const blocks = await resourceBlocks(
        await source.readResource(mention.server, mention.uri, signal),
        mention.server,
      );
      content.push(
        text(`<mcp-resource server="${mention.server}" uri="${mention.uri}">`),
        ...blocks,
        text('</mcp-resource>'),
      );
      expansions.push(mention.raw);
    } catch (err) {
      content.push(text(`[Could not read ${mention.raw}: ${messageOf(err)}]`));
    }
  }
  return { content, expansions };
}
