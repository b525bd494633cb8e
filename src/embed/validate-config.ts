/**
 * Checks an embed config from a host page (which may be anything: it crossed a postMessage boundary).
 * Every field is checked on its own: a bad one is reported as a warning and left out, the rest applies.
 * Never throws.
 */

import { messageOf } from '../core/errors.ts';
import { validateRule } from '../core/permissions/rules.ts';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';
import type { EmbedConfig, EmbedMcpServer, EmbedPermissionMode, EmbedWarning } from './config.ts';
import { checkAutorun, checkHeight, checkLayout, checkTheme } from './validate-look.ts';
import { checkDemo, checkLessons, checkReplay } from './validate-replay.ts';
import {
  checkFiles,
  checkPrompt,
  isObject,
  type Json,
  kindOf,
  MAX_EMBED_FILE_CHARS,
  pathProblem,
  urlProblem,
  type Warn,
} from './validate-shared.ts';

// The public list of modes is the engine's list (a compile error here when they part).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const MODES_MATCH: Same<EmbedPermissionMode, PermissionMode> = true;
void MODES_MATCH;

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
  'toolSearchEncoder',
  'sandbox',
  'theme',
  'layout',
  'height',
  'autorun',
  'prompt',
  'memory',
  'readOnly',
  'resetLabel',
  'dependencies',
  'lessons',
  'replay',
  'replaySpeed',
  'record',
  'demo',
] as const;
/** Fields that would carry a secret: refused with a pointer to the proxy setup. */
const KEY_FIELDS = ['apiKey', 'api_key', 'authToken', 'key'];
const SANDBOXES = ['auto', 'webcontainer', 'just-bash'] as const;
/** Upper bound of `maxTokens` (larger values are refused by every current model). */
export const MAX_EMBED_MAX_TOKENS = 128_000;
/** Fastest replay pace (× the recorded one); 0 means no waiting at all. */
export const MAX_REPLAY_SPEED = 100;
/** Most npm packages a config may ask for. */
export const MAX_EMBED_DEPENDENCIES = 50;
/** npm's rules for a package name (scoped or not), and the spec text it may carry. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const NPM_SPEC = /^[\w.*^~<>=|+ -]{1,100}$/;

/**
 * The config with every bad field left out, and a warning for each. Never throws (a config whose
 * properties throw when read is refused whole).
 */
export function validateEmbedConfig(raw: unknown): ValidatedConfig {
  try {
    return validate(raw);
  } catch (err) {
    return {
      config: {},
      warnings: [
        {
          field: 'config',
          message: `The config could not be read (${messageOf(err)}); the defaults apply.`,
        },
      ],
    };
  }
}

