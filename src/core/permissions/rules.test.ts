import { describe, expect, it } from 'vitest';
import {
  formatRule,
  isBlanketRuleFor,
  parseRule,
  ruleAppliesTo,
  rulesFromSet,
  validateRule,
  wholeToolRuleMatches,
} from './rules.ts';

const KNOWN = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep', 'ToolSearch'];

describe('rule text', () => {
  it('parses Tool and Tool(content); Tool() and Tool(*) are whole-tool rules', () => {
    expect(parseRule('Bash')).toEqual({ ok: true, value: { toolName: 'Bash' } });
    expect(parseRule('  Bash(npm test:*)  ')).toEqual({
      ok: true,
      value: { toolName: 'Bash', ruleContent: 'npm test:*' },
    });
    expect(parseRule('Bash()')).toEqual({ ok: true, value: { toolName: 'Bash' } });
    expect(parseRule('Bash(*)')).toEqual({ ok: true, value: { toolName: 'Bash' } });
    expect(parseRule('Bash(echo (a) b)')).toEqual({
      ok: true,
      value: { toolName: 'Bash', ruleContent: 'echo (a) b' },
    });
    expect(parseRule('Bash(echo \\) x)')).toEqual({
      ok: true,
      value: { toolName: 'Bash', ruleContent: 'echo ) x' },
    });
    expect(parseRule('mcp__github__create_issue')).toEqual({
      ok: true,
      value: { toolName: 'mcp__github__create_issue' },
    });
    expect(formatRule({ toolName: 'Read', ruleContent: 'src/**' })).toBe('Read(src/**)');
    expect(formatRule({ toolName: 'Write' })).toBe('Write');
  });

  it.each([
    ['', 'empty'],
    ['Bash(ls', 'closing parenthesis is missing'],
    ['Bash(ls) now', 'text after the closing parenthesis'],
    ['Bash ls)', 'closing parenthesis has no opening'],
    ['(ls)', 'not a tool name'],
    ['my tool', 'not a tool name'],
    ['bash(ls)', 'did you mean Bash?'],
    ['Bash(:*)', 'prefix before ":*" is empty'],
    ['Bash(npm:* test)', 'only works at the end'],
    ['Bash(git *:*)', 'not both'],
    ['Read(!secrets/**)', 'Negated patterns'],
    ['Edit(#x)', 'comment'],
    ['Read(../outside)', 'cannot contain ".."'],
    ['Read(/)', 'empty'],
    ['mcp__github(x)', 'MCP rules take no (content)'],
    ['mcp__', 'An MCP rule is'],
    ['mcp__a__b__c', 'An MCP rule is'],
    ['ToolSearch(select:x)', 'take no (content)'],
  ])('refuses %j with a reason (%s)', (rule, reason) => {
    const r = validateRule(rule, { knownTools: KNOWN });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain(reason);
  });

  it('accepts rules of tools it does not know (MCP servers come and go)', () => {
    expect(validateRule('SomeFutureTool(x)', { knownTools: KNOWN }).ok).toBe(true);
    expect(validateRule('mcp__github__*').ok).toBe(true);
    expect(validateRule('Read(//etc/hosts)').ok).toBe(true);
    expect(validateRule('Read(~/notes/**)').ok).toBe(true);
  });

  it('a rule set keeps the good rules, reports the bad ones, and drops duplicates', () => {
    const { rules, problems } = rulesFromSet(
      {
        allow: ['Bash(ls:*)', 'Bash( ls:* )', 'bash(cat)', 'Read'],
        deny: ['Read(!x)', 'Write'],
        ask: [42 as never],
      },
      'settings',
      { knownTools: KNOWN },
    );
    expect(rules.map((r) => `${r.behavior}:${r.text}:${r.source}`)).toEqual([
      'deny:Write:settings',
      'allow:Bash(ls:*):settings',
      'allow:Read:settings',
    ]);
    expect(problems.map((p) => [p.rule, p.behavior])).toEqual([
      ['Read(!x)', 'deny'],
      ['42', 'ask'],
      ['bash(cat)', 'allow'],
    ]);
  });
});

describe('which rules concern which tool', () => {
  const mcpTool = {
    name: 'mcp__github__create_issue',
    mcpInfo: { serverName: 'github', toolName: 'create_issue' },
  };

  it('whole-tool rules: the tool, an alias, or its MCP server', () => {
    expect(wholeToolRuleMatches({ toolName: 'Bash' }, { name: 'Bash' })).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'Shell' }, { name: 'Bash', aliases: ['Shell'] })).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'Bash', ruleContent: 'ls' }, { name: 'Bash' })).toBe(false);
    expect(wholeToolRuleMatches({ toolName: 'mcp__github' }, mcpTool)).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'mcp__github__*' }, mcpTool)).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'mcp__github__create_issue' }, mcpTool)).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'mcp__github__close_issue' }, mcpTool)).toBe(false);
    expect(wholeToolRuleMatches({ toolName: 'mcp__git' }, mcpTool)).toBe(false);
    expect(wholeToolRuleMatches({ toolName: 'mcp__github' }, { name: 'mcp__github__x' })).toBe(true);
  });

  it('an MCP server rule matches the server name exactly, not a server whose name extends it', () => {
    const admin = {
      name: 'mcp__docs__admin__delete_all',
      mcpInfo: { serverName: 'docs__admin', toolName: 'delete_all' },
    };
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs' }, admin)).toBe(false);
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs__*' }, admin)).toBe(false);
    expect(isBlanketRuleFor('mcp__docs', admin)).toBe(false);
    const docs = { name: 'mcp__docs__search', mcpInfo: { serverName: 'docs', toolName: 'search' } };
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs' }, docs)).toBe(true);
  });

  it('an MCP tool rule names the server and the tool, whatever name the pool gave it', () => {
    // Two servers listing the same tool: the pool renames the second, the rule still finds it.
    const renamed = { name: 'mcp__docs__search_2', mcpInfo: { serverName: 'docs', toolName: 'search' } };
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs__search' }, renamed)).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs__search_2' }, renamed)).toBe(true);
    expect(wholeToolRuleMatches({ toolName: 'mcp__other__search' }, renamed)).toBe(false);
    expect(wholeToolRuleMatches({ toolName: 'mcp__docs__searc' }, renamed)).toBe(false);
  });

  it('blanket rules as text (what removes a tool from the pool)', () => {
    expect(isBlanketRuleFor('Bash', { name: 'Bash' })).toBe(true);
    expect(isBlanketRuleFor('Bash(*)', { name: 'Bash' })).toBe(true);
    expect(isBlanketRuleFor('Bash(rm:*)', { name: 'Bash' })).toBe(false);
    expect(isBlanketRuleFor('bash', { name: 'Bash' })).toBe(false);
    expect(isBlanketRuleFor('mcp__github', mcpTool)).toBe(true);
  });

  it('content rules apply to the tool family: Read guards Glob and Grep, Edit guards Write', () => {
    expect(ruleAppliesTo('Read', 'Grep')).toBe(true);
    expect(ruleAppliesTo('Read', 'Glob')).toBe(true);
    expect(ruleAppliesTo('Edit', 'Write')).toBe(true);
    expect(ruleAppliesTo('Write', 'Edit')).toBe(false);
    expect(ruleAppliesTo('Grep', 'Read')).toBe(false);
    expect(ruleAppliesTo('Bash', 'Bash')).toBe(true);
  });
});
