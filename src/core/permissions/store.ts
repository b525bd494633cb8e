/**
 * The rules in force and where each came from: the embed config (host page, read-only here), the
 * user's settings (kept in IndexedDB through idb-keyval), the project's "allow always" answers (kept
 * per project when a project storage is given) and this session (answers where nothing persists). A
 * malformed rule is refused with its reason and shown, and never stops the others from working.
 */
import { get, set, type UseStore } from 'idb-keyval';
import { openIdbStore } from '../storage.ts';
import { storageName } from '../storage-namespace.ts';
import { formatRule, ruleSetOf, rulesFromSet, validateRule } from './rules.ts';
import type {
  PermissionBehavior,
  PermissionRule,
  PermissionRuleProblem,
  PermissionRuleSet,
  PermissionRuleSource,
} from './types.ts';

/** Where settings rules persist. */
export interface PermissionSettingsStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** The key of the settings rules in their storage. */
export const SETTINGS_RULES_KEY = 'rules';

/** Settings rules in IndexedDB: database `<namespace>-permissions` (or `database`), object store `kv`. */
export function createIdbPermissionStorage(database = storageName('permissions')): PermissionSettingsStorage {
  let store: UseStore | undefined;
  const db = () => {
    store ??= openIdbStore(database, 'kv');
    return store;
  };
  return {
    get: (key) => get(key, db()),
    set: (key, value) => set(key, value, db()),
  };
}

export interface PermissionStoreOptions {
  /** Rules from the host page (embed config). */
  embed?: PermissionRuleSet;
  /** Where settings rules persist; default IndexedDB when the environment has it, else nothing persists. */
  storage?: PermissionSettingsStorage | null;
  /**
   * Where this project's "allow always" rules persist (see src/agent/permission-store.ts); default
   * none: they last for the session only.
   */
  projectStorage?: PermissionSettingsStorage | null;
  /** Tool names of this build (a rule naming "bash" is refused with "did you mean Bash?"). */
  knownTools?: readonly string[];
}

/** What a save kept and what it refused (with reasons). */
export interface SaveRulesResult {
  saved: Required<PermissionRuleSet>;
  refused: PermissionRuleProblem[];
}

export type AddRuleResult = { ok: true; rule: PermissionRule } | { ok: false; reason: string };

/**
 * The session's rule book. Reads are synchronous (the engine asks on every call); settings persist
 * asynchronously. Listeners hear every change.
 */
export class PermissionStore {
  private embedRules: PermissionRule[] = [];
  private settingsRules: PermissionRule[] = [];
  private projectRules: PermissionRule[] = [];
  private sessionRules: PermissionRule[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly storage: PermissionSettingsStorage | null;
  private readonly projectStorage: PermissionSettingsStorage | null;
  /** Rules an answer or a save could not keep (malformed, or storage failed), shown in the panel. */
  refused: PermissionRuleProblem[] = [];
  private readonly knownTools?: readonly string[];
  /** Embed rules that were refused when the session started. */
  readonly embedProblems: PermissionRuleProblem[];
  /** Stored settings rules refused on the last load (e.g. saved by an older version). */
  loadProblems: PermissionRuleProblem[] = [];

  constructor(options: PermissionStoreOptions = {}) {
    this.knownTools = options.knownTools;
    this.storage =
      options.storage !== undefined
        ? options.storage
        : typeof indexedDB !== 'undefined'
          ? createIdbPermissionStorage()
          : null;
    this.projectStorage = options.projectStorage ?? null;
    const embed = rulesFromSet(options.embed, 'embed', { knownTools: this.knownTools });
    this.embedRules = embed.rules;
    this.embedProblems = embed.problems;
  }

  /** Every rule in force: embed, then settings, then project, then session. */
  rules(): readonly PermissionRule[] {
    return [...this.embedRules, ...this.settingsRules, ...this.projectRules, ...this.sessionRules];
  }

  rulesOf(source: PermissionRuleSource): readonly PermissionRule[] {
    switch (source) {
      case 'embed':
        return this.embedRules;
      case 'settings':
        return this.settingsRules;
      case 'project':
        return this.projectRules;
      case 'session':
        return this.sessionRules;
    }
  }

  /** True when "allow always" rules are kept for the project (else for this session). */
  get persistsAllowAlways(): boolean {
    return this.projectStorage !== null;
  }

  /** Texts of whole-tool deny rules: the tools they name are removed from the pool. */
  blanketDenies(): string[] {
    return this.rules()
      .filter((r) => r.behavior === 'deny' && r.value.ruleContent === undefined)
      .map((r) => r.text);
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch (err) {
        console.error('tabcode: a permission listener threw', err);
      }
    }
  }

