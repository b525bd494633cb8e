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
import type { KeyValueStore } from './storage.ts';
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

/** The record one session's cache is stored under (format version included: older builds' records are ignored). */
export function schemaCacheRecordKey(sessionId: string): string {
  return `schemas:v${SCHEMA_CACHE_FORMAT_VERSION}:${sessionId}`;
}

/** A session's schema cache that survives a page reload. */
export interface PersistentSchemaCache extends SchemaCache {
  size(): number;
  entries(): [string, CachedToolSchema][];
  /** Resolves once every entry set so far is written. Never rejects (a failed write is logged and retried on the next set). */
  flush(): Promise<void>;
}

function isCachedToolSchema(v: unknown): v is CachedToolSchema {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.name === 'string' &&
    typeof o.description === 'string' &&
    typeof o.input_schema === 'object' &&
    o.input_schema !== null
  );
}

/**
 * Opens the persisted schema cache of `sessionId`: entries stored by an earlier page of the same session
 * are loaded first, so the tools bytes of its requests stay what they were (even when a tool's
 * description() changed since). New entries are written behind, as one record per session. A store that
 * fails to read gives an empty cache; this never rejects.
 */
export async function openPersistentSchemaCache(
  store: KeyValueStore,
  sessionId: string,
): Promise<PersistentSchemaCache> {
  const recordKey = schemaCacheRecordKey(sessionId);
  const map = new Map<string, CachedToolSchema>();
  try {
    const stored = await store.get<Record<string, unknown>>(recordKey);
    const suffix = `:v${SCHEMA_CACHE_FORMAT_VERSION}`;
    for (const [key, value] of Object.entries(stored ?? {})) {
      if (key.endsWith(suffix) && isCachedToolSchema(value)) map.set(key, value);
    }
  } catch (err) {
    console.warn('tabcode: could not load the schema cache; starting empty', err);
  }
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    writing = writing.then(async () => {
      await Promise.resolve();
      scheduled = false;
      try {
        await store.set(recordKey, Object.fromEntries(map));
      } catch (err) {
        console.warn('tabcode: could not store the schema cache', err);
      }
    });
  };
  return {
    get: (k) => map.get(k),
    set: (k, v) => {
      map.set(k, v);
      schedule();
    },
    size: () => map.size,
    entries: () => [...map.entries()],
    flush: () => writing,
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
