/**
 * Permission rule text: parsing (`Tool`, `Tool(content)`), validation with a reason a user can act on,
 * canonical formatting, and which rules concern which tool (file-rule families, MCP server rules).
 */
import { DOMAIN_RULE_TOOLS, domainContentProblem } from './domains.ts';
import type {
  PermissionBehavior,
  PermissionRule,
  PermissionRuleProblem,
  PermissionRuleSet,
  PermissionRuleSource,
  PermissionRuleValue,
} from './types.ts';

/** Tools whose rule content is a gitignore-style path pattern. */
export const FILE_RULE_TOOLS: readonly string[] = ['Read', 'Edit', 'Write', 'Glob', 'Grep'];

/** Tools whose rule content is a shell command pattern. */
export const SHELL_RULE_TOOLS: readonly string[] = ['Bash'];

/**
 * Content rules of tool `ruleTool` also apply to these tools: a Read rule guards every tool that reads
 * files (Glob and Grep search them), an Edit rule every tool that changes them.
 */
const RULE_FAMILY: Record<string, readonly string[]> = {
  Read: ['Read', 'Glob', 'Grep'],
  Edit: ['Edit', 'Write'],
};

/** A tool name, or an MCP server wildcard (`mcp__server__*`). */
const TOOL_NAME = /^(?:[A-Za-z_][A-Za-z0-9_-]*|mcp__[A-Za-z0-9_-]+__\*)$/;

export type ParsedRule = { ok: true; value: PermissionRuleValue } | { ok: false; reason: string };

/** Content rules of the tool named `ruleTool` apply to the tool named `toolName`. */
export function ruleAppliesTo(ruleTool: string, toolName: string): boolean {
  return ruleTool === toolName || (RULE_FAMILY[ruleTool]?.includes(toolName) ?? false);
}

/**
 * Parses a rule's text. `Tool()` and `Tool(*)` are whole-tool rules. `\(` and `\)` in the content stand
 * for parentheses. Never throws.
 */
export function parseRule(text: string): ParsedRule {
  const rule = text.trim();
  if (rule === '') return { ok: false, reason: 'The rule is empty.' };
  const open = rule.indexOf('(');
  if (open < 0) {
    if (rule.includes(')')) return { ok: false, reason: 'A closing parenthesis has no opening one.' };
    if (!TOOL_NAME.test(rule)) return { ok: false, reason: `"${rule}" is not a tool name.` };
    return { ok: true, value: { toolName: rule } };
  }
  const toolName = rule.slice(0, open).trim();
  if (!TOOL_NAME.test(toolName)) {
    return { ok: false, reason: `"${toolName}" is not a tool name (write Tool or Tool(content)).` };
  }
  if (!rule.endsWith(')') || rule.endsWith('\\)')) {
    return rule.lastIndexOf(')') > open && !rule.endsWith('\\)')
      ? { ok: false, reason: 'There is text after the closing parenthesis.' }
      : { ok: false, reason: 'The closing parenthesis is missing.' };
  }
  const raw = rule.slice(open + 1, -1);
  const content = raw.replace(/\\([()])/g, '$1').trim();
  if (content === '' || content === '*') return { ok: true, value: { toolName } };
  return { ok: true, value: { toolName, ruleContent: content } };
}

/** The canonical text of a rule value. */
export function formatRule(value: PermissionRuleValue): string {
  return value.ruleContent === undefined ? value.toolName : `${value.toolName}(${value.ruleContent})`;
}

/** Why a Bash rule's content cannot work, or null. */
function shellContentProblem(content: string): string | null {
  if (/[\n\r]/.test(content)) return 'A Bash rule must be on one line.';
  const legacy = content.endsWith(':*');
  const body = legacy ? content.slice(0, -2) : content;
  if (body.includes(':*')) return '":*" (prefix match) only works at the end of a Bash rule.';
  if (legacy && body.trim() === '')
    return 'The prefix before ":*" is empty; write Bash to match every command.';
  if (legacy && /(^|[^\\])\*/.test(body)) {
    return 'A Bash rule uses either a ":*" prefix or "*" wildcards, not both (e.g. "git *").';
  }
  return null;
}

/** Why a file rule's content cannot work, or null. */
function fileContentProblem(content: string): string | null {
  if (content.includes('\0')) return 'The path pattern contains a NUL character.';
  if (content.startsWith('!')) {
    return 'Negated patterns ("!...") are not supported: write an allow or a deny rule instead.';
  }
  if (content.startsWith('#'))
    return 'A path pattern cannot start with "#" (gitignore reads it as a comment).';
  const path = content.replace(/^(\/\/|~\/|\.\/|\/)/, '');
  if (path === '') return 'The path pattern is empty.';
  if (path.split('/').some((seg) => seg === '..')) {
    return 'A path pattern cannot contain "..": write an absolute path as //path or a workspace path as /path.';
  }
  return null;
}

export interface ValidateRuleOptions {
  /** Names of the tools this build knows: a wrong case ("bash") is refused with the right name. */
  knownTools?: readonly string[];
}

