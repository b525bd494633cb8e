/**
 * MCP tools → Tools. A listed tool becomes `mcp__<server>__<tool>` with its input schema as given
 * (after checking it is an object schema), a zod schema accepting any object (the server validates),
 * annotations mapped (readOnlyHint → read-only and concurrency-safe, destructiveHint → destructive),
 * `_meta['anthropic/alwaysLoad']` → alwaysLoad and `_meta['anthropic/searchHint']` → searchHint.
 * A tool that cannot be used (no name, a malformed schema, listed twice) is skipped with a reason;
 * the others are unaffected.
 */
import { z } from 'zod';
import {
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  MCP_MAX_DESCRIPTION_CHARS,
  MCP_MAX_SCHEMA_CHARS,
} from '../core/constants.ts';
import { type AnyTool, buildTool, type ToolInputJSONSchema } from '../core/tool.ts';
import { disambiguate, mcpToolName } from './names.ts';
import { type McpToolOutput, mapCallResult, outputText, toToolResultBlock } from './results.ts';
import type { SkippedMcpTool } from './types.ts';

/** Runs tools/call on the server; resolves with the raw result object. Throws on protocol/transport errors. */
export type McpCallFn = (
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<unknown>;

export interface AdaptToolsOptions {
  /** The normalized server name. */
  server: string;
  call: McpCallFn;
}

export interface AdaptedTools {
  /** Usable tools, sorted by name. */
  tools: AnyTool[];
  skipped: SkippedMcpTool[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The input schema every MCP tool parses with: any object (the server validates the rest). */
export const MCP_INPUT_SCHEMA = z.looseObject({});

/** Why `schema` cannot be sent as a tool's input_schema, or null when it can. */
export function inputSchemaProblem(schema: unknown): string | null {
  if (!isObject(schema)) return `its inputSchema is ${schema === undefined ? 'missing' : 'not an object'}`;
  if (schema.type !== 'object') {
    return `its inputSchema must have type "object" (got ${JSON.stringify(schema.type) ?? 'nothing'})`;
  }
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) return 'its inputSchema.properties is not an object';
    for (const [key, value] of Object.entries(schema.properties)) {
      if (!isObject(value) && typeof value !== 'boolean') {
        return `its inputSchema.properties.${key} is not a schema (got ${JSON.stringify(value)})`;
      }
    }
  }
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))
  ) {
    return 'its inputSchema.required is not a list of property names';
  }
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    return 'its inputSchema cannot be serialized as JSON';
  }
  if (size > MCP_MAX_SCHEMA_CHARS) {
    return `its inputSchema is too large (${size} characters; the limit is ${MCP_MAX_SCHEMA_CHARS})`;
  }
  return null;
}

function cutDescription(text: string): string {
  if (text.length <= MCP_MAX_DESCRIPTION_CHARS) return text;
  return `${text.slice(0, MCP_MAX_DESCRIPTION_CHARS)}… [description truncated]`;
}

function compactInput(input: unknown): string {
  try {
    const json = JSON.stringify(input);
    return json.length > 200 ? `${json.slice(0, 199)}…` : json;
  } catch {
    return '';
  }
}

interface ToolSpec {
  name: string;
  title?: string;
  description: string;
  schema: ToolInputJSONSchema;
  readOnly: boolean;
  destructive: boolean;
  alwaysLoad: boolean;
  searchHint?: string;
}

