import { describe, expect, it } from 'vitest';
import { isHostMessage, toEmbedEvent } from './protocol.ts';

describe('toEmbedEvent', () => {
  it('keeps safe, cloneable fields only', () => {
    const event = toEmbedEvent({
      type: 'permission-request',
      toolUseId: 't1',
      name: 'Bash',
      input: { command: 'ls' },
      view: { title: 'Bash' } as never,
      message: 'Allow?',
      respond: () => {},
    });
    expect(event).toEqual({ type: 'permission-request', toolUseId: 't1', name: 'Bash', message: 'Allow?' });
    expect(() => structuredClone(event)).not.toThrow();
    expect(
      toEmbedEvent({ type: 'request-sent', sizes: { toolsChars: 1, systemChars: 1, messagesChars: 1 } }),
    ).toBe(undefined);
    expect(toEmbedEvent({ type: 'error', error: { kind: 'auth', message: 'no', status: 401 } })).toEqual({
      type: 'error',
      error: { kind: 'auth', message: 'no', status: 401 },
    });
  });
});

describe('isHostMessage', () => {
  it('accepts the three host messages and nothing else', () => {
    expect(isHostMessage({ type: 'tabcode:config', config: {} })).toBe(true);
    expect(isHostMessage({ type: 'tabcode:send', prompt: 'hi' })).toBe(true);
    expect(isHostMessage({ type: 'tabcode:interrupt' })).toBe(true);
    expect(isHostMessage({ type: 'tabcode:send' })).toBe(false);
    expect(isHostMessage({ type: 'tabcode:ready' })).toBe(false);
    expect(isHostMessage('tabcode:config')).toBe(false);
  });
});
