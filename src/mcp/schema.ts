/**
 * MCP tool input schemas → what the Messages API takes: JSON Schema 2020-12. Servers still send older
 * drafts (draft-04's boolean `exclusiveMinimum`, tuple `items`, `dependencies`); where the meaning is
 * clear the schema is rewritten to its 2020-12 form, then checked against the 2020-12 meta-schema with
 * Ajv (the validator the MCP SDK itself uses). A schema that still fails is reported with Ajv's words
 * and its tool is skipped; a tool the model could only call wrongly is worse than no tool.
 *
 * Ajv is loaded on first use (with the SDK), so a page without MCP servers never downloads it.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deepest schema nesting accepted (a guard against hostile schemas). */
const MAX_SCHEMA_DEPTH = 64;
const SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** Keywords whose value is one subschema, a list of them, or a name → subschema map. */
const ONE = [
  'additionalProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

class TooDeep extends Error {}

/** One schema node rewritten to 2020-12 (a copy); `notes` collects what changed. */
function normalizeNode(node: unknown, depth: number, notes: Set<string>): unknown {
  if (!isObject(node)) return node;
  if (depth > MAX_SCHEMA_DEPTH) throw new TooDeep();
  const out: Json = { ...node };
  // draft-04: exclusiveMinimum/Maximum were booleans modifying minimum/maximum.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
    notes.add(`boolean ${flag} (draft-04)`);
  }
  // draft-04…2019-09: `items: [..]` was a tuple, `additionalItems` what follows it.
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    if (out.additionalItems !== undefined) out.items = out.additionalItems;
    else delete out.items;
    delete out.additionalItems;
    notes.add('tuple items (before 2020-12)');
  }
  // draft-04…07: `dependencies` mixed required-lists and schemas.
  if (isObject(out.dependencies)) {
    const required: Json = {};
    const schemas: Json = {};
    for (const [k, v] of Object.entries(out.dependencies)) (Array.isArray(v) ? required : schemas)[k] = v;
    if (Object.keys(required).length)
      out.dependentRequired = { ...(out.dependentRequired as Json), ...required };
    if (Object.keys(schemas).length) out.dependentSchemas = { ...(out.dependentSchemas as Json), ...schemas };
    delete out.dependencies;
    notes.add('dependencies (before 2019-09)');
  }
  if (typeof out.$schema === 'string' && out.$schema.replace(/#$/, '') !== SCHEMA_2020) {
    notes.add(`$schema ${out.$schema}`);
    delete out.$schema;
  }
  for (const k of ONE) if (k in out) out[k] = normalizeNode(out[k], depth + 1, notes);
  for (const k of LIST) {
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((s) => normalizeNode(s, depth + 1, notes));
  }
  for (const k of MAP) {
    const map = out[k];
    if (!isObject(map)) continue;
    const next: Json = {};
    for (const [name, s] of Object.entries(map)) next[name] = normalizeNode(s, depth + 1, notes);
    out[k] = next;
  }
  return out;
}

/**
 * True when some node of `node` needs normalizeNode's rewriting (the same tests, nothing copied);
 * throws TooDeep past MAX_SCHEMA_DEPTH like normalizeNode.
 */
function needsRewrite(node: unknown, depth: number): boolean {
  if (!isObject(node)) return false;
  if (depth > MAX_SCHEMA_DEPTH) throw new TooDeep();
  if (typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean') return true;
  if (Array.isArray(node.items) || isObject(node.dependencies)) return true;
  if (typeof node.$schema === 'string' && node.$schema.replace(/#$/, '') !== SCHEMA_2020) return true;
  for (const k of ONE) if (k in node && needsRewrite(node[k], depth + 1)) return true;
  for (const k of LIST) {
    const list = node[k];
    if (Array.isArray(list) && list.some((s) => needsRewrite(s, depth + 1))) return true;
  }
  for (const k of MAP) {
    const map = node[k];
    if (isObject(map) && Object.values(map).some((s) => needsRewrite(s, depth + 1))) return true;
  }
  return false;
}

export type NormalizedSchema = { schema: Json; notes: string[] } | { problem: string };

/**
 * `schema` in its 2020-12 form with the list of older-draft forms rewritten, or the problem when it
 * is nested deeper than MAX_SCHEMA_DEPTH. Never throws; the input is not modified (a schema that is
 * already 2020-12, the usual case, is returned as it is: copying it cost most of the time here).
 */
export function normalizeSchema(schema: Json): NormalizedSchema {
  const notes = new Set<string>();
  try {
    if (!needsRewrite(schema, 0)) return { schema, notes: [] };
    return { schema: normalizeNode(schema, 0, notes) as Json, notes: [...notes] };
  } catch (err) {
    if (err instanceof TooDeep)
      return { problem: `its inputSchema is nested more than ${MAX_SCHEMA_DEPTH} levels deep` };
    throw err;
  }
}

/** Checks a (normalized) schema against the 2020-12 meta-schema: the problem, or null. Never throws. */
export type SchemaValidator = (schema: Json) => string | null;

let validatorPromise: Promise<SchemaValidator> | undefined;

/** The Ajv-backed validator (loaded once). */
export function loadSchemaValidator(): Promise<SchemaValidator> {
  validatorPromise ??= import('ajv/dist/2020.js').then((mod) => {
    // The package is CommonJS: the class is the default export (or the module itself).
    const Ajv2020 = ((mod as { default?: unknown }).default ??
      mod) as typeof import('ajv/dist/2020.js').default;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    return (schema: Json) => {
      try {
        const { $schema: _, ...rest } = schema;
        if (ajv.validateSchema(rest)) return null;
        const why = (ajv.errors ?? [])
          .slice(0, 2)
          .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
          .join('; ');
        return `its inputSchema is not valid JSON Schema 2020-12 (${why})`;
      } catch (err) {
        return `its inputSchema could not be checked (${err instanceof Error ? err.message : String(err)})`;
      }
    };
  });
  return validatorPromise;
}
