/**
 * What `createAgentSession` is given, and the session data it keeps across page reloads (the start date
 * in the system prompt, so a reloaded page sends it byte for byte).
 */
import type { ToolSearchSetting } from '../core/deferred-tools.ts';
import type { PermissionSettingsStorage } from '../core/permissions/store.ts';
import type { PermissionRuleSet } from '../core/permissions/types.ts';
import type { KeyValueStore } from '../core/storage.ts';
import { today } from '../core/system-prompt.ts';
import type { AnyTool } from '../core/tool.ts';
import type { McpManager } from '../mcp/index.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { OpenSandboxOptions } from '../sandbox/select.ts';
import type { SkillDefinition } from '../tools/skill/skills.ts';
import type { HookRegistration } from './habits/session-hooks.ts';
import type { AgentSettings } from './types.ts';

export interface CreateAgentSessionOptions {
  settings?: Partial<AgentSettings>;
  sandbox?: Sandbox;
  /** Without `sandbox`: how to open one (the embed config's files and choice, no saved project). */
  openSandbox?: OpenSandboxOptions;
  /**
   * Requests need no key from the page: `fetch` answers in the page (the scripted demo) or the base URL is
   * a proxy that adds the key (an embedding host's). A placeholder is sent when no key is set.
   */
  keyless?: boolean;
  /** Extra tools (e.g. MCP), placed after the built-ins. */
  mcpTools?: AnyTool[];
  /** MCP servers; their tools join the pool at every turn. Default: a persisted manager; null: none. */
  mcp?: McpManager | null;
  /** Blanket deny rules that remove tools from the pool (embed deny rules, like `permissions.rules.deny`). */
  denyRules?: string[];
  /**
   * Permission rules of the host page (the embed config, shown with source "embed") and where the user's
   * settings rules persist (default: IndexedDB; null: nowhere).
   */
  permissions?: {
    rules?: PermissionRuleSet;
    storage?: PermissionSettingsStorage | null;
    /** Where "allow always" rules persist (default: this project's, in IndexedDB; none when `storage` is null). */
    projectStorage?: PermissionSettingsStorage | null;
  };
  fetch?: typeof fetch;
  /**
   * Names the session across page reloads: its schema cache and start date are stored under it, so a
   * reloaded page sends byte-identical tools and system (the prompt cache keeps hitting). Default: new.
   */
  sessionId?: string;
  /** Where the schema cache and session data (`session`) and spilled results (`results`) live. Default: IndexedDB, else memory. */
  storage?: { session?: KeyValueStore; results?: KeyValueStore };
  /** How ToolSearch results reach the model: 'auto' (default: native, portable once the endpoint refuses it). */
  toolSearch?: ToolSearchSetting;
  /** Prompt-cache TTL of the breakpoints (default DEFAULT_CACHE_TTL; '1h' for long idle gaps). */
  cacheTtl?: '5m' | '1h';
  /** The session clock (the date in the system prompt on first use). Default: now. */
  now?: () => Date;
  /** Project memory the host supplies (beside the workspace's CLAUDE.md); `setMemory` changes it later. */
  memory?: string;
  /** Hooks the host registers as functions (`hooks.register` adds more later). */
  hooks?: HookRegistration[];
  /** Skills the embedding page gives (beside the workspace's .claude/skills). */
  skills?: SkillDefinition[];
}

/** The record of a session's start date (kept so the system prompt survives a reload byte for byte). */
const sessionMetaKey = (sessionId: string) => `session-meta:v1:${sessionId}`;

/** The date a session started, stored on first use. Never rejects (storage failures fall back to today). */
export async function sessionDate(store: KeyValueStore, sessionId: string, now: Date): Promise<string> {
  try {
    const meta = await store.get<{ date?: unknown }>(sessionMetaKey(sessionId));
    if (typeof meta?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(meta.date)) return meta.date;
    const date = today(now);
    await store.set(sessionMetaKey(sessionId), { date });
    return date;
  } catch {
    return today(now);
  }
}
