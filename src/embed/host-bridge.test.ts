/**
 * The bridge's gate before anything mounts, with the build's list of allowed parent origins set (the
 * e2e, against a build that allows any origin, cannot reach this path): a parent of another origin is
 * ignored and reported once, an allowed one is answered at its own origin only. The window is a plain
 * EventTarget standing in for the browser's; the bridge code under test is the real one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectToHost } from './host-bridge.ts';
import { parseOriginList } from './protocol.ts';

interface Sent {
  message: { type: string; warning?: { message: string }; message?: string };
  to: string;
}

function fakeFrame() {
  const sent: Sent[] = [];
  const parent = { postMessage: (message: Sent['message'], to: string) => sent.push({ message, to }) };
  const win = Object.assign(new EventTarget(), { parent }) as unknown as Window;
  const element = new EventTarget() as unknown as HTMLElement;
  return { sent, win, element, parent };
}

/** A MessageEvent whose source is `source` (Node's constructor accepts only MessagePorts as sources). */
function messageEvent(data: unknown, origin: string, source: unknown): MessageEvent {
  const event = new MessageEvent('message', { data, origin });
  Object.defineProperty(event, 'source', { value: source });
  return event;
}

afterEach(() => vi.restoreAllMocks());

describe('connectToHost with a build list of allowed origins', () => {
  it('ignores a parent of another origin (one console report), answers an allowed one at its origin', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { sent, win, element, parent } = fakeFrame();
    const stop = connectToHost(element, win, { allowedOrigins: parseOriginList('https://docs.example.com') });
    expect(sent.map((s) => s.message.type)).toEqual(['tabcode:loaded']);

    for (let i = 0; i < 3; i++)
      win.dispatchEvent(messageEvent({ type: 'tabcode:play' }, 'https://evil.example', parent));
    win.dispatchEvent(messageEvent({ type: 'tabcode:config', config: {} }, 'https://evil.example', parent));
    expect(sent).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('messages from https://evil.example are ignored');

    // Another window of an allowed origin is not the parent: ignored without a word.
    win.dispatchEvent(messageEvent({ type: 'tabcode:play' }, 'https://docs.example.com', {}));
    expect(sent).toHaveLength(1);

    win.dispatchEvent(messageEvent({ type: 'tabcode:play' }, 'https://docs.example.com', parent));
    expect(sent[1]).toEqual({
      message: {
        type: 'tabcode:warning',
        warning: { field: 'tabcode:play', message: 'Post tabcode:config first; this message was ignored.' },
      },
      to: 'https://docs.example.com',
    });
    // The config cannot widen the build's list: a list without its sender is refused.
    win.dispatchEvent(
      messageEvent(
        { type: 'tabcode:config', config: { allowedOrigins: ['https://evil.example'] } },
        'https://docs.example.com',
        parent,
      ),
    );
    expect(sent[2].message.type).toBe('tabcode:error');
    expect(sent[2].message.message).toContain('is not in the config');
    expect(sent[2].to).toBe('https://docs.example.com');
    stop();
  });
});
