/**
 * Checks an embed config from a host page (which may be anything: it crossed a postMessage boundary).
 * Every field is checked on its own: a bad one is reported as a warning and left out, the rest applies.
 * Never throws.
 */
import { validateRule } from '../core/permissions/rules.ts';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';
import type {
  EmbedConfig,
  EmbedDemo,
  EmbedDemoText,
  EmbedDemoToolUse,
  EmbedDemoTurn,
  EmbedMcpServer,
  EmbedWarning,
} from './config.ts';

export interface ValidatedConfig {
  config: EmbedConfig;
  warnings: EmbedWarning[];
}

const KNOWN_FIELDS = [
  'files',
  'baseURL',
  'model',
  'maxTokens',
  'permissionMode',
  'permissions',
  'mcpServers',
  'sandbox',
  'demo',
] as const;
/** Fields that would carry a secret: refused with a pointer to the proxy setup. */
const KEY_FIELDS = ['apiKey', 'api_key', 'authToken', 'key'];
const SANDBOXES = ['auto', 'webcontainer', 'just-bash'] as const;
/** Upper bound of `maxTokens` (larger values are refused by every current model). */
export const MAX_EMBED_MAX_TOKENS = 128_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;

export function validateEmbedConfig(raw: unknown): ValidatedConfig {
  const warnings: EmbedWarning[] = [];
  const warn = (field: string, message: string): void => {
    warnings.push({ field, message });
  };
  const config: EmbedConfig = {};
  if (raw === undefined || raw === null) return { config, warnings };
  if (!isObject(raw)) {
    warn('config', `The config must be an object (got ${kindOf(raw)}); the defaults apply.`);
    return { config, warnings };
  }
  for (const field of Object.keys(raw)) {
    if (KEY_FIELDS.includes(field)) {
      warn(field, 'API keys are never taken from the config: point baseURL at a proxy that adds the key.');
    } else if (!(KNOWN_FIELDS as readonly string[]).includes(field)) {
      warn(field, `Unknown field "${field}", ignored.`);
    }
  }

  if (raw.files !== undefined) {
    const files = checkFiles(raw.files, warn);
    if (files) config.files = files;
  }
  if (raw.baseURL !== undefined) {
    const problem = urlProblem(raw.baseURL);
    if (problem) warn('baseURL', problem);
    else config.baseURL = raw.baseURL as string;
  }
  if (raw.model !== undefined) {
    if (typeof raw.model === 'string' && raw.model.trim()) config.model = raw.model.trim();
    else warn('model', `The model must be a non-empty string (got ${kindOf(raw.model)}).`);
  }
  if (raw.maxTokens !== undefined) {
    const n = raw.maxTokens;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_EMBED_MAX_TOKENS)
      config.maxTokens = n;
    else
      warn('maxTokens', `maxTokens must be an integer from 1 to ${MAX_EMBED_MAX_TOKENS} (got ${String(n)}).`);
  }
  if (raw.permissionMode !== undefined) {
    if ((PERMISSION_MODES as readonly unknown[]).includes(raw.permissionMode)) {
      config.permissionMode = raw.permissionMode as PermissionMode;
    } else {
      warn('permissionMode', `permissionMode must be one of ${PERMISSION_MODES.join(', ')}.`);
    }
  }
  if (raw.permissions !== undefined) {
    const permissions = checkPermissions(raw.permissions, warn);
    if (permissions) config.permissions = permissions;
  }
  if (raw.mcpServers !== undefined) {
    const servers = checkMcpServers(raw.mcpServers, warn);
    if (servers) config.mcpServers = servers;
  }
  if (raw.sandbox !== undefined) {
    if ((SANDBOXES as readonly unknown[]).includes(raw.sandbox)) {
      config.sandbox = raw.sandbox as EmbedConfig['sandbox'];
    } else warn('sandbox', `sandbox must be one of ${SANDBOXES.join(', ')}.`);
  }
  if (raw.demo !== undefined) {
    const demo = checkDemo(raw.demo, warn);
    if (demo) config.demo = demo;
  }
  return { config, warnings };
}

type Warn = (field: string, message: string) => void;

function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `A URL must be a string (got ${kindOf(value)}).`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return `Only http(s) URLs (got ${url.protocol}).`;
    return null;
  } catch {
    return `Not a URL: ${JSON.stringify(value.slice(0, 200))}.`;
  }
}

