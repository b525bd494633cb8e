/**
 * The permission rules in force, grouped deny / ask / allow, each with where it came from (embed config,
 * settings, this session), and a form to add settings rules. A malformed rule is refused with its reason;
 * the other rules keep working. Standalone: give it the session.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { AgentSession } from '../agent/types.ts';
import type { PermissionStore } from '../core/permissions/store.ts';
import type {
  PermissionBehavior,
  PermissionRule,
  PermissionRuleProblem,
  PermissionRuleSource,
} from '../core/permissions/types.ts';
import { HooksList } from './HooksList.tsx';
import './permissions.css';

const BEHAVIOR_LABEL: Record<PermissionBehavior, string> = {
  deny: 'Deny',
  ask: 'Ask',
  allow: 'Allow',
};

const BEHAVIOR_HELP: Record<PermissionBehavior, string> = {
  deny: 'Never runs; checked first.',
  ask: 'Always asks, whatever the mode.',
  allow: 'Runs without asking.',
};

const SOURCE_LABEL: Record<PermissionRuleSource, string> = {
  embed: 'embed config',
  settings: 'settings',
  project: 'this project',
  session: 'this session',
};

const SOURCE_HELP: Record<PermissionRuleSource, string> = {
  embed: 'Set by the page that embeds tabcode',
  settings: 'Your rule, kept in this browser',
  project: 'Added with "allow always", kept for this project',
  session: 'Added with "allow always", until the page reloads',
};

/** The store's rules, kept in sync with its changes. */
function useRules(store: PermissionStore | undefined): readonly PermissionRule[] {
  const [rules, setRules] = useState<readonly PermissionRule[]>(() => store?.rules() ?? []);
  useEffect(() => {
    if (!store) {
      setRules([]);
      return;
    }
    setRules(store.rules());
    return store.subscribe(() => setRules(store.rules()));
  }, [store]);
  return rules;
}

function RuleRow({ rule, store }: { rule: PermissionRule; store: PermissionStore }) {
  const [error, setError] = useState<string | null>(null);
  const remove = () => {
    setError(null);
    if (rule.source === 'session') store.removeSessionRule(rule.behavior, rule.text);
    else if (rule.source === 'project') {
      store.removeProjectRule(rule.behavior, rule.text).catch((err: unknown) => setError(String(err)));
    } else if (rule.source === 'settings') {
      store.removeSettingsRule(rule.behavior, rule.text).catch((err: unknown) => setError(String(err)));
    }
  };
  return (
    <li
      className="perm-rule"
      data-testid="permission-rule-row"
      data-behavior={rule.behavior}
      data-source={rule.source}
      data-rule={rule.text}
    >
      <code className="perm-rule-text">{rule.text}</code>
      <span
        className={`perm-source perm-source-${rule.source}`}
        data-testid="permission-rule-source"
        title={SOURCE_HELP[rule.source]}
      >
        {SOURCE_LABEL[rule.source]}
      </span>
      {rule.source === 'embed' ? (
        <span className="perm-locked" title="Set by the page that embeds tabcode">
          fixed
        </span>
      ) : (
        <button
          type="button"
          className="btn btn-small perm-remove"
          aria-label={`Remove ${rule.text}`}
          data-testid="permission-rule-remove"
          onClick={remove}
        >
          Remove
        </button>
      )}
      {error && <span className="perm-error">{error}</span>}
    </li>
  );
}

function Problems({ problems, title }: { problems: readonly PermissionRuleProblem[]; title: string }) {
  if (problems.length === 0) return null;
  return (
    <div className="perm-problems" role="alert" data-testid="permission-rule-problems">
      <div>{title}</div>
      <ul>
        {problems.map((p) => (
          <li key={`${p.behavior}:${p.rule}`} data-testid="permission-rule-refused" data-rule={p.rule}>
            <code>{p.rule}</code> ({p.behavior}, refused): {p.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

function AddRuleForm({ store }: { store: PermissionStore }) {
  const [behavior, setBehavior] = useState<PermissionBehavior>('allow');
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<PermissionRuleProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    store
      .addSettingsRule(behavior, text)
      .then((result) => {
        setRefused(result.refused);
        if (result.refused.length === 0) setText('');
      })
      .catch((err: unknown) =>
        setRefused([{ rule: text, behavior, reason: `The settings could not be saved: ${String(err)}` }]),
      )
      .finally(() => setBusy(false));
  };
  return (
    <form className="perm-add" onSubmit={submit} data-testid="permission-add-form">
      <div className="perm-add-row">
        <select
          aria-label="Rule kind"
          data-testid="permission-add-behavior"
          value={behavior}
          onChange={(e) => setBehavior(e.target.value as PermissionBehavior)}
        >
          <option value="allow">Allow</option>
          <option value="ask">Ask</option>
          <option value="deny">Deny</option>
        </select>
        <label className="visually-hidden" htmlFor={inputId}>
          Rule
        </label>
        <input
          id={inputId}
          className="perm-add-input"
          data-testid="permission-add-input"
          placeholder="Bash(npm test:*), Read(src/**), mcp__server…"
          value={text}
          aria-invalid={refused.length > 0}
          onChange={(e) => {
            setText(e.target.value);
            setRefused([]);
          }}
        />
        <button
          type="submit"
          className="btn btn-small"
          data-testid="permission-add"
          disabled={busy || !text.trim()}
        >
          Add
        </button>
      </div>
      {refused.map((p) => (
        <div key={p.rule} className="perm-error" role="alert" data-testid="permission-add-error">
          Not saved: <code>{p.rule}</code>: {p.reason}
        </div>
      ))}
      <details className="perm-help">
        <summary>Rule syntax</summary>
        <ul>
          <li>
            <code>Tool</code>: every call of a tool (<code>Write</code>, <code>mcp__server</code>,{' '}
            <code>mcp__server__tool</code>).
          </li>
          <li>
            <code>Bash(npm test)</code> exact command, <code>Bash(npm test:*)</code> prefix,{' '}
            <code>Bash(git *)</code> wildcard. Every part of a compound command must be allowed.
          </li>
          <li>
            <code>Read(.env)</code>, <code>Edit(/src/**)</code>: gitignore patterns; <code>/path</code> from
            the workspace root, <code>{'//path'}</code> absolute, <code>~/path</code> from home.
          </li>
        </ul>
      </details>
    </form>
  );
}

/** The Permissions panel of a session. */
export function PermissionRules({ session }: { session: AgentSession | null | undefined }) {
  const store = session?.permissions;
  const rules = useRules(store);
  if (!store) return <div className="perm-panel muted">The session is starting…</div>;
  const problems = [...store.embedProblems, ...store.loadProblems, ...store.refused];
  return (
    <div className="perm-panel" data-testid="permission-rules">
      <Problems problems={problems} title="Rules refused or not saved (each says why; the others apply):" />
      {(['deny', 'ask', 'allow'] as const).map((behavior) => {
        const list = rules.filter((r) => r.behavior === behavior);
        return (
          <section key={behavior} className="perm-group" data-testid={`permission-group-${behavior}`}>
            <h3 className="perm-group-title">
              {BEHAVIOR_LABEL[behavior]} <span className="perm-group-help">{BEHAVIOR_HELP[behavior]}</span>
            </h3>
            {list.length === 0 ? (
              <div className="perm-empty muted">No {behavior} rules.</div>
            ) : (
              <ul className="perm-list">
                {list.map((rule) => (
                  <RuleRow key={`${rule.source}:${rule.text}`} rule={rule} store={store} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      <AddRuleForm store={store} />
      <HooksList hooks={session?.hooks} />
    </div>
  );
}
