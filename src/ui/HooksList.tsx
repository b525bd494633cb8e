/**
 * The session's hooks in the Permissions panel: each with its event, matcher, what runs (a command in
 * the sandbox, or the embedding page's function) and where it comes from, and any problem with
 * `.claude/settings.json`.
 */
import { useEffect, useState } from 'react';
import { HOOKS_SETTINGS_FILE } from '../agent/habits/hooks-settings.ts';
import type { SessionHooks } from '../agent/habits/session-hooks.ts';
import type { HookDefinition } from '../core/hooks/types.ts';
import './habits.css';

export function HooksList({ hooks }: { hooks: SessionHooks | undefined }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!hooks) return;
    void hooks.refresh().then(() => setTick((n) => n + 1));
    return hooks.onChange(() => setTick((n) => n + 1));
  }, [hooks]);
  if (!hooks) return null;
  const list: HookDefinition[] = hooks.list();
  const problems = hooks.problems();
  return (
    <section className="hooks-list" data-testid="hooks-list" aria-label="Hooks">
      <div className="panel-head">
        <span className="panel-title">Hooks</span>
        <span className="muted panel-count">{list.length}</span>
      </div>
      {list.length === 0 ? (
        <p className="muted">
          No hooks. Add them to <code>{HOOKS_SETTINGS_FILE}</code> in the project (Claude Code's format):
          commands run in the sandbox with the event as JSON on stdin; exit code 2 blocks.
        </p>
      ) : (
        <ul className="hooks-items">
          {list.map((h) => (
            <li
              key={`${h.source}:${h.event}:${h.matcher ?? ''}:${h.label}`}
              className="hook-item"
              data-testid="hook-item"
              data-event={h.event}
              data-source={h.source}
            >
              <span className="hook-event">{h.event}</span>
              {h.matcher && <span className="hook-matcher mono">{h.matcher}</span>}
              <span className="hook-label mono">{h.fn ? `function ${h.label}` : h.label}</span>
              <span className="hook-source muted">
                {h.source === 'embed' ? 'embedding page' : HOOKS_SETTINGS_FILE}
              </span>
            </li>
          ))}
        </ul>
      )}
      {problems.map((p) => (
        <p key={p} className="hook-problem" role="alert" data-testid="hook-problem">
          {p}
        </p>
      ))}
    </section>
  );
}
