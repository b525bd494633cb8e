/**
 * The permission engine: decides whether one tool call may run. The order (first match decides):
 *
 * 1. deny rules, 2. ask rules (and commands that might match a deny or ask rule: parts only known at
 * run time), 3. the tool's own `checkPermissions` plus what the engine checks for every tool (safety
 * paths, unparseable commands, read-only Bash), 4. the mode (`bypassPermissions` allows, `plan`
 * refuses what is not read-only, `acceptEdits` allows workspace edits), 5. allow rules, 6. ask.
 * `dontAsk` turns every ask into a deny.
 *
 * A Bash command comes analysed (src/shell, once per call, when the call was prepared) and is read in
 * the shell session it runs in (HOME, CDPATH, PATH). A deny rule denies what surely runs; a rule that
 * only may match (a look-alike, a run-time word, `docker rm`) asks. The command is allowed only when
 * every command in it is.
 */
import {
  gitStartDir,
  inSession,
  isReadOnlyGit,
  type PathProbe,
  untrustedGitRepository,
  withOpaqueCommands,
} from '../../shell/index.ts';
import { messageOf } from '../errors.ts';
import type { AnyTool } from '../tool.ts';
import { domainRuleMatches, suggestDomainRule } from './domains.ts';
import {
  code,
  dontAskMessage,
  planModeMessage,
  revealHidden,
  ruleDenialMessage,
  suggestBashRule,
  suggestFileRule,
} from './messages.ts';
import { fileRuleMatches, isInside, resolvePath, safetyPathReason, safetyReachReason } from './paths.ts';
import { ruleAppliesTo, wholeToolRuleMatches } from './rules.ts';
import type { RuleMatch } from './shell-rules.ts';
import {
  allowRuleFor,
  candidateCwds,
  fileRuleMatchesRef,
  matchCommand,
  type PathEnv,
  refInWorkspace,
  resolveRef,
  ruleMayMatchBelow,
  showPath,
  withReal,
} from './subjects.ts';
import type {
  BashPermissionMatcher,
  FilePermissionMatcher,
  PermissionBehavior,
  PermissionContext,
  PermissionMatcher,
  PermissionMode,
  PermissionResult,
  PermissionRule,
  ShellCommand,
  ShellPathRef,
} from './types.ts';

/**
 * Tools plan mode lets through although they are not read-only: they change the session, never the
 * workspace. The plan tools and AskUserQuestion ask the user themselves (their own check), TodoWrite
 * only keeps a list; a sub-agent's own calls meet plan mode one by one.
 */
export const PLAN_MODE_TOOLS: ReadonlySet<string> = new Set([
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'TodoWrite',
  'Agent',
  'Skill',
]);

type Ask = Extract<PermissionResult, { behavior: 'ask' }>;
type Deny = Extract<PermissionResult, { behavior: 'deny' }>;

const allow = (reason: string): PermissionResult => ({ behavior: 'allow', reason });
const deny = (message: string, reason: string): Deny => ({ behavior: 'deny', message, reason });
const ask = (message: string, reason: string, suggestedRule?: string): Ask => ({
  behavior: 'ask',
  message,
  reason,
  ...(suggestedRule ? { suggestedRule } : {}),
});

/** The rules that concern one call, by kind. */
interface RuleBook {
  /** Whole-tool rules naming this tool (or its MCP server). */
  whole: Record<PermissionBehavior, PermissionRule[]>;
  /** Content rules of this tool's family (Bash rules for Bash, Read rules for Glob...). */
  content: Record<PermissionBehavior, PermissionRule[]>;
  /** Read rules (what Bash reads). */
  read: Record<PermissionBehavior, PermissionRule[]>;
  /** Edit and Write rules (what Bash writes). */
  write: Record<PermissionBehavior, PermissionRule[]>;
}

function byBehavior(rules: readonly PermissionRule[]): Record<PermissionBehavior, PermissionRule[]> {
  return {
    deny: rules.filter((r) => r.behavior === 'deny'),
    ask: rules.filter((r) => r.behavior === 'ask'),
    allow: rules.filter((r) => r.behavior === 'allow'),
  };
}

function ruleBook(rules: readonly PermissionRule[], tool: AnyTool): RuleBook {
  const content = rules.filter((r) => r.value.ruleContent !== undefined);
  return {
    whole: byBehavior(rules.filter((r) => wholeToolRuleMatches(r.value, tool))),
    content: byBehavior(content.filter((r) => ruleAppliesTo(r.value.toolName, tool.name))),
    read: byBehavior(content.filter((r) => r.value.toolName === 'Read')),
    write: byBehavior(content.filter((r) => r.value.toolName === 'Edit' || r.value.toolName === 'Write')),
  };
}

