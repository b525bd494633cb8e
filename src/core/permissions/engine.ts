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
 *
 * Preparing a call (its matcher, its shell session, the real paths it touches) is in prepare-call.ts;
 * which rules meet it, in rule-hits.ts.
 */
import { messageOf } from '../errors.ts';
import type { AnyTool } from '../tool.ts';
import { suggestDomainRule } from './domains.ts';
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
import { type DecisionInput, type Prepared, prepare } from './prepare-call.ts';
import { domainHit, type Hit, type RuleBook, ruleHit } from './rule-hits.ts';
import {
  allowRuleFor,
  fileRuleMatchesRef,
  type PathEnv,
  refInWorkspace,
  resolveRef,
  showPath,
  withReal,
} from './subjects.ts';
import type {
  BashPermissionMatcher,
  PermissionMatcher,
  PermissionMode,
  PermissionResult,
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
  // The package scripts npm runs write as the line's own commands do.
  const commands = matcher.runs?.length ? [...matcher.commands, ...matcher.runs] : matcher.commands;
  if (env.realIncomplete && commands.some((c) => c.paths.some((p) => p.access !== 'read')))
    return 'The command writes through more paths than can be followed to where they lead, one of which could be a protected file.';
  for (const command of commands) {
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
    (acceptEdits && command.fileOnly && !command.opaque && fileOnlyInWorkspace(command, realEnv)) ||
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

/** mkdir/touch/mv/cp/rm/rmdir/sed whose every path is a known path inside the workspace (rm/mv not of the root). */
function fileOnlyInWorkspace(command: ShellCommand, env: PathEnv): boolean {
  if (command.paths.length === 0) return false;
  return command.paths.every((ref) => {
    if (!refInWorkspace(ref, env)) return false;
    const paths = resolveRef(env, ref) ?? [];
    const program = command.words[0]?.text;
    return !(program === 'rm' || program === 'mv') || !paths.includes(env.root);
  });
}

/** What of a Bash command needs approval, and the rule "allow always" would add when one part does. */
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
  const distinct = [...new Set(parts)];
  const list = distinct.slice(0, 5).join(', ');
  // One rule covers one part: for a line with several, "allow always" would save a rule for the first
  // while the whole line runs, and the rest ask again next time. So it is offered for one part only.
  return ask(
    `This command needs your approval for ${list}.`,
    'not allowed by a rule or the mode',
    distinct.length === 1 ? suggestion : undefined,
  );
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
