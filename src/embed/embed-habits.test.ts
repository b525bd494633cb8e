/**
 * What an embedding host gives the session: `memory` (a CLAUDE.md of the host's) read into the request,
 * and hooks registered as functions (MountOptions.hooks) deciding tool calls. Through the embed
 * controller's real session (real SDK, the mock Messages API behind the config's baseURL, just-bash).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { defaultSettings } from '../agent/session.ts';
import type { EmbedHookInput } from './config.ts';
import { createEmbedController } from './embed-controller.ts';
import { validateEmbedConfig } from './validate-config.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

describe('an embedding host', () => {
  it('supplies memory and a PreToolUse function hook that denies a command', async () => {
    const seen: EmbedHookInput[] = [];
    const { config, warnings } = validateEmbedConfig({
      baseURL: api.url,
      sandbox: 'just-bash',
      permissionMode: 'bypassPermissions',
      files: { 'notes.txt': 'keep me\n' },
      memory: '# House rules\nNever delete notes.txt.\n',
    });
    expect(warnings).toEqual([]);
    const controller = createEmbedController({
      config,
      warn: (w) => {
        throw new Error(`unexpected warning: ${w.field}: ${w.message}`);
      },
      hooks: [
        {
          event: 'PreToolUse',
          matcher: 'Bash',
          label: 'no-rm',
          fn: (input) => {
            seen.push(input);
            const command = (input.tool_input as { command?: string }).command ?? '';
            return command.startsWith('rm ')
              ? {
                  hookSpecificOutput: {
                    hookEventName: 'PreToolUse',
                    permissionDecision: 'deny',
                    permissionDecisionReason: 'The host does not allow rm.',
                  },
                }
              : undefined;
          },
        },
      ],
    });
    const agent = await controller.createSession({
      settings: { ...defaultSettings(), baseURL: api.url, permissionMode: 'bypassPermissions' },
    });
    try {
      expect(agent.hooks?.list().map((h) => [h.event, h.source, h.label])).toEqual([
        ['PreToolUse', 'embed', 'no-rm'],
      ]);
      api.script([
        { content: [{ type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command: 'rm notes.txt' } }] },
        { content: [{ type: 'text', text: 'The host refused.' }] },
      ]);
      await agent.send('Tidy up.');
      expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
      expect(JSON.stringify(api.requests[0].body.messages)).toContain('Never delete notes.txt.');
      expect(seen.map((i) => [i.hook_event_name, i.tool_name])).toEqual([['PreToolUse', 'Bash']]);
      const result = JSON.stringify(api.requests[1].body.messages.at(-1));
      expect(result).toContain('"is_error":true');
      expect(result).toContain('The host does not allow rm.');
      expect(await agent.sandbox.readFile('notes.txt')).toBe('keep me\n');
    } finally {
      controller.dispose();
      await agent.dispose();
    }
  });

  it('memory that is not text, or too long, is refused with a warning', () => {
    expect(validateEmbedConfig({ memory: 42 }).warnings.map((w) => w.field)).toEqual(['memory']);
    const huge = validateEmbedConfig({ memory: 'x'.repeat(1_000_001) });
    expect(huge.config.memory).toBeUndefined();
    expect(huge.warnings[0].message).toContain('at most 1,000,000 characters');
  });
});
