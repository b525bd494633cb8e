/**
 * MCP tools → Tools. A listed tool becomes `mcp__<server>__<tool>` with its input schema in its JSON
 * Schema 2020-12 form (older-draft forms rewritten where the meaning is clear, then checked against
 * the meta-schema when a validator is given), a zod schema accepting any object (the server
 * validates), annotations mapped (readOnlyHint → read-only and concurrency-safe, destructiveHint →
 * destructive), `_meta['anthropic/alwaysLoad']` → alwaysLoad and `_meta['anthropic/searchHint']` →
 * searchHint. A tool that cannot be used (no name, a malformed schema, listed twice, one that requires
 * the experimental tasks feature tabcode does not declare, past MCP_MAX_TOOLS_PER_SERVER) is skipped
 * with a reason; the others are unaffected.
 */
import { z } from 'zod';
import {
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  MCP_MAX_DESCRIPTION_CHARS,
  MCP_MAX_SCHEMA_CHARS,
  MCP_MAX_TOOLS_PER_SERVER,
} from '../core/constants.ts';
import { type AnyTool, buildTool, type ToolInputJSONSchema, type ToolProgress } from '../core/tool.ts';
import { disambiguate, mcpToolName } from './names.ts';
import {
  type ImageDownscaler,
  type McpToolOutput,
  mapCallResult,
  outputText,
  toToolResultBlock,
} from './results.ts';
import { normalizeSchema, type SchemaValidator } from './schema.ts';
import type { SkippedMcpTool } from './types.ts';

/** What a tools/call gets besides its arguments. */
export interface McpCallOptions {
  signal: AbortSignal;
  /** Progress notifications of the call, as tool progress (they also extend its timeout). */
  onProgress?: (progress: ToolProgress) => void;
  /** The tool_use the call answers (elicitation forms show next to it). */
  toolUseId?: string;
}

/** Runs tools/call on the server; resolves with the raw result object. Throws on protocol/transport errors. */
export type McpCallFn = (
  toolName: string,
  args: Record<string, unknown>,
  options: McpCallOptions,
) => Promise<unknown>;

export interface AdaptToolsOptions {
  /** The normalized server name. */
  server: string;
  call: McpCallFn;
  /** Checks schemas against JSON Schema 2020-12 (loadSchemaValidator); without it, only the shape is checked. */
  validateSchema?: SchemaValidator;
  /** Shrinks images too large for the model (the page's canvas); without it they become a note. */
  downscale?: ImageDownscaler;
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
function checkTool(raw: unknown, validate?: SchemaValidator): ToolSpec | { skip: string } {
  if (!isObject(raw)) return { skip: 'it is not an object' };
  if (typeof raw.name !== 'string' || raw.name.length === 0) return { skip: 'it has no name' };
  const problem = inputSchemaProblem(raw.inputSchema);
  if (problem) return { skip: problem };
  const execution = isObject(raw.execution) ? raw.execution : {};
  if (execution.taskSupport === 'required') {
    return {
      skip: 'it can only run as a task (the experimental MCP tasks feature), which tabcode does not support',
    };
  }
  const normalized = normalizeSchema(raw.inputSchema as Json);
  if ('problem' in normalized) return { skip: normalized.problem };
  const invalid = validate?.(normalized.schema);
  if (invalid) return { skip: invalid };
  const ann = isObject(raw.annotations) ? raw.annotations : {};
  const meta = isObject(raw._meta) ? raw._meta : {};
  const title =
    typeof raw.title === 'string' ? raw.title : typeof ann.title === 'string' ? ann.title : undefined;
  return {
    name: raw.name,
    title,
    description: typeof raw.description === 'string' ? raw.description : '',
    schema: structuredClone(normalized.schema) as ToolInputJSONSchema,
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
    async call(input: Record<string, unknown>, ctx, onProgress) {
      const raw = await opts.call(spec.name, input, {
        signal: ctx.abortController.signal,
        ...(onProgress ? { onProgress } : {}),
        ...(ctx.toolUseId ? { toolUseId: ctx.toolUseId } : {}),
      });
      const data = await mapCallResult(raw, {
        displayName: `${spec.name} (MCP server ${server})`,
        server,
        ...(opts.downscale ? { downscale: opts.downscale } : {}),
      });
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
    if (i === MCP_MAX_TOOLS_PER_SERVER) {
      skipped.push({
        name: `#${i}…#${rawTools.length - 1}`,
        reason: `Skipped: the server listed ${rawTools.length} tools; tabcode takes the first ${MCP_MAX_TOOLS_PER_SERVER}.`,
      });
    }
    if (i >= MCP_MAX_TOOLS_PER_SERVER) return;
    const checked = checkTool(raw, opts.validateSchema);
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
