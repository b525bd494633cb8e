/**
 * What a server lists: tools, resources, resource templates and prompts, read page by page (a guard
 * stops a server that never stops paging) and parsed leniently, so one malformed entry is dropped
 * rather than sinking the list. Entries are reduced to the plain data tabcode uses.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { MCP_MAX_TOOLS_PER_SERVER } from '../core/constants.ts';

/** Most list pages read from one server. */
const MAX_LIST_PAGES = 100;
/** Most resources, templates or prompts kept per server. */
export const MAX_CATALOG_ENTRIES = MCP_MAX_TOOLS_PER_SERVER;

const PageLoose = z.looseObject({ nextCursor: z.string().optional() });

/** A resource a server lists (or a template it offers). */
export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Set for a resource template (RFC 6570 URI template); `uri` is then the template. */
  template?: boolean;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Every page of a list request; `key` is the array field (tools, resources, prompts…). */
export async function listAll(
  client: Client,
  method: 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list',
  key: string,
  timeoutMs: number,
): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const res = (await client.request({ method, params: cursor ? { cursor } : {} }, PageLoose, {
      timeout: timeoutMs,
    })) as Json & { nextCursor?: string };
    const items = res[key];
    if (!Array.isArray(items)) throw new Error(`The server's ${method} answer has no "${key}" list.`);
    // One at a time: a spread of a page of 200,000 entries overflows the call stack.
    for (const item of items) all.push(item);
    cursor = res.nextCursor;
    if (!cursor || all.length > MCP_MAX_TOOLS_PER_SERVER) break;
  }
  return all;
}

/** Raw resources (or templates) → infos; entries without a URI are dropped. */
export function toResources(server: string, raw: readonly unknown[], template = false): McpResourceInfo[] {
  const out: McpResourceInfo[] = [];
  for (const r of raw) {
    if (!isObject(r)) continue;
    const uri = str(template ? r.uriTemplate : r.uri);
    if (!uri) continue;
    out.push({
      server,
      uri,
      name: str(r.name) ?? uri,
      ...(str(r.title) ? { title: str(r.title) } : {}),
      ...(str(r.description) ? { description: str(r.description) } : {}),
      ...(str(r.mimeType) ? { mimeType: str(r.mimeType) } : {}),
      ...(template ? { template: true } : {}),
    });
    if (out.length >= MAX_CATALOG_ENTRIES) break;
  }
  return out;
}

/** Raw prompts → infos; entries without a name are dropped. */
export function toPrompts(server: string, raw: readonly unknown[]): McpPromptInfo[] {
  const out: McpPromptInfo[] = [];
  const seen = new Set<string>();
  for (const p of raw) {
    if (!isObject(p)) continue;
    const name = str(p.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const args = Array.isArray(p.arguments) ? p.arguments : [];
    out.push({
      server,
      name,
      ...(str(p.title) ? { title: str(p.title) } : {}),
      ...(str(p.description) ? { description: str(p.description) } : {}),
      arguments: args
        .filter((a): a is Json => isObject(a) && typeof a.name === 'string' && a.name !== '')
        .map((a) => ({
          name: String(a.name),
          ...(str(a.description) ? { description: str(a.description) } : {}),
          required: a.required === true,
        })),
    });
    if (out.length >= MAX_CATALOG_ENTRIES) break;
  }
  return out;
}
