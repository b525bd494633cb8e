/** Permission types shared by tools, the loop and the UI. The evaluation engine lives beside this file. */
import type { ShellAnalysis, ShellCommand, ShellSessionState } from '../../shell/index.ts';

export type { ShellAnalysis, ShellCommand, ShellForm, ShellPathRef, ShellWord } from '../../shell/index.ts';

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
];

/** What a tool's own `checkPermissions` (or the whole evaluation) decided. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: unknown; reason?: string }
  | { behavior: 'deny'; message: string; reason?: string }
  | { behavior: 'ask'; message: string; reason?: string; suggestedRule?: string }
  /** The tool has no opinion: rules and mode decide. */
  | { behavior: 'passthrough'; message?: string };

/** What a tool sees when it checks its own permissions. */
/** One entry below a directory (PermissionContext.listTree). */
export interface TreeEntry {
  abs: string;
  directory: boolean;
}

export interface PermissionContext {
  mode: PermissionMode;
  /** Workspace root and the current directory, for path checks. */
  root: string;
  cwd: string;
  /** Where `~` points in shell commands (default: `root`, the sandbox's HOME). */
  home?: string;
  /**
   * Where an absolute path leads once symlinks are followed (the sandbox's `realpath`). When given,
   * deny and ask file rules match both the path as written and the real path.
   */
  realpath?: (abs: string) => Promise<string>;
  /**
   * Whether an absolute path exists (the sandbox's `exists`; it throws where it cannot tell). Used to
   * find the repository a read-only git command would read its configuration from; without it, such a
   * command is not taken as read-only.
   */
  exists?: (abs: string) => Promise<boolean>;
  /**
   * Whether an absolute path is a directory (symlinks followed; false when nothing is there; it throws
   * where it cannot tell). An unknown program given a directory may go through everything below it
   * (`npx rimraf src`); without it, every such operand counts as one.
   */
  isDirectory?: (abs: string) => Promise<boolean>;
  /**
   * What is below a directory now (files and directories, absolute paths), or null when it cannot say
   * all of it: more than `limit` entries, a symbolic link below (it may lead anywhere), an error. A line
   * that only reads then reads nothing a rule names when nothing below matches the rule (`grep -r x src`
   * next to `Read(.env)` when src holds no .env). Without it, a rule may match anything below.
   */
  listTree?: (abs: string, limit: number) => Promise<readonly TreeEntry[] | null>;
  /**
   * A file's text (the sandbox's readFile; it throws where it cannot read). Used to read the package
   * scripts npm would run; without it, an npm command that runs scripts runs code the analysis cannot see.
   */
  readFile?: (abs: string) => Promise<string>;
  /** Whether anything is at an absolute path, in the workspace or not (the sandbox's existsAnywhere). */
  existsAnywhere?: (abs: string) => Promise<boolean>;
  /**
   * The shell session Bash commands run in (the sandbox's shellState): its cwd and the variables it
   * carries (HOME, CDPATH, PATH, BASH_ENV). Without it, `~` is `home` and the session is assumed plain.
   */
  shell?: ShellSessionState;
  /** PATH directories whose programs the sandbox provides (besides the system ones). */
  trustedPath?: readonly string[];
}

/** What a rule does when it matches. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

export const PERMISSION_BEHAVIORS: readonly PermissionBehavior[] = ['deny', 'ask', 'allow'];

/**
 * Where a rule came from: `session` (answers to prompts where nothing persists, gone on reload),
 * `project` ("allow always" answers, kept per project in IndexedDB), `settings` (the user's rules, kept
 * in IndexedDB), `embed` (the host page's config when tabcode is embedded).
 */
export type PermissionRuleSource = 'session' | 'project' | 'settings' | 'embed';

export const PERMISSION_RULE_SOURCES: readonly PermissionRuleSource[] = [
  'embed',
  'settings',
  'project',
  'session',
];

/** A parsed rule: `Tool` (no content: every call of the tool) or `Tool(content)`. */
export interface PermissionRuleValue {
  toolName: string;
  /** Undefined for a whole-tool rule (`Tool`, `Tool()` and `Tool(*)` are the same). */
  ruleContent?: string;
}

export interface PermissionRule {
  source: PermissionRuleSource;
  behavior: PermissionBehavior;
  value: PermissionRuleValue;
  /** The rule in its canonical text form, e.g. `Bash(npm test:*)`. */
  text: string;
}

/** Rules as users write them (settings, the embed config). */
export interface PermissionRuleSet {
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
}

/** A rule that was refused, and why. */
export interface PermissionRuleProblem {
  rule: string;
  behavior: PermissionBehavior;
  reason: string;
}

// ---------------------------------------------------------------------------------------------------
// Matchers: plain data a tool's `preparePermissionMatcher` hands the engine (the engine never parses
// shell itself or imports tools).

/** A file a tool reads or writes, as the model gave it (relative to the cwd, absolute, or `~/`). */
export interface FilePermissionMatcher {
  kind: 'file';
  access: 'read' | 'write';
  path: string;
  /** The path is a directory searched recursively (Glob, Grep): a rule about what is inside it matches. */
  directory?: boolean;
  /**
   * The tool reads the content of every file below the path (Grep): a rule that may match some file
   * below it (e.g. `Read(.env)` for the workspace root) makes the call ask.
   */
  readsContents?: boolean;
}

/**
 * What Bash hands the engine: the shell analysis of its command (src/shell), made once when the call
 * was prepared.
 */
export interface BashPermissionMatcher extends ShellAnalysis {
  kind: 'bash';
  /**
   * Commands the line's programs run from files the sandbox holds (package.json scripts npm runs,
   * ./npm-scripts.ts): deny and ask rules meet them as they meet the line's own commands.
   */
  runs?: readonly ShellCommand[];
}

/** The host a tool fetches from (WebFetch): `WebFetch(domain:example.com)` rules match it. */
export interface DomainPermissionMatcher {
  kind: 'domain';
  host: string;
}

export type PermissionMatcher = FilePermissionMatcher | BashPermissionMatcher | DomainPermissionMatcher;
