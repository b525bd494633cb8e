/**
 * Elicitation forms (MCP `elicitation/create`, form mode): the requested schema → fields a form can
 * show, with their defaults applied (SEP-1034), and the user's input → the `content` sent back, checked
 * against the schema (required fields, types, lengths, ranges, formats, enum members). Plain data, so
 * the page's form and the tests share it. The schema is the spec's restricted one: an object of
 * string, number, integer, boolean and enum properties (single choice, titled choices, multi-select).
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ElicitOption {
  value: string;
  label: string;
}

export type ElicitField =
  | (FieldBase & {
      kind: 'text';
      format?: 'email' | 'uri' | 'date' | 'date-time';
      minLength?: number;
      maxLength?: number;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'choice'; options: ElicitOption[] })
  | (FieldBase & { kind: 'multi'; options: ElicitOption[]; minItems?: number; maxItems?: number });

interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  /** The schema's default, already in the field's value type. */
  default?: string | number | boolean | string[];
}

/** A form's values: strings for text/number/choice inputs, booleans, and lists for multi-select. */
export type ElicitValues = Record<string, string | boolean | string[]>;

/** The choices of an enum schema: `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function optionsOf(s: Json): ElicitOption[] | null {
  if (Array.isArray(s.enum)) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.map((v, i) => ({
      value: String(v),
      label: typeof names[i] === 'string' ? names[i] : String(v),
    }));
  }
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (!list) return null;
  const out: ElicitOption[] = [];
  for (const o of list) {
    if (!isObject(o) || o.const === undefined) return null;
    out.push({ value: String(o.const), label: typeof o.title === 'string' ? o.title : String(o.const) });
  }
  return out;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The fields of a requested schema, in property order; null when it is not the restricted object
 * schema (the request is then declined). Never throws.
 */
export function elicitationFields(schema: unknown): ElicitField[] | null {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return null;
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const fields: ElicitField[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    if (!isObject(raw)) return null;
    const base: FieldBase = {
      name,
      label: typeof raw.title === 'string' && raw.title ? raw.title : name,
      required: required.has(name),
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    };
    const options = optionsOf(raw);
    if (raw.type === 'array') {
      const items = isObject(raw.items) ? optionsOf(raw.items) : null;
      if (!items) return null;
      const def = Array.isArray(raw.default) ? raw.default.map(String) : undefined;
      fields.push({
        ...base,
        kind: 'multi',
        options: items,
        ...(num(raw.minItems) !== undefined ? { minItems: num(raw.minItems) } : {}),
        ...(num(raw.maxItems) !== undefined ? { maxItems: num(raw.maxItems) } : {}),
        ...(def ? { default: def } : {}),
      });
    } else if (options && (raw.type === 'string' || raw.type === undefined)) {
      fields.push({
        ...base,
        kind: 'choice',
        options,
        ...(raw.default !== undefined ? { default: String(raw.default) } : {}),
      });
    } else if (raw.type === 'string') {
      const format = ['email', 'uri', 'date', 'date-time'].includes(String(raw.format))
        ? (raw.format as 'email' | 'uri' | 'date' | 'date-time')
        : undefined;
      fields.push({
        ...base,
        kind: 'text',
        ...(format ? { format } : {}),
        ...(num(raw.minLength) !== undefined ? { minLength: num(raw.minLength) } : {}),
        ...(num(raw.maxLength) !== undefined ? { maxLength: num(raw.maxLength) } : {}),
        ...(typeof raw.default === 'string' ? { default: raw.default } : {}),
      });
    } else if (raw.type === 'number' || raw.type === 'integer') {
      fields.push({
        ...base,
        kind: 'number',
        integer: raw.type === 'integer',
        ...(num(raw.minimum) !== undefined ? { minimum: num(raw.minimum) } : {}),
        ...(num(raw.maximum) !== undefined ? { maximum: num(raw.maximum) } : {}),
        ...(num(raw.default) !== undefined ? { default: num(raw.default) } : {}),
      });
    } else if (raw.type === 'boolean') {
      fields.push({
        ...base,
        kind: 'boolean',
        ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}),
      });
    } else {
      return null;
    }
  }
  return fields;
}

/** The form's starting values: every default applied, empty otherwise. */
export function initialValues(fields: readonly ElicitField[]): ElicitValues {
  const values: ElicitValues = {};
  for (const f of fields) {
    if (f.kind === 'boolean') values[f.name] = f.default === true;
    else if (f.kind === 'multi') values[f.name] = Array.isArray(f.default) ? [...f.default] : [];
    else values[f.name] = f.default === undefined ? '' : String(f.default);
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function formatProblem(format: string | undefined, v: string): string | null {
  if (format === 'email' && !EMAIL.test(v)) return 'must be an email address';
  if (format === 'uri') {
    try {
      new URL(v);
    } catch {
      return 'must be a URL';
    }
  }
  if (format === 'date' && !(DATE.test(v) && !Number.isNaN(Date.parse(v))))
    return 'must be a date (YYYY-MM-DD)';
  if (format === 'date-time' && Number.isNaN(Date.parse(v))) return 'must be a date and time';
  return null;
}

/**
 * The user's values → the content to send, or the problem of each field that is wrong. An empty
 * optional field is left out; a boolean is always sent.
 */
export function elicitationContent(
  fields: readonly ElicitField[],
  values: ElicitValues,
): { content: Record<string, string | number | boolean | string[]> } | { errors: Record<string, string> } {
  const content: Record<string, string | number | boolean | string[]> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      content[f.name] = v === true;
      continue;
    }
    if (f.kind === 'multi') {
      const list = Array.isArray(v) ? v.filter((x) => f.options.some((o) => o.value === x)) : [];
      if (f.required && list.length === 0) errors[f.name] = 'choose at least one';
      else if (f.minItems !== undefined && list.length < f.minItems)
        errors[f.name] = `choose at least ${f.minItems}`;
      else if (f.maxItems !== undefined && list.length > f.maxItems)
        errors[f.name] = `choose at most ${f.maxItems}`;
      else if (list.length) content[f.name] = list;
      continue;
    }
    const s = typeof v === 'string' ? v.trim() : '';
    if (s === '') {
      if (f.required) errors[f.name] = 'is required';
      continue;
    }
    if (f.kind === 'choice') {
      if (!f.options.some((o) => o.value === s)) errors[f.name] = 'must be one of the choices';
      else content[f.name] = s;
    } else if (f.kind === 'number') {
      const n = Number(s);
      if (!Number.isFinite(n)) errors[f.name] = 'must be a number';
      else if (f.integer && !Number.isInteger(n)) errors[f.name] = 'must be a whole number';
      else if (f.minimum !== undefined && n < f.minimum) errors[f.name] = `must be at least ${f.minimum}`;
      else if (f.maximum !== undefined && n > f.maximum) errors[f.name] = `must be at most ${f.maximum}`;
      else content[f.name] = n;
    } else {
      const problem =
        f.minLength !== undefined && s.length < f.minLength
          ? `must be at least ${f.minLength} characters`
          : f.maxLength !== undefined && s.length > f.maxLength
            ? `must be at most ${f.maxLength} characters`
            : formatProblem(f.format, s);
      if (problem) errors[f.name] = problem;
      else content[f.name] = s;
    }
  }
  return Object.keys(errors).length ? { errors } : { content };
}
