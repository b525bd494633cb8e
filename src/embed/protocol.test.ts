import { describe, expect, it } from 'vitest';
import {
  ANY_ORIGIN,
  checkHostMessage,
  isHostMessage,
  MAX_HOST_PROMPT_CHARS,
  narrowOrigins,
  originAllowed,
  parseOriginList,
  toEmbedEvent,
} from './protocol.ts';

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

describe('checkHostMessage', () => {
  it('ignores what is not a tabcode message, refuses bad tabcode ones with a reason', () => {
    for (const data of [null, 'tabcode:send', 42, [], { type: 7 }, { type: 'webpackOk' }, {}])
      expect(checkHostMessage(data)).toEqual({ ignore: true });
    // A type inherited from a polluted prototype is not the message's own.
    expect(checkHostMessage(Object.create({ type: 'tabcode:play' }))).toEqual({ ignore: true });
    const field = (data: unknown) => {
      const c = checkHostMessage(data);
      return 'warning' in c ? c.warning.field : undefined;
    };
    expect(field({ type: 'tabcode:send', prompt: { toString: 'x' } })).toBe('prompt');
    expect(field({ type: 'tabcode:send', prompt: 'x'.repeat(MAX_HOST_PROMPT_CHARS + 1) })).toBe('prompt');
    expect(field({ type: 'tabcode:step', step: Number.NaN })).toBe('step');
    expect(field({ type: 'tabcode:step', step: -1 })).toBe('step');
    expect(field({ type: 'tabcode:step', step: 1.5 })).toBe('step');
    expect(field({ type: 'tabcode:config', config: null })).toBe('config');
    expect(field({ type: 'tabcode:config', config: [1] })).toBe('config');
    const unknown = checkHostMessage({ type: `tabcode:${'z'.repeat(1_000_000)}` });
    expect('warning' in unknown && unknown.warning.message.length).toBeLessThan(400);
    expect(checkHostMessage({ type: 'tabcode:step', step: 2, extra: 1 })).toEqual({
      message: { type: 'tabcode:step', step: 2 },
    });
  });
});

describe('allowed origins', () => {
  it('reads the build list: unset or * is any; a list of only typos allows nobody', () => {
    expect(parseOriginList(undefined)).toBe(ANY_ORIGIN);
    expect(parseOriginList(' ')).toBe(ANY_ORIGIN);
    expect(parseOriginList('https://a.example, *')).toBe(ANY_ORIGIN);
    const list = parseOriginList('https://Docs.example.com/ http://127.0.0.1:8080,nonsense');
    expect(list).toEqual(new Set(['https://docs.example.com', 'http://127.0.0.1:8080']));
    expect(parseOriginList('docs.example.com https://a.example/path')).toEqual(new Set());
    expect(originAllowed(list, 'https://docs.example.com')).toBe(true);
    expect(originAllowed(list, 'https://evil.example')).toBe(false);
    expect(originAllowed(list, 'null')).toBe(false);
    expect(originAllowed(ANY_ORIGIN, 'null')).toBe(true);
  });

  it('lets the config narrow the build list, never widen it, and refuses a malformed one', () => {
    const build = parseOriginList('https://a.example https://b.example');
    expect(narrowOrigins(build, undefined)).toEqual({ allowed: build });
    expect(narrowOrigins(build, ['https://b.example', 'https://evil.example'])).toEqual({
      allowed: new Set(['https://b.example']),
    });
    expect(narrowOrigins(ANY_ORIGIN, ['https://c.example'])).toEqual({
      allowed: new Set(['https://c.example']),
    });
    for (const bad of ['https://a.example', [], ['*'], [42], ['https://a.example/x'], { 0: 'x' }])
      expect(narrowOrigins(build, bad)).toHaveProperty('error');
  });
});
