/**
 * The session's hooks: the workspace's `.claude/settings.json` hooks (read at the start of every turn,
 * so an edit takes effect with the next prompt) and functions an embedding page registers. One runner
 * over both; the Permissions panel lists them with their source and any problem with the file.
 */

import { messageOf } from '../../core/errors.ts';
import { createHookRunner, hooksFromSettingsText } from '../../core/hooks/index.ts';
import type { HookDefinition, HookFunction, HookRunner } from '../../core/hooks/types.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { HOOKS_SETTINGS_FILE } from './hooks-settings.ts';

export { HOOKS_SETTINGS_FILE } from './hooks-settings.ts';

/** A function hook as an embedding page registers it. */
export interface HookRegistration {
  event: HookDefinition['event'];
  matcher?: string;
  fn: HookFunction;
  timeoutMs?: number;
  /** Shown in the Permissions panel (default: the function's name). */
  label?: string;
}

export interface SessionHooks {
  readonly runner: HookRunner;
  /** Every hook in force, page hooks first. */
  list(): HookDefinition[];
  /** Problems with the settings file (invalid JSON, an unknown event...), for the panel. */
  problems(): string[];
  /** Registers a function hook; returns the function that removes it. */
  register(hook: HookRegistration): () => void;
  /** Reads the settings file again. Never rejects. */
  refresh(): Promise<void>;
  /** Called when the list changes. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export function createSessionHooks(options: {
  sandbox: Sandbox;
  sessionId: string;
  cwd?: () => string;
  permissionMode?: () => string;
}): SessionHooks {
  let workspace: HookDefinition[] = [];
  let problems: string[] = [];
  let lastText: string | null = null;
  const page: HookDefinition[] = [];
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) {
      try {
        l();
      } catch {}
    }
  };
  const list = () => [...page, ...workspace];
  const runner = createHookRunner({
    hooks: list,
    sandbox: options.sandbox,
    sessionId: options.sessionId,
    cwd: options.cwd,
    permissionMode: options.permissionMode,
  });
  return {
    runner,
    list,
    problems: () => [...problems],
    register(hook) {
      const def: HookDefinition = {
        event: hook.event,
        matcher: hook.matcher,
        fn: hook.fn,
        timeoutMs: hook.timeoutMs,
        source: 'embed',
        label: hook.label ?? (hook.fn.name || 'function hook'),
      };
      page.push(def);
      changed();
      return () => {
        const i = page.indexOf(def);
        if (i >= 0) page.splice(i, 1);
        changed();
      };
    },
    async refresh() {
      let text: string | null = null;
      try {
        if (await options.sandbox.exists(HOOKS_SETTINGS_FILE))
          text = await options.sandbox.readFile(HOOKS_SETTINGS_FILE);
      } catch (err) {
        problems = [`${HOOKS_SETTINGS_FILE} could not be read: ${messageOf(err)}`];
        workspace = [];
        changed();
        return;
      }
      if (text === lastText) return;
      lastText = text;
      const parsed =
        text === null
          ? { hooks: [], problems: [] }
          : hooksFromSettingsText(text, 'workspace', HOOKS_SETTINGS_FILE);
      workspace = parsed.hooks;
      problems = parsed.problems;
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