/** Checks one listed tool; a spec, or the reason it is skipped. */
function checkTool(raw: unknown): ToolSpec | { skip: string } {
  if (!isObject(raw)) return { skip: 'it is not an object' };
  if (typeof raw.name !== 'string' || raw.name.length === 0) return { skip: 'it has no name' };
  const problem = inputSchemaProblem(raw.inputSchema);
  if (problem) return { skip: problem };
  const ann = isObject(raw.annotations) ? raw.annotations : {};
  const meta = isObject(raw._meta) ? raw._meta : {};
  const title =
    typeof raw.title === 'string' ? raw.title : typeof ann.title === 'string' ? ann.title : undefined;
  return {
    name: raw.name,
    title,
    description: typeof raw.description === 'string' ? raw.description : '',
    schema: structuredClone(raw.inputSchema) as ToolInputJSONSchema,
    readOnly: ann.readOnlyHint === true,
    destructive: ann.destructiveHint === true,
    alwaysLoad: meta['anthropic/alwaysLoad'] === true,
    searchHint: typeof meta['anthropic/searchHint'] === 'string' ? meta['anthropic/searchHint'] : undefined,
  };
}

/** Makes the Tool for one checked spec. */
function makeTool(spec: ToolSpec, apiName: string, opts: AdaptToolsOptions): AnyTool {
  const { server } = opts;
  const label = `${server} · ${spec.title ?? spec.name}`;
  const description = cutDescription(
    spec.description.trim() || `${spec.name} (a tool of the MCP server ${server})`,
  );
  return buildTool({
    name: apiName,
    inputSchema: MCP_INPUT_SCHEMA,
    inputJSONSchema: spec.schema,
    ...(spec.searchHint ? { searchHint: spec.searchHint } : {}),
    userFacingName: () => `${label} (MCP)`,
    description: () => description,
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: spec.name },
    alwaysLoad: spec.alwaysLoad,
    isReadOnly: () => spec.readOnly,
    isDestructive: () => spec.destructive,
    isConcurrencySafe: () => spec.readOnly,
    interruptBehavior: () => 'abort',
    checkPermissions: async () => ({
      behavior: 'passthrough',
      message: `Allow the MCP tool ${spec.name} of server ${server}?`,
    }),
    async call(input: Record<string, unknown>, ctx) {
      const raw = await opts.call(spec.name, input, ctx.abortController.signal);
      const data = mapCallResult(raw, `${spec.name} (MCP server ${server})`);
      return { data, ...(data.meta ? { mcpMeta: data.meta } : {}) };
    },
    mapToolResultToToolResultBlockParam: (output: McpToolOutput, toolUseId: string) =>
      toToolResultBlock(output, toolUseId),
    renderToolUseMessage: (input) => ({
      title: label,
      subtitle: compactInput(input),
      body: { kind: 'code', code: JSON.stringify(input ?? {}, null, 2), language: 'json' },
    }),
    renderToolResultMessage: (output: McpToolOutput) => ({ kind: 'text', text: outputText(output) }),
    toAutoClassifierInput: (input) => `${apiName} ${compactInput(input)}`,
  });
}

/**
 * Turns a server's raw tools/list entries into Tools. Never throws: unusable entries are skipped with
 * a reason. Names are assigned in order of the original names, so they do not depend on list order.
 */
export function adaptMcpTools(rawTools: readonly unknown[], opts: AdaptToolsOptions): AdaptedTools {
  const skipped: SkippedMcpTool[] = [];
  const specs: ToolSpec[] = [];
  const seen = new Set<string>();
  rawTools.forEach((raw, i) => {
    const checked = checkTool(raw);
    const name = isObject(raw) && typeof raw.name === 'string' && raw.name ? raw.name : `#${i}`;
    if ('skip' in checked) {
      skipped.push({ name, reason: `Skipped: ${checked.skip}.` });
    } else if (seen.has(checked.name)) {
      skipped.push({ name, reason: 'Skipped: the server listed a tool of this name twice.' });
    } else {
      seen.add(checked.name);
      specs.push(checked);
    }
  });
  specs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const taken = new Set<string>();
  const tools: AnyTool[] = [];
  for (const spec of specs) {
    let apiName = mcpToolName(opts.server, spec.name);
    if (taken.has(apiName)) apiName = disambiguate(apiName, spec.name, taken);
    taken.add(apiName);
    tools.push(makeTool(spec, apiName, opts));
  }
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, skipped };
}