/** Project-relative paths only: no absolute paths, no `..`, no empty segments. */
function pathProblem(path: string): string | null {
  const clean = path.replace(/^\.\//, '');
  if (!clean) return 'An empty path.';
  if (clean.startsWith('/')) return 'Paths are relative to the project (no leading "/").';
  if (clean.split('/').some((s) => s === '..' || s === '' || s === '.'))
    return 'A path may not contain "..", "." or empty segments.';
  return null;
}

function checkFiles(value: unknown, warn: Warn): Record<string, string> | undefined {
  if (!isObject(value)) {
    warn('files', `files must be an object of path → text (got ${kindOf(value)}).`);
    return undefined;
  }
  const files: Record<string, string> = {};
  for (const [path, content] of Object.entries(value)) {
    const field = `files[${JSON.stringify(path)}]`;
    const problem = pathProblem(path);
    if (problem) warn(field, problem);
    else if (typeof content !== 'string')
      warn(field, `A file's content must be text (got ${kindOf(content)}).`);
    else files[path.replace(/^\.\//, '')] = content;
  }
  return files;
}

function checkPermissions(value: unknown, warn: Warn): EmbedConfig['permissions'] {
  if (!isObject(value)) {
    warn('permissions', `permissions must be { allow?, ask?, deny? } (got ${kindOf(value)}).`);
    return undefined;
  }
  const out: NonNullable<EmbedConfig['permissions']> = {};
  for (const key of Object.keys(value)) {
    if (key !== 'allow' && key !== 'ask' && key !== 'deny')
      warn(`permissions.${key}`, `Unknown field "${key}", ignored.`);
  }
  for (const behavior of ['allow', 'ask', 'deny'] as const) {
    const list = value[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      warn(`permissions.${behavior}`, `A list of rules is expected (got ${kindOf(list)}).`);
      continue;
    }
    const rules: string[] = [];
    for (const [i, rule] of list.entries()) {
      const field = `permissions.${behavior}[${i}]`;
      const parsed = typeof rule === 'string' ? validateRule(rule) : undefined;
      if (!parsed) warn(field, `A rule must be text (got ${kindOf(rule)}).`);
      else if (parsed.ok) rules.push(rule);
      else warn(field, `${JSON.stringify(rule)}: ${parsed.reason}`);
    }
    out[behavior] = rules;
  }
  return out;
}

function checkMcpServers(value: unknown, warn: Warn): EmbedMcpServer[] | undefined {
  if (!Array.isArray(value)) {
    warn('mcpServers', `mcpServers must be a list (got ${kindOf(value)}).`);
    return undefined;
  }
  const servers: EmbedMcpServer[] = [];
  for (const [i, s] of value.entries()) {
    const problem = serverProblem(s);
    if (problem) {
      warn(`mcpServers[${i}]${problem.at}`, problem.message);
      continue;
    }
    const server = s as Json;
    servers.push({
      name: server.name as string,
      url: server.url as string,
      ...(server.transport ? { transport: server.transport as 'http' | 'sse' } : {}),
      ...(server.headers ? { headers: server.headers as Record<string, string> } : {}),
    });
  }
  return servers;
}

function serverProblem(s: unknown): { at: string; message: string } | null {
  if (!isObject(s)) return { at: '', message: `A server must be { name, url } (got ${kindOf(s)}).` };
  if (typeof s.name !== 'string' || !s.name.trim()) return { at: '.name', message: 'A server needs a name.' };
  const problem = urlProblem(s.url);
  if (problem) return { at: '.url', message: problem };
  if (s.transport !== undefined && s.transport !== 'http' && s.transport !== 'sse')
    return { at: '.transport', message: 'transport must be "http" or "sse".' };
  const headers = s.headers;
  if (
    headers !== undefined &&
    !(isObject(headers) && Object.values(headers).every((h) => typeof h === 'string'))
  )
    return { at: '.headers', message: 'headers must be an object of strings.' };
  return null;
}

function checkDemo(value: unknown, warn: Warn): EmbedDemo | undefined {
  if (!isObject(value) || !Array.isArray(value.turns)) {
    warn('demo', 'demo must be { turns: [...] }.');
    return undefined;
  }
  const demo: EmbedDemo = { turns: [] };
  for (const [i, turn] of value.turns.entries()) {
    const checked = checkTurn(turn, `demo.turns[${i}]`, warn);
    if (checked) demo.turns.push(checked);
  }
  if (value.chunkDelayMs !== undefined) {
    const d = value.chunkDelayMs;
    if (typeof d === 'number' && d >= 0 && d <= 5000) demo.chunkDelayMs = d;
    else warn('demo.chunkDelayMs', 'chunkDelayMs must be a number of ms from 0 to 5000.');
  }
  if (value.endText !== undefined) {
    if (typeof value.endText === 'string') demo.endText = value.endText;
    else warn('demo.endText', 'endText must be a string.');
  }
  return demo;
}

/** A turn with any bad block is left out whole (half a turn would tell a different story). */
function checkTurn(turn: unknown, field: string, warn: Warn): EmbedDemoTurn | undefined {
  if (!isObject(turn) || !Array.isArray(turn.content) || turn.content.length === 0) {
    warn(field, 'A turn must be { content: [blocks] } with at least one block; the turn is left out.');
    return undefined;
  }
  const content: EmbedDemoTurn['content'] = [];
  for (const [j, b] of turn.content.entries()) {
    const bf = `${field}.content[${j}]`;
    if (isObject(b) && b.type === 'text' && typeof b.text === 'string') {
      content.push({ type: 'text', text: b.text } satisfies EmbedDemoText);
    } else if (isObject(b) && b.type === 'tool_use' && typeof b.name === 'string' && isObject(b.input)) {
      if (b.id !== undefined && (typeof b.id !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(b.id))) {
        warn(`${bf}.id`, 'A tool_use id must be letters, digits, _ or -; the turn is left out.');
        return undefined;
      }
      content.push({
        type: 'tool_use',
        ...(b.id ? { id: b.id as string } : {}),
        name: b.name,
        input: b.input,
      } satisfies EmbedDemoToolUse);
    } else {
      warn(
        bf,
        'A block must be { type: "text", text } or { type: "tool_use", name, input }; the turn is left out.',
      );
      return undefined;
    }
  }
  return { content };
}