/** A rule hit: which rule, how sure, and what it matched (for the message). */
interface Hit {
  rule: PermissionRule;
  match: RuleMatch;
  subject: string;
}

const better = (a: Hit | undefined, b: Hit | undefined): Hit | undefined =>
  !a ? b : !b ? a : a.match === 'yes' || b.match !== 'yes' ? a : b;

/** The strongest hit of deny or ask rules on a Bash command: its commands and the files they touch. */
function bashHit(
  m: BashPermissionMatcher,
  book: RuleBook,
  behavior: 'deny' | 'ask',
  env: PathEnv,
): Hit | undefined {
  let best: Hit | undefined;
  for (const command of m.commands) {
    const cmd = matchCommand(book.content[behavior], command);
    if (cmd.rule) best = better(best, { rule: cmd.rule, match: cmd.match, subject: code(command.source) });
    for (const ref of command.paths) {
      // Read rules guard what is read, Edit rules what is written; a word of unknown use meets both.
      const rules = [
        ...(ref.access !== 'write' ? book.read[behavior] : []),
        ...(ref.access !== 'read' ? book.write[behavior] : []),
      ];
      for (const rule of rules) {
        const match = fileRuleMatchesRef(rule, ref, env, true);
        if (match === 'no') continue;
        best = better(best, { rule, match, subject: `${code(ref.text)} in ${code(command.source)}` });
        if (best?.match === 'yes') return best;
      }
    }
    if (best?.match === 'yes') return best;
  }
  return best;
}

/** The hit of deny or ask rules on a file a tool reads or writes. */
function fileHit(
  m: FilePermissionMatcher,
  book: RuleBook,
  behavior: 'deny' | 'ask',
  env: PathEnv,
): Hit | undefined {
  const written = resolvePath(env.cwd, m.path, env.home);
  let maybe: Hit | undefined;
  for (const rule of book.content[behavior]) {
    const content = rule.value.ruleContent as string;
    for (const abs of withReal(written, env)) {
      if (fileRuleMatches(content, abs, { ...env, ignoreCase: true, directory: m.directory })) {
        return { rule, match: 'yes', subject: showPath(abs, env) };
      }
      if (m.readsContents && ruleMayMatchBelow(content, abs, env)) {
        maybe ??= { rule, match: 'maybe', subject: `the files under ${showPath(abs, env)}` };
      }
    }
  }
  return maybe;
}

function ruleHit(
  matcher: PermissionMatcher | undefined,
  book: RuleBook,
  behavior: 'deny' | 'ask',
  env: PathEnv,
): Hit | undefined {
  const whole = book.whole[behavior][0];
  if (whole) return { rule: whole, match: 'yes', subject: '' };
  if (matcher?.kind === 'bash') return bashHit(matcher, book, behavior, env);
  if (matcher?.kind === 'file') return fileHit(matcher, book, behavior, env);
  if (matcher?.kind === 'domain') return domainHit(matcher.host, book.content[behavior]);
  return undefined;
}

/** The first domain rule among `rules` matching `host`. */
function domainHit(host: string, rules: readonly PermissionRule[]): Hit | undefined {
  const rule = rules.find((r) => domainRuleMatches(r.value.ruleContent as string, host));
  return rule ? { rule, match: 'yes', subject: host } : undefined;
}

/** Safety-path problems of what a call writes: asks even in bypassPermissions mode. */
function safetyProblem(matcher: PermissionMatcher | undefined, env: PathEnv): string | null {
  if (matcher?.kind === 'file') {
    if (matcher.access !== 'write') return null;
    for (const abs of withReal(resolvePath(env.cwd, matcher.path, env.home), env)) {
      const reason = safetyPathReason(abs);
      if (reason) return `Writing here always needs your approval: ${reason}.`;
    }
    return null;
  }
  if (matcher?.kind !== 'bash') return null;
  for (const command of matcher.commands) {
    for (const ref of command.paths) {
      if (ref.access === 'read') continue;
      const paths = resolveRef(env, ref);
      if (paths === null) {
        if (ref.access === 'write' || command.fileOnly) {
          return `${code(command.source)} writes to a path only known when it runs (${code(ref.text)}), which could be a protected file.`;
        }
        continue;
      }
      for (const abs of paths.flatMap((p) => withReal(p, env))) {
        // A glob may expand to a protected name; deleting a whole tree takes the .git inside it too.
        const reach = { glob: ref.glob, recursive: ref.recursive && command.destructive };
        const reason =
          safetyPathReason(abs) ?? (ref.access === 'write' ? safetyReachReason(abs, env.root, reach) : null);
        if (reason) {
          return `${code(command.source)} changes a protected path and always needs your approval: ${reason}.`;
        }
      }
    }
  }
  return null;
}

