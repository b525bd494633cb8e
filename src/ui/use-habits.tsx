/**
 * The workbench's Claude Code habits in one place: the prompt box's autocomplete (slash commands, `@`
 * files), the page's own commands and `!` lines (run before anything is sent), and the context meter's
 * figures (used / window / the auto-compaction threshold). App wires what this returns.
 */
import { type RefObject, useEffect, useState } from 'react';
import type { AgentSession, AgentSettings } from '../agent/types.ts';
import { autoCompactRatio } from '../core/compaction/ratio.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import type { ContextMeterProps } from './ContextMeter.tsx';
import { downloadText } from './download.ts';
import { MentionPicker } from './MentionPicker.tsx';
import { SlashMenu } from './SlashMenu.tsx';
import type { SideTab } from './settings-store.ts';
import { runPageCommand } from './slash-actions.ts';
import { contextUsed } from './usage-state.ts';
import { usePromptCompletion } from './use-prompt-completion.ts';
import type { Workbench } from './use-workbench.ts';

/** A model's context window, as the agent knows it (null until it answers). */
export function useContextWindow(
  agent: AgentSession | null,
  model: string,
  apiKey: string,
): ContextWindow | null {
  const [window, setWindow] = useState<ContextWindow | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again when the key changes (the API can then say)
  useEffect(() => {
    if (!agent?.contextWindow) return;
    let live = true;
    void agent.contextWindow(model).then((w) => live && setWindow(w));
    return () => {
      live = false;
    };
  }, [agent, model, apiKey]);
  return window;
}

export interface Habits {
  completion: { menu: React.ReactNode; onKeyDown: (e: React.KeyboardEvent<HTMLTextAreaElement>) => boolean };
  /** Runs a `!` line or a page command; true when it did (nothing is then sent). */
  dispatch(text: string): boolean;
  context?: Omit<ContextMeterProps, 'variant' | 'onOpen'>;
}

export function useHabits(o: {
  wb: Workbench;
  settings: AgentSettings;
  prompt: string;
  setPrompt: (value: string) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  showTab: (tab: SideTab) => void;
  openFile: (path: string) => void;
}): Habits {
  const { wb, settings } = o;
  const agent = wb.agent;
  const completion = usePromptCompletion({
    value: o.prompt,
    onChange: o.setPrompt,
    inputRef: o.inputRef,
    agent,
  });
  const window = useContextWindow(agent, settings.model, settings.apiKey);
  const usage = wb.view?.usage;
  const used = usage ? contextUsed(usage) : undefined;
  const compactAt = settings.autoCompact === false ? undefined : autoCompactRatio(settings);
  const menu = completion.menu ? (
    completion.menu.kind === 'command' ? (
      <SlashMenu items={completion.menu.items} active={completion.menu.active} onPick={completion.pick} />
    ) : (
      <MentionPicker items={completion.menu.items} active={completion.menu.active} onPick={completion.pick} />
    )
  ) : null;

  const dispatch = (text: string): boolean => {
    const model = wb.model;
    if (!agent || !model) return false;
    const view = wb.view;
    return runPageCommand(text, {
      agent,
      output: (input, out, tone) => model.local({ type: 'local-command', input, output: out, tone }),
      commands: completion.commands,
      requests: view?.usage.requests ?? [],
      contextUsed: used,
      window,
      newSession: wb.newSession,
      setModel: (m) => wb.updateSettings({ model: m }),
      showTab: o.showTab,
      openFile: o.openFile,
      openSessions: () => wb.updatePrefs({ sessionsOpen: true }),
      sessions: wb.sessions,
      switchSession: wb.switchSession,
      exportCurrent: async () => {
        if (!view) return;
        const file = await wb.exportSession(view.id);
        if (file) downloadText(file.name, file.json, 'application/json');
      },
    });
  };

  return {
    completion: { menu, onKeyDown: completion.onKeyDown },
    dispatch,
    ...(window ? { context: { used, window, compactAt } } : {}),
  };
}
