import { describe, expect, it } from 'vitest';
import {
  API_TOOL_NAME,
  disambiguate,
  MAX_SERVER_NAME_CHARS,
  mcpToolName,
  normalizeServerName,
  parseMcpToolName,
} from './names.ts';

describe('MCP tool names', () => {
  it('builds mcp__<server>__<tool> and parses it back', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('everything', 'get-tiny-image')).toBe('mcp__everything__get-tiny-image');
    expect(parseMcpToolName('mcp__github__create_issue')).toEqual({ server: 'github', tool: 'create_issue' });
    expect(parseMcpToolName('mcp__a__b__c')).toEqual({ server: 'a', tool: 'b__c' });
    expect(parseMcpToolName('Read')).toBeNull();
    expect(parseMcpToolName('mcp____x')).toBeNull();
  });

  it('replaces characters the API rejects', () => {
    const name = mcpToolName('docs', 'search.pages/v2 (beta)');
    expect(name).toBe('mcp__docs__search_pages_v2__beta_');
    expect(name).toMatch(API_TOOL_NAME);
  });

  it('cuts long names to 64 characters with a stable hash, keeping distinct tools distinct', () => {
    const a = mcpToolName('analytics', `${'very_long_tool_name_'.repeat(5)}alpha`);
    const b = mcpToolName('analytics', `${'very_long_tool_name_'.repeat(5)}beta`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).toMatch(API_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(a.slice(0, 40)).toBe(b.slice(0, 40));
    expect(mcpToolName('analytics', `${'very_long_tool_name_'.repeat(5)}alpha`)).toBe(a);
  });

  it('normalizes server names and refuses empty ones', () => {
    expect(normalizeServerName(' my server.io ')).toBe('my_server_io');
    expect(normalizeServerName('x'.repeat(40))).toHaveLength(MAX_SERVER_NAME_CHARS);
    expect(() => normalizeServerName('')).toThrow(/Invalid MCP server name/);
    expect(() => normalizeServerName('...')).toThrow(/Invalid MCP server name/);
    // `__` is the separator of mcp__<server>__<tool>: it never survives inside or at the edge of a server.
    expect(normalizeServerName('docs__admin')).toBe('docs_admin');
    expect(normalizeServerName('docs..admin')).toBe('docs_admin');
    expect(normalizeServerName('_docs_')).toBe('docs');
    expect(parseMcpToolName(mcpToolName(normalizeServerName('docs__admin'), 'delete_all'))).toEqual({
      server: 'docs_admin',
      tool: 'delete_all',
    });
    expect(() => normalizeServerName('__')).toThrow(/Invalid MCP server name/);
    // The longest server name still leaves room for a tool part.
    const long = mcpToolName(normalizeServerName('s'.repeat(40)), 't'.repeat(100));
    expect(long).toMatch(API_TOOL_NAME);
  });

  it('disambiguates a collision with a hash of the original name', () => {
    const taken = new Set(['mcp__s__a_b']);
    const other = disambiguate('mcp__s__a_b', 'a.b', taken);
    expect(other).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(taken.has(other)).toBe(false);
    expect(disambiguate('mcp__s__a_b', 'a.b', taken)).toBe(other);
  });
});