/** The mode and rules in force for one decision. */
export interface DecisionInput {
  tool: AnyTool;
  input: unknown;
  permCtx: PermissionContext;
  rules: readonly PermissionRule[];
  /**
   * What the tool's `preparePermissionMatcher` made of the input when the call was prepared ('failed'
   * when it threw). Absent: the engine prepares it itself (direct calls, tests).
   */
  prepared?: PreparedMatcher;
}

/** A tool's matcher, none, or a marker that preparing it failed (the engine then asks). */
export type PreparedMatcher = PermissionMatcher | undefined | 'failed';

/** Runs the tool's `preparePermissionMatcher` once. Never throws. */
export async function prepareMatcher(tool: AnyTool, input: unknown): Promise<PreparedMatcher> {
  if (!tool.preparePermissionMatcher) return undefined;
  try {
    const m = (await tool.preparePermissionMatcher(input as never)) as PermissionMatcher | undefined;
    return m && (m.kind === 'bash' || m.kind === 'file' || m.kind === 'domain') ? m : undefined;
  } catch {
    return 'failed';
  }
}

/** What of a command its read-only-ness, the mode and the allow rules leave unapproved. */
type CommandProblem = { kind: 'command' } | { kind: 'write'; ref: ShellPathRef } | null;

function commandProblem(
  command: ShellCommand,
  book: RuleBook,
  env: PathEnv,
  mode: PermissionMode,
  realEnv: PathEnv,
): CommandProblem {
  // A container (`bash -c '…'`, `eval '…'`) is read-only when only the commands it runs (their own
  // entries) need approval; one that changes their user or environment (`sudo`, `su -c`, `flock FILE
  // -c`) needs its own, and its redirections count as every command's do (`bash -c ls > out`).
  const acceptEdits = mode === 'acceptEdits';
  const commandOk =
    command.readOnly ||
    (acceptEdits && command.fileOnly && fileOnlyInWorkspace(command, realEnv)) ||
    allowRuleFor(book.content.allow, command) !== undefined;
  if (!commandOk) return { kind: 'command' };
  // A rule allowing the program does not allow its redirections: those writes need the mode or an Edit rule.
  for (const ref of command.paths) {
    if (ref.access !== 'write' || !ref.redirect) continue;
    const ok =
      (acceptEdits && refInWorkspace(ref, realEnv)) ||
      (!ref.glob && book.write.allow.some((rule) => fileRuleMatchesRef(rule, ref, env, false) === 'yes'));
    if (!ok) return { kind: 'write', ref };
  }
  return null;
}

/** mkdir/touch/mv/cp/rm whose every path is a known path inside the workspace (rm/mv not of the root). */
function fileOnlyInWorkspace(command: ShellCommand, env: PathEnv): boolean {
  if (command.paths.length === 0) return false;
  return command.paths.every((ref) => {
    if (!refInWorkspace(ref, env)) return false;
    const paths = resolveRef(env, ref) ?? [];
    const program = command.words[0]?.text;
    return !(program === 'rm' || program === 'mv') || !paths.includes(env.root);
  });
}

/** What of a Bash command needs approval, and the rule "allow always" would add for the first part. */
function bashAsk(
  m: BashPermissionMatcher,
  book: RuleBook,
  env: PathEnv,
  mode: PermissionMode,
  realEnv: PathEnv,
): Ask | null {
  const parts: string[] = [];
  let suggestion: string | undefined;
  for (const command of m.commands) {
    const problem = commandProblem(command, book, env, mode, realEnv);
    if (!problem) continue;
    if (problem.kind === 'command') {
      parts.push(code(command.source));
      const text = command.allowTexts[command.allowTexts.length - 1];
      if (parts.length === 1 && text !== undefined) suggestion = suggestBashRule(text);
    } else {
      parts.push(`writing ${code(problem.ref.text)}`);
      const abs = resolveRef(env, problem.ref)?.[0];
      if (parts.length === 1 && abs && !problem.ref.glob) suggestion = suggestFileRule('Edit', abs, env.root);
    }
  }
  if (parts.length === 0) return null;
  const list = [...new Set(parts)].slice(0, 5).join(', ');
  return ask(
    `This command needs your approval for ${list}.`,
    'not allowed by a rule or the mode',
    suggestion,
  );
}

