/**
 * Tool schemas as the API sees them, with a per-session cache that keeps their bytes stable.
 *
 * Any byte change in `tools` busts the prompt cache for everything after it, so a session renders
 * each tool once: the cache key is name + hash of the input JSON schema, the cached value holds name,
 * description and input_schema. Per-request additions (cache_control, defer_loading) are added to a
 * copy and never stored. A tool whose description() changes mid-session keeps its first bytes; a tool
 * whose schema changes gets a new entry.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { hashString } from './hash.ts';
import { type AnyTool, modelDescription, type ToolInputJSONSchema } from './tool.ts';

/** Bumped when the cached shape changes, so persisted caches from older builds are ignored. */
export const SCHEMA_CACHE_FORMAT_VERSION = 1;

export interface CachedToolSchema {
  name: string;
  description: string;
  input_schema: ToolInputJSONSchema;
}

/** A session's schema cache. The in-memory Map is the default; issue-level persistence wraps it. */
export interface SchemaCache {
  get(key: string): CachedToolSchema | undefined;
  set(key: string, value: CachedToolSchema): void;
}

export function createSchemaCache(): SchemaCache & {
  size(): number;
  entries(): [string, CachedToolSchema][];
} {
  const map = new Map<string, CachedToolSchema>();
  return {
    get: (k) => map.get(k),
    set: (k, v) => void map.set(k, v),
    size: () => map.size,
    entries: () => [...map.entries()],
  };
}

/** Schema hashes by schema object: a tool's inputJSONSchema is never mutated, so it is hashed once. */
const schemaHashes = new WeakMap<object, string>();

/** The cache key of a tool: name + hash of its input JSON schema + format version. */
export function schemaCacheKey(tool: Pick<AnyTool, 'name' | 'inputJSONSchema'>): string {
  let hash = schemaHashes.get(tool.inputJSONSchema);
  if (hash === undefined) {
    hash = hashString(JSON.stringify(tool.inputJSONSchema));
    schemaHashes.set(tool.inputJSONSchema, hash);
  }
  return `${tool.name}:${hash}:v${SCHEMA_CACHE_FORMAT_VERSION}`;
}

export interface PerRequestToolOptions {
  cacheControl?: Anthropic.CacheControlEphemeral;
  deferLoading?: boolean;
}

/**
 * The API schema of `tool` for one request. The name/description/input_schema part comes from the
 * session cache (rendered on first use); per-request fields are added to a fresh object.
 */
export function toolToAPISchema(
  tool: AnyTool,
  cache: SchemaCache,
  perRequest: PerRequestToolOptions = {},
): Anthropic.Tool {
  const key = schemaCacheKey(tool);
  let cached = cache.get(key);
  if (!cached) {
    cached = {
      name: tool.name,
      description: modelDescription(tool),
      input_schema: structuredClone(tool.inputJSONSchema),
    };
    cache.set(key, cached);
  }
  const out: Anthropic.Tool = {
    name: cached.name,
    description: cached.description,
    input_schema: cached.input_schema as Anthropic.Tool.InputSchema,
  };
  if (perRequest.deferLoading) out.defer_loading = true;
  if (perRequest.cacheControl) out.cache_control = perRequest.cacheControl;
  return out;
}
