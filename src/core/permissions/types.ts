/** Permission types shared by tools, the loop and the UI. The evaluation engine lives beside this file. */

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
}

/** What a rule does when it matches. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

export const PERMISSION_BEHAVIORS: readonly PermissionBehavior[] = ['deny', 'ask', 'allow'];

/**
 * Where a rule came from: `session` (answers to prompts, gone on reload), `settings` (the user's rules,
 * kept in IndexedDB), `embed` (the host page's config when tabcode is embedded).
 */
export type PermissionRuleSource = 'session' | 'settings' | 'embed';

export const PERMISSION_RULE_SOURCES: readonly PermissionRuleSource[] = ['embed', 'settings', 'session'];

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
// shell or imports tools).

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

/** One shell word after quote removal. */
export interface ShellWordInfo {
  /** The text after quote removal; run-time parts appear as written (`$HOME`, `$(...)`). */
  text: string;
  /** Part of the word is only known at run time (parameter, command, arithmetic or brace expansion). */
  dynamic: boolean;
  /** Contains an unquoted glob (`*`, `?`, `[`), which may expand into other words. */
  glob: boolean;
}

/** A path a shell command uses. */
export interface ShellPathRef {
  text: string;
  dynamic: boolean;
  glob: boolean;
  /**
   * Static `cd` targets that may have run before this command in its scope, in order (each may or may
   * not have run); null when a `cd` went somewhere only known at run time.
   */
  cdTrail: readonly string[] | null;
}

/** One command a shell line runs (compound lines, substitutions and nested scripts are split). */
export interface ShellSubcommand {
  /** Source text, for messages. */
  source: string;
  /** What runs after wrappers (`env`, `command`, `timeout`, `xargs`...) are removed. Empty: redirections only. */
  words: readonly ShellWordInfo[];
  /**
   * Texts allow rules match (words joined by single spaces): as written, and unwrapped when the wrappers
   * change nothing (`timeout 60 npm test` → `npm test`). Empty when no allow rule may match (run-time
   * words, variable assignments).
   */
  allowTexts: readonly string[];
  /** Every form deny and ask rules are matched against (as written, unwrapped, basename, look-alikes folded...). */
  denyForms: readonly (readonly ShellWordInfo[])[];
  /** The program and its arguments cannot change files or run other commands (redirections aside). */
  readOnly: boolean;
  /** Why it is not read-only. */
  reason?: string;
  /** Runs code the analysis cannot see (a script file, standard input, eval of run-time text). */
  opaque: boolean;
  /**
   * Only runs the sub-commands listed after it (`bash -c 'a; b'`, `eval 'a'`): it needs no allow rule
   * of its own, though deny and ask rules still apply to it.
   */
  container?: boolean;
  /** mkdir, touch, mv, cp or rm: a file-only command acceptEdits may allow on workspace paths. */
  fileOnly: boolean;
  /** Reads or changes whole directory trees (`grep -r`, `rg`, `cp -r`, `rm -r`, `find`, `tar`...). */
  recursive?: boolean;
  /** Files written through redirections (`>`, `>>`, `&>`...). */
  writes: readonly ShellPathRef[];
  /** Files read through redirections (`<`). */
  reads: readonly ShellPathRef[];
  /** Arguments that may name files (for file rules, safety paths and acceptEdits). */
  paths: readonly ShellPathRef[];
}

/** What Bash hands the engine: the parsed command line split into sub-commands. */
export interface BashPermissionMatcher {
  kind: 'bash';
  command: string;
  /** False when the line could not be parsed: the engine asks. */
  parsed: boolean;
  parseError?: string;
  subcommands: readonly ShellSubcommand[];
  /** Every sub-command is read-only and nothing is written. */
  readOnly: boolean;
}

export type PermissionMatcher = FilePermissionMatcher | BashPermissionMatcher;