/** Most paths of one call whose real path is looked up (the rest match as written). */
const MAX_REALPATHS = 256;

/** The absolute paths a matcher names (every candidate of every shell path reference). */
function touchedPaths(matcher: PermissionMatcher | undefined, env: PathEnv): string[] {
  if (matcher?.kind === 'file') return [resolvePath(env.cwd, matcher.path, env.home)];
  if (matcher?.kind !== 'bash') return [];
  const out = new Set<string>();
  for (const command of matcher.commands) {
    for (const ref of command.paths) {
      for (const abs of resolveRef(env, ref) ?? []) out.add(abs);
    }
  }
  return [...out].slice(0, MAX_REALPATHS);
}

/** Where each path a call touches really leads (symlinks followed); paths that fail are left out. */
async function realPaths(
  matcher: PermissionMatcher | undefined,
  env: PathEnv,
  realpath: PermissionContext['realpath'],
): Promise<Map<string, string> | undefined> {
  if (!realpath) return undefined;
  const real = new Map<string, string>();
  await Promise.all(
    touchedPaths(matcher, env).map(async (abs) => {
      try {
        const r = await realpath(abs);
        if (typeof r === 'string' && r.startsWith('/') && r !== abs) real.set(abs, r);
      } catch {
        // Unknown: the rules match the path as written.
      }
    }),
  );
  return real;
}

/**
 * Read-only git commands whose repository is not surely the workspace's own (a bare repository written
 * into the workspace, a nested one, none at all, a directory only known at run time), by index, with
 * the reason: git runs what such a repository's configuration names (core.fsmonitor on `git status`,
 * core.pager, aliases, diff drivers), which no rule sees.
 */
async function untrustedGit(
  m: BashPermissionMatcher,
  env: PathEnv,
  permCtx: PermissionContext,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const probe: PathProbe = async (abs) => {
    if (!permCtx.exists) return null;
    try {
      return (await permCtx.exists(abs)) === true;
    } catch {
      return null;
    }
  };
  for (const [k, c] of m.commands.entries()) {
    if (!isReadOnlyGit(c)) continue;
    const start = gitStartDir(c.words);
    const cwds = candidateCwds(env, c.cdTrail === undefined ? [] : c.cdTrail);
    if (start === null || cwds === null) {
      out.set(k, 'git runs in a directory only known at run time, whose repository may configure programs');
      continue;
    }
    for (const cwd of cwds) {
      let dir = resolvePath(cwd, start || '.', env.home);
      try {
        if (permCtx.realpath) dir = resolvePath('/', await permCtx.realpath(dir), env.home);
      } catch {
        // As written.
      }
      const why = await untrustedGitRepository(dir, env.root, probe);
      if (why) {
        out.set(k, `${why}: git may run programs its configuration names`);
        break;
      }
    }
  }
  return out;
}

/** Most links of one line followed (the rest are left out: a line making more is unusual). */
const MAX_LINKS = 64;

/**
 * The analysis with, for each command after one that makes a link (`ln -s ../config d/c`), its paths
 * through the link also as where they lead (`d/c/prod.env` as `config/prod.env`): the link does not
 * exist yet when the call is checked, so the sandbox's realpath cannot follow it. A symbolic link's
 * text is read from the link's directory, a hard link's source from the cwd; followed twice (a link
 * through a link).
 */
function withLineLinks(m: BashPermissionMatcher, env: PathEnv): BashPermissionMatcher {
  if (!m.commands.some((c) => c.links && c.links.length > 0)) return m;
  const links: Array<{ at: string; to: string }> = [];
  const follow = (abs: string): string[] =>
    links.filter((l) => isInside(l.at, abs)).map((l) => `${l.to}${abs.slice(l.at.length)}`);
  const commands = m.commands.map((command) => {
    let extra: ShellPathRef[] = [];
    if (links.length > 0) {
      for (const ref of command.paths) {
        for (const abs of resolveRef(env, ref) ?? []) {
          const once = follow(abs);
          for (const to of new Set([...once, ...once.flatMap(follow)])) {
            if (to !== abs) extra.push({ ...ref, text: to, dynamic: false, tilde: false, cdTrail: [] });
          }
        }
      }
      extra = extra.slice(0, MAX_LINKS);
    }
    for (const link of command.links ?? []) {
      for (const at of resolveRef(env, link.at) ?? []) {
        const tos =
          link.symbolic && !link.to.dynamic && !link.to.text.startsWith('/')
            ? [resolvePath(at.slice(0, at.lastIndexOf('/')) || '/', link.to.text, env.home)]
            : resolveRef(env, link.to);
        for (const to of tos ?? []) if (links.length < MAX_LINKS) links.push({ at, to });
      }
    }
    return extra.length > 0 ? { ...command, paths: [...command.paths, ...extra] } : command;
  });
  return { ...m, commands };
}

