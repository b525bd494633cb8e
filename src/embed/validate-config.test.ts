import { describe, expect, it } from 'vitest';
import { validateEmbedConfig } from './validate-config.ts';

const fields = (raw: unknown) => validateEmbedConfig(raw).warnings.map((w) => w.field);

describe('validateEmbedConfig', () => {
  it('accepts a full, valid config as is', () => {
    const raw = {
      files: { 'README.md': '# Hi\n', './src/a.js': 'x' },
      baseURL: 'https://proxy.example.com/anthropic',
      model: 'claude-sonnet-4-6',
      maxTokens: 4096,
      permissionMode: 'acceptEdits',
      permissions: { allow: ['Bash(npm test:*)'], deny: ['WebFetch'] },
      mcpServers: [{ name: 'docs', url: 'https://mcp.example.com/mcp', transport: 'http' }],
      toolSearchEncoder: false,
      sandbox: 'just-bash',
      demo: { turns: [{ content: [{ type: 'text', text: 'hello' }] }], chunkDelayMs: 0 },
    };
    const { config, warnings } = validateEmbedConfig(raw);
    expect(warnings).toEqual([]);
    expect(config.files).toEqual({ 'README.md': '# Hi\n', 'src/a.js': 'x' });
    expect(config).toMatchObject({
      baseURL: raw.baseURL,
      model: raw.model,
      maxTokens: 4096,
      permissionMode: 'acceptEdits',
      permissions: { allow: ['Bash(npm test:*)'], deny: ['WebFetch'] },
      toolSearchEncoder: false,
      sandbox: 'just-bash',
    });
    expect(config.mcpServers).toEqual([raw.mcpServers[0]]);
    expect(config.demo?.turns).toHaveLength(1);
  });

  it('treats a missing config as empty and refuses a non-object whole', () => {
    expect(validateEmbedConfig(undefined)).toEqual({ config: {}, warnings: [] });
    expect(fields('files')).toEqual(['config']);
    expect(fields([1])).toEqual(['config']);
  });

  it('reports each bad field and keeps every good one', () => {
    const { config, warnings } = validateEmbedConfig({
      model: 'claude-haiku-4-5',
      maxTokens: -3,
      permissionMode: 'yolo',
      baseURL: 'javascript:alert(1)',
      sandbox: 'docker',
      colour: 'red',
      toolSearchEncoder: 'no',
    });
    expect(config).toEqual({ model: 'claude-haiku-4-5' });
    expect(warnings.map((w) => w.field).sort()).toEqual(
      ['baseURL', 'colour', 'maxTokens', 'permissionMode', 'sandbox', 'toolSearchEncoder'].sort(),
    );
    expect(warnings.find((w) => w.field === 'toolSearchEncoder')?.message).toMatch(/true or false/);
    expect(warnings.find((w) => w.field === 'maxTokens')?.message).toMatch(/integer from 1/);
  });

  it('never takes a key, and says to use a proxy', () => {
    const { config, warnings } = validateEmbedConfig({ apiKey: 'sk-ant-secret', model: 'm' });
    expect(config).toEqual({ model: 'm' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0].field).toBe('apiKey');
    expect(warnings[0].message).toMatch(/proxy/);
    expect(JSON.stringify(warnings)).not.toContain('sk-ant-secret');
  });

  it('drops only the bad files, rules and servers', () => {
    const { config, warnings } = validateEmbedConfig({
      files: { 'ok.txt': 'ok', '../etc/passwd': 'x', '/abs.txt': 'x', 'n.bin': 42 },
      permissions: { allow: ['Read', 'Bash(rm -rf /'], ask: 'Bash', extra: [] },
      mcpServers: [
        { name: 'a', url: 'ftp://x' },
        { url: 'https://x' },
        { name: 'b', url: 'https://b.test/mcp' },
      ],
    });
    expect(config.files).toEqual({ 'ok.txt': 'ok' });
    expect(config.permissions).toEqual({ allow: ['Read'] });
    expect(config.mcpServers).toEqual([{ name: 'b', url: 'https://b.test/mcp' }]);
    expect(warnings.map((w) => w.field)).toEqual([
      'files["../etc/passwd"]',
      'files["/abs.txt"]',
      'files["n.bin"]',
      'permissions.extra',
      'permissions.allow[1]',
      'permissions.ask',
      'mcpServers[0].url',
      'mcpServers[1].name',
    ]);
  });

  it('leaves out a demo turn with a bad block, keeps the others', () => {
    const { config, warnings } = validateEmbedConfig({
      demo: {
        turns: [
          { content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'a', content: 'b' } }] },
          { content: [{ type: 'text', text: 'ok' }, { type: 'image' }] },
          { content: [] },
          { content: [{ type: 'text', text: 'done' }] },
        ],
        chunkDelayMs: 'fast',
      },
    });
    expect(config.demo?.turns.map((t) => t.content[0].type)).toEqual(['tool_use', 'text']);
    expect(warnings.map((w) => w.field)).toEqual([
      'demo.turns[1].content[1]',
      'demo.turns[2]',
      'demo.chunkDelayMs',
    ]);
    expect(fields({ demo: { turns: 'x' } })).toEqual(['demo']);
  });
});