function validate(raw: unknown): ValidatedConfig {
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
    const files = checkFiles(raw.files, 'files', warn);
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
  if (raw.toolSearchEncoder !== undefined) {
    if (typeof raw.toolSearchEncoder === 'boolean') config.toolSearchEncoder = raw.toolSearchEncoder;
    else
      warn(
        'toolSearchEncoder',
        `toolSearchEncoder must be true or false (got ${kindOf(raw.toolSearchEncoder)}).`,
      );
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
  const set = <K extends keyof EmbedConfig>(key: K, value: EmbedConfig[K] | undefined) => {
    if (value !== undefined) config[key] = value;
  };
  if (raw.theme !== undefined) set('theme', checkTheme(raw.theme, warn));
  if (raw.layout !== undefined) set('layout', checkLayout(raw.layout, warn));
  if (raw.height !== undefined) set('height', checkHeight(raw.height, warn));
  if (raw.autorun !== undefined) set('autorun', checkAutorun(raw.autorun, warn));
  if (raw.prompt !== undefined) set('prompt', checkPrompt(raw.prompt, 'prompt', warn));
  if (raw.memory !== undefined) {
    // A long memory is cut (with a note to the model) when a turn reads it; beyond a file's size it is refused.
    if (typeof raw.memory === 'string' && raw.memory.length <= MAX_EMBED_FILE_CHARS)
      config.memory = raw.memory;
    else
      warn(
        'memory',
        `memory must be text of at most ${MAX_EMBED_FILE_CHARS.toLocaleString('en-US')} characters (like a CLAUDE.md).`,
      );
  }
  if (raw.readOnly !== undefined) set('readOnly', checkReadOnly(raw.readOnly, warn));
  if (raw.resetLabel !== undefined) {
    const label = raw.resetLabel;
    if (typeof label === 'string' && label.trim() && label.length <= 40) config.resetLabel = label.trim();
    else warn('resetLabel', 'resetLabel must be text of 1 to 40 characters.');
  }
  if (raw.dependencies !== undefined) set('dependencies', checkDependencies(raw.dependencies, warn));
  if (raw.lessons !== undefined) set('lessons', checkLessons(raw.lessons, warn));
  if (raw.replay !== undefined) {
    const r = raw.replay;
    if (typeof r === 'string' && !r.trim().startsWith('{')) {
      if (r.trim() && r.length <= 2000) config.replay = r.trim();
      else warn('replay', 'replay must be a replay object, or the URL of a replay file.');
    } else set('replay', checkReplay(r, 'replay', warn));
  }
  if (raw.replaySpeed !== undefined) {
    const v = raw.replaySpeed;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_REPLAY_SPEED)
      config.replaySpeed = v;
    else
      warn(
        'replaySpeed',
        `replaySpeed must be a number from 0 (no waiting) to ${MAX_REPLAY_SPEED}; 1 is the recorded pace.`,
      );
  }
  if (raw.record !== undefined) {
    if (typeof raw.record === 'boolean') config.record = raw.record;
    else warn('record', 'record must be true or false.');
  }
  if (raw.demo !== undefined) set('demo', checkDemo(raw.demo, warn));
  if (config.demo && config.replay) {
    warn('demo', 'Both demo and replay were given: the replay plays, the demo is ignored.');
    delete config.demo;
  }
  if (config.lessons && (config.replay || config.demo)) {
    warn(
      'lessons',
      'A lesson carries its own replays (per step); the config-level replay or demo is ignored.',
    );
    delete config.replay;
    delete config.demo;
  }
  return { config, warnings };
}

function checkReadOnly(value: unknown, warn: Warn): string[] | undefined {
  if (!Array.isArray(value)) {
    warn('readOnly', `readOnly must be a list of paths or patterns (got ${kindOf(value)}).`);
    return undefined;
  }
  const out: string[] = [];
  for (const [i, p] of value.entries()) {
    const problem =
      typeof p !== 'string'
        ? `A pattern must be text (got ${kindOf(p)}).`
        : /[()]/.test(p)
          ? 'A pattern may not contain parentheses.'
          : pathProblem(p.replace(/\/\*\*$/, '/x').replace(/\*/g, 'x'));
    if (problem) warn(`readOnly[${i}]`, problem);
    else out.push((p as string).replace(/^\.\//, ''));
  }
  return out;
}

function checkDependencies(value: unknown, warn: Warn): Record<string, string> | undefined {
  if (!isObject(value)) {
    warn(
      'dependencies',
      `dependencies must be an object of package name → version range (got ${kindOf(value)}).`,
    );
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(value)) {
    const field = `dependencies[${JSON.stringify(name.slice(0, 100))}]`;
    if (!NPM_NAME.test(name) || name.length > 214)
      warn(field, `${JSON.stringify(name.slice(0, 100))} is not an npm package name.`);
    else if (typeof spec !== 'string' || !NPM_SPEC.test(spec))
      warn(field, 'The version must be a range like "^1.2.0", "1.x" or "latest".');
    else if (Object.keys(out).length >= MAX_EMBED_DEPENDENCIES)
      warn(field, `At most ${MAX_EMBED_DEPENDENCIES} dependencies; this one is left out.`);
    else out[name] = spec;
  }
  return out;
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