/** The matcher, the rules and the paths of one call. */
interface Prepared {
  prepared: PreparedMatcher;
  matcher: PermissionMatcher | undefined;
  book: RuleBook;
  /** Where paths resolve, with the real paths (deny, ask and safety checks). */
  env: PathEnv;
  /** The same without the real paths (the mode and allow rules go by the path as written). */
  writtenEnv: PathEnv;
}

async function prepare(d: DecisionInput): Promise<Prepared> {
  const { tool, input, permCtx } = d;
  const prepared = 'prepared' in d ? d.prepared : await prepareMatcher(tool, input);
  let matcher = prepared === 'failed' ? undefined : prepared;
  let writtenEnv: PathEnv = { root: permCtx.root, cwd: permCtx.cwd, home: permCtx.home ?? permCtx.root };
  if (matcher?.kind === 'bash') {
    // The command runs in the sandbox's shell session: its cwd, and what HOME, CDPATH and PATH mean.
    const view = inSession(matcher, permCtx.shell, {
      defaultHome: writtenEnv.home,
      trustedPath: permCtx.trustedPath,
    });
    writtenEnv = {
      ...writtenEnv,
      cwd: permCtx.shell?.cwd ?? permCtx.cwd,
      shellHome: view.home,
      cdpath: view.cdpath,
    };
    const git = view.analysis.parsed
      ? await untrustedGit({ ...view.analysis, kind: 'bash' }, writtenEnv, permCtx)
      : new Map();
    matcher = { ...withOpaqueCommands(view.analysis, git), kind: 'bash' };
  }
  if (matcher?.kind === 'bash') matcher = withLineLinks(matcher, writtenEnv);
  const real = await realPaths(matcher, writtenEnv, permCtx.realpath);
  const env = real ? { ...writtenEnv, real } : writtenEnv;
  return { prepared, matcher, book: ruleBook(d.rules, tool), env, writtenEnv };
}

/** The deny a deny rule surely matching the call gives, or null. */
function denyRuleResult(tool: AnyTool, denied: Hit | undefined): Deny | null {
  if (denied?.match !== 'yes') return null;
  return deny(
    ruleDenialMessage(tool.name, denied.rule, denied.subject || undefined),
    `deny rule ${denied.rule.text}`,
  );
}

/** Everything but the dontAsk conversion. */
async function decideInner(d: DecisionInput, mode: PermissionMode): Promise<PermissionResult> {
  const p = await prepare(d);
  const result = await decideOn(d, mode, p);
  // What the user approves must be what they see: say so when characters may hide or look like others.
  const hidden = p.matcher?.kind === 'bash' ? revealHidden(p.matcher.command) : null;
  return result.behavior === 'ask' && hidden
    ? {
        ...result,
        message: `${result.message} Look closely: it holds invisible or look-alike characters (${hidden}).`,
      }
    : result;
}