/**
 * Parses and checks a rule. A refused rule comes with the reason (shown when a user saves it).
 * Never throws.
 */
export function validateRule(text: string, options: ValidateRuleOptions = {}): ParsedRule {
  const parsed = parseRule(text);
  if (!parsed.ok) return parsed;
  const { toolName, ruleContent } = parsed.value;
  const known = options.knownTools;
  if (known && !known.includes(toolName) && !toolName.startsWith('mcp__')) {
    const fix = known.find((k) => k.toLowerCase() === toolName.toLowerCase());
    if (fix) return { ok: false, reason: `Tool names are case-sensitive: did you mean ${fix}?` };
  }
  if (toolName.startsWith('mcp__')) {
    const parts = toolName.slice(5).split('__');
    if (parts[0] === '' || parts.length > 2 || parts.some((p) => p === '')) {
      return { ok: false, reason: 'An MCP rule is mcp__server, mcp__server__tool or mcp__server__*.' };
    }
    if (ruleContent !== undefined) {
      return { ok: false, reason: 'MCP rules take no (content): use mcp__server or mcp__server__tool.' };
    }
    return parsed;
  }
  if (ruleContent === undefined) return parsed;
  let problem: string | null = null;
  if (SHELL_RULE_TOOLS.includes(toolName)) {
    problem = shellContentProblem(ruleContent);
    // Commands match with single spaces between words: so does the rule's canonical text.
    if (!problem) return { ok: true, value: { toolName, ruleContent: ruleContent.replace(/[ \t]+/g, ' ') } };
  } else if (FILE_RULE_TOOLS.includes(toolName)) problem = fileContentProblem(ruleContent);
  else if (DOMAIN_RULE_TOOLS.includes(toolName)) problem = domainContentProblem(ruleContent);
  else if (known?.includes(toolName)) {
    problem = `${toolName} rules take no (content): write ${toolName} to match every call.`;
  }
  return problem ? { ok: false, reason: problem } : parsed;
}

export interface RuleSetResult {
  rules: PermissionRule[];
  problems: PermissionRuleProblem[];
}

/** Turns a rule set into rules of `source`; malformed rules are left out and reported. Never throws. */
export function rulesFromSet(
  set: PermissionRuleSet | undefined,
  source: PermissionRuleSource,
  options: ValidateRuleOptions = {},
): RuleSetResult {
  const rules: PermissionRule[] = [];
  const problems: PermissionRuleProblem[] = [];
  const seen = new Set<string>();
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    const list = set?.[behavior];
    if (!Array.isArray(list)) continue;
    for (const text of list) {
      if (typeof text !== 'string') {
        problems.push({ rule: String(text), behavior, reason: 'A rule must be text.' });
        continue;
      }
      const parsed = validateRule(text, options);
      if (!parsed.ok) {
        problems.push({ rule: text, behavior, reason: parsed.reason });
        continue;
      }
      const canonical = formatRule(parsed.value);
      if (seen.has(`${behavior}:${canonical}`)) continue;
      seen.add(`${behavior}:${canonical}`);
      rules.push({ source, behavior, value: parsed.value, text: canonical });
    }
  }
  return { rules, problems };
}

/** The rule set (texts by behavior) of some rules. */
export function ruleSetOf(rules: readonly PermissionRule[]): Required<PermissionRuleSet> {
  const pick = (b: PermissionBehavior) => rules.filter((r) => r.behavior === b).map((r) => r.text);
  return { allow: pick('allow'), deny: pick('deny'), ask: pick('ask') };
}

/** What the engine needs of a tool to match whole-tool and MCP rules. */
export interface RuleTarget {
  name: string;
  aliases?: readonly string[];
  mcpInfo?: { serverName: string; toolName: string };
}

/** True when a rule without content names this tool (its name, an alias, or its MCP server). */
export function wholeToolRuleMatches(value: PermissionRuleValue, tool: RuleTarget): boolean {
  if (value.ruleContent !== undefined) return false;
  const name = value.toolName;
  if (name === tool.name || tool.aliases?.includes(name)) return true;
  if (!name.startsWith('mcp__')) return false;
  const serverRule = name.endsWith('__*') ? name.slice(0, -3) : name;
  if (serverRule.slice(5).includes('__')) {
    // `mcp__server__tool`: the tool of that server by its own name (whatever name the pool gave it).
    return tool.mcpInfo !== undefined && name === `mcp__${tool.mcpInfo.serverName}__${tool.mcpInfo.toolName}`;
  }
  // An MCP tool knows its server: match it exactly (`mcp__docs` is not a rule for server `docs__admin`).
  if (tool.mcpInfo) return serverRule === `mcp__${tool.mcpInfo.serverName}`;
  return tool.name.startsWith(`${serverRule}__`);
}

/** True when `rule` (text) is a deny-everything rule for this tool: it is removed from the pool. */
export function isBlanketRuleFor(rule: string, tool: RuleTarget): boolean {
  const parsed = parseRule(rule);
  return parsed.ok && wholeToolRuleMatches(parsed.value, tool);
}