  /**
   * Loads the settings and project rules from storage; malformed ones are skipped and reported (they
   * stay listed as refused). Never rejects.
   */
  async load(): Promise<PermissionRuleProblem[]> {
    const read = async (storage: PermissionSettingsStorage | null, source: 'settings' | 'project') => {
      if (!storage) return { rules: [], problems: [] };
      let stored: unknown;
      try {
        stored = await storage.get(SETTINGS_RULES_KEY);
      } catch (err) {
        console.error(`tabcode: ${source} permission rules could not be read`, err);
        const reason = `The stored ${source} rules could not be read: ${String(err)}`;
        return { rules: [], problems: [{ rule: `(${source} rules)`, behavior: 'allow' as const, reason }] };
      }
      const set = stored && typeof stored === 'object' ? (stored as PermissionRuleSet) : undefined;
      return rulesFromSet(set, source, { knownTools: this.knownTools });
    };
    const [settings, project] = await Promise.all([
      read(this.storage, 'settings'),
      read(this.projectStorage, 'project'),
    ]);
    this.settingsRules = settings.rules;
    this.projectRules = project.rules;
    this.loadProblems = [...settings.problems, ...project.problems];
    this.changed();
    return this.loadProblems;
  }

  /**
   * Replaces the settings rules. Malformed rules are refused with their reason; the others are saved and
   * take effect at once. Rejects only when storage fails (the rules still apply to this session then).
   */
  async saveSettings(next: PermissionRuleSet): Promise<SaveRulesResult> {
    const result = rulesFromSet(next, 'settings', { knownTools: this.knownTools });
    this.settingsRules = result.rules;
    this.loadProblems = [];
    this.changed();
    const saved = ruleSetOf(result.rules);
    if (this.storage) await this.storage.set(SETTINGS_RULES_KEY, saved);
    return { saved, refused: result.problems };
  }

  /** Adds one settings rule (see saveSettings). */
  async addSettingsRule(behavior: PermissionBehavior, text: string): Promise<SaveRulesResult> {
    const current = ruleSetOf(this.settingsRules);
    return this.saveSettings({ ...current, [behavior]: [...current[behavior], text] });
  }

  /** Removes a settings rule (by its text, canonical or as written). */
  async removeSettingsRule(behavior: PermissionBehavior, text: string): Promise<SaveRulesResult> {
    const current = ruleSetOf(this.settingsRules);
    const target = canonical(text);
    return this.saveSettings({ ...current, [behavior]: current[behavior].filter((t) => t !== target) });
  }

  /**
   * "Allow always" at a prompt: the rule is kept for the project when a project storage is given (it
   * applies at once; saving happens in the background and a failure is listed as refused), else for
   * this session. A malformed rule is refused (listed) and changes nothing.
   */
  addAllowAlwaysRule(text: string): AddRuleResult {
    const parsed = validateRule(text, { knownTools: this.knownTools });
    if (!parsed.ok) {
      this.refuse({ rule: text, behavior: 'allow', reason: parsed.reason });
      return parsed;
    }
    if (!this.projectStorage) return this.addSessionRule('allow', text);
    const rule: PermissionRule = {
      source: 'project',
      behavior: 'allow',
      value: parsed.value,
      text: formatRule(parsed.value),
    };
    if (!this.projectRules.some((r) => r.behavior === 'allow' && r.text === rule.text)) {
      this.projectRules = [...this.projectRules, rule];
      this.changed();
      this.saveProject().catch((err: unknown) =>
        this.refuse({
          rule: rule.text,
          behavior: 'allow',
          reason: `It applies now but could not be saved: ${String(err)}`,
        }),
      );
    }
    return { ok: true, rule };
  }

  /** Removes a project rule (by its text) and saves the rest. Rejects only when storage fails. */
  async removeProjectRule(behavior: PermissionBehavior, text: string): Promise<void> {
    const target = canonical(text);
    const next = this.projectRules.filter((r) => !(r.behavior === behavior && r.text === target));
    if (next.length === this.projectRules.length) return;
    this.projectRules = next;
    this.changed();
    await this.saveProject();
  }

  private async saveProject(): Promise<void> {
    if (this.projectStorage) await this.projectStorage.set(SETTINGS_RULES_KEY, ruleSetOf(this.projectRules));
  }

  private refuse(problem: PermissionRuleProblem): void {
    this.refused = [...this.refused.filter((p) => p.rule !== problem.rule), problem];
    this.changed();
  }

  /** Adds a rule for this session only (e.g. "allow always" where nothing persists). */
  addSessionRule(behavior: PermissionBehavior, text: string): AddRuleResult {
    const parsed = validateRule(text, { knownTools: this.knownTools });
    if (!parsed.ok) return parsed;
    const rule: PermissionRule = {
      source: 'session',
      behavior,
      value: parsed.value,
      text: formatRule(parsed.value),
    };
    if (!this.sessionRules.some((r) => r.behavior === behavior && r.text === rule.text)) {
      this.sessionRules = [...this.sessionRules, rule];
      this.changed();
    }
    return { ok: true, rule };
  }

  removeSessionRule(behavior: PermissionBehavior, text: string): void {
    const target = canonical(text);
    const next = this.sessionRules.filter((r) => !(r.behavior === behavior && r.text === target));
    if (next.length === this.sessionRules.length) return;
    this.sessionRules = next;
    this.changed();
  }
}

function canonical(text: string): string {
  const parsed = validateRule(text);
  return parsed.ok ? formatRule(parsed.value) : text.trim();
}