async function decideOn(d: DecisionInput, mode: PermissionMode, p: Prepared): Promise<PermissionResult> {
  const { tool, input, permCtx } = d;
  const { prepared, matcher, book, env, writtenEnv } = p;

  // 1-2. Deny rules, ask rules, and what might match them.
  const denied = ruleHit(matcher, book, 'deny', env);
  const deniedResult = denyRuleResult(tool, denied);
  if (deniedResult) return deniedResult;
  const asked = ruleHit(matcher, book, 'ask', env);
  if (asked?.match === 'yes') {
    const about = asked.subject ? ` It matches ${asked.subject}.` : '';
    return ask(
      `The ${asked.rule.source} ask rule ${asked.rule.text} asks before this call.${about}`,
      'ask rule',
    );
  }
  const maybe = denied ?? asked;
  if (maybe) {
    return ask(
      `${maybe.subject || 'This call'} might match the ${maybe.rule.source} ${maybe.rule.behavior} rule ${maybe.rule.text}: what it runs or touches is only known when it runs (a variable, a glob, a script, a whole directory), or it only looks like what the rule names.`,
      'might match a rule',
    );
  }

  // 3. The tool's own check, the safety paths, commands that cannot be parsed.
  let own: PermissionResult;
  try {
    own = await tool.checkPermissions(input as never, { ...permCtx, mode });
  } catch (err) {
    return deny(`Permission check of ${tool.name} failed: ${messageOf(err)}`, 'error');
  }
  if (own.behavior === 'deny') return own;
  if (own.behavior === 'ask') return own;
  if (prepared === 'failed' || (matcher?.kind === 'bash' && !matcher.parsed)) {
    const why = matcher?.kind === 'bash' && matcher.parseError ? ` (${matcher.parseError})` : '';
    return ask(
      `This command could not be parsed${why}, so it cannot be checked against the rules.`,
      'unparseable',
    );
  }
  const safety = safetyProblem(matcher, env);
  if (safety) return ask(safety, 'safety path');
  if (own.behavior === 'allow') return own;
  if (matcher?.kind === 'bash' && matcher.readOnly) return allow('read-only command');

  // 4. The mode.
  const readOnly = matcher?.kind === 'bash' ? matcher.readOnly : safeReadOnly(tool, input);
  if (mode === 'bypassPermissions') return allow('bypassPermissions mode');
  if (mode === 'plan' && !readOnly && !PLAN_MODE_TOOLS.has(tool.name)) {
    const subject =
      matcher?.kind === 'bash' ? code(matcher.command) : matcher?.kind === 'file' ? matcher.path : '';
    return deny(planModeMessage(tool.name, subject || undefined), 'plan mode');
  }
  if (mode === 'acceptEdits' && matcher?.kind === 'file' && matcher.access === 'write') {
    const abs = resolvePath(env.cwd, matcher.path, env.home);
    if (withReal(abs, env).every((p) => isInside(env.root, p))) return allow('acceptEdits mode');
  }

  // 5. Allow rules (for Bash: every sub-command approved by read-only-ness, the mode or a rule).
  const whole = book.whole.allow[0];
  if (whole) return allow(`allow rule ${whole.text}`);
  if (matcher?.kind === 'bash') {
    // acceptEdits writes inside the workspace only where the paths really lead (env: links followed).
    return bashAsk(matcher, book, writtenEnv, mode, env) ?? allow('every sub-command is allowed');
  }
  if (matcher?.kind === 'file') {
    const abs = resolvePath(env.cwd, matcher.path, env.home);
    const rule = book.content.allow.find((r) =>
      fileRuleMatches(r.value.ruleContent as string, abs, {
        ...writtenEnv,
        ignoreCase: false,
        directory: matcher.directory,
      }),
    );
    if (rule) return allow(`allow rule ${rule.text}`);
    // 6. Ask.
    const verb = matcher.access === 'write' ? 'change' : 'read';
    return ask(
      `${tool.name} wants to ${verb} ${showPath(abs, env)}.`,
      'not allowed by a rule or the mode',
      suggestFileRule(tool.name, abs, env.root),
    );
  }
  if (matcher?.kind === 'domain') {
    const rule = domainHit(matcher.host, book.content.allow);
    if (rule) return allow(`allow rule ${rule.rule.text}`);
    return ask(
      `${tool.name} wants to fetch from ${matcher.host}.`,
      'not allowed by a rule or the mode',
      suggestDomainRule(tool.name, matcher.host),
    );
  }
  const message = own.behavior === 'passthrough' && own.message ? own.message : `Allow ${tool.name}?`;
  return ask(message, 'not allowed by a rule or the mode', tool.name);
}

function safeReadOnly(tool: AnyTool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input as never) === true;
  } catch {
    return false;
  }
}

/**
 * Decides one call. Never throws: a failure of the tool's own check denies. In `dontAsk` mode every
 * ask becomes a deny that says why.
 */
export async function decidePermission(d: DecisionInput): Promise<PermissionResult> {
  const mode = d.permCtx.mode;
  let result: PermissionResult;
  try {
    result = await decideInner(d, mode);
  } catch (err) {
    result = deny(`Permission check failed: ${messageOf(err)}`, 'error');
  }
  if (result.behavior === 'passthrough') {
    result = ask(
      result.message ?? `${d.tool.name} is not allowed by a rule yet.`,
      'passthrough',
      d.tool.name,
    );
  }
  if (result.behavior === 'ask' && mode === 'dontAsk') {
    return deny(dontAskMessage(d.tool.name, result.message), 'dontAsk mode');
  }
  return result;
}
