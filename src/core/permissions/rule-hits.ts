/**
 * Which deny, ask or allow rules meet one call: the rules sorted by kind for the call's tool (the rule
 * book), and the strongest hit of a behavior's rules on a Bash command (its commands and the files they
 * touch), on a file a tool reads or writes, or on a domain.
 */
import type { AnyTool } from '../tool.ts';
import { domainRuleMatches } from './domains.ts';
import { code } from './messages.ts';
import { fileRuleMatches, resolvePath } from './paths.ts';
import { ruleAppliesTo, wholeToolRuleMatches } from './rules.ts';
import type { RuleMatch } from './shell-rules.ts';
import {
  fileRuleMatchesRef,
  matchCommand,
  type PathEnv,
  ruleMayMatchBelow,
  showPath,
  withReal,
} from './subjects.ts';
import type {
  BashPermissionMatcher,
  FilePermissionMatcher,
  PermissionBehavior,
  PermissionMatcher,
  PermissionRule,
} from './types.ts';

/** The rules that concern one call, by kind. */
export interface RuleBook {
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

export function ruleBook(rules: readonly PermissionRule[], tool: AnyTool): RuleBook {
  const content = rules.filter((r) => r.value.ruleContent !== undefined);
  return {
    whole: byBehavior(rules.filter((r) => wholeToolRuleMatches(r.value, tool))),
    content: byBehavior(content.filter((r) => ruleAppliesTo(r.value.toolName, tool.name))),
    read: byBehavior(content.filter((r) => r.value.toolName === 'Read')),
    write: byBehavior(content.filter((r) => r.value.toolName === 'Edit' || r.value.toolName === 'Write')),
  };
}

/** A rule hit: which rule, how sure, and what it matched (for the message). */
export interface Hit {
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
  for (const command of m.runs?.length ? [...m.commands, ...m.runs] : m.commands) {
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

export function ruleHit(
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
export function domainHit(host: string, rules: readonly PermissionRule[]): Hit | undefined {
  const rule = rules.find((r) => domainRuleMatches(r.value.ruleContent as string, host));
  return rule ? { rule, match: 'yes', subject: host } : undefined;
}
