/**
 * The iframe side of the protocol (protocol.ts): listens to the parent window only, mounts on the first
 * `tabcode:config`, then forwards warnings, readiness and session events to the parent. Messages go to
 * any origin (a docs site may live anywhere), so nothing secret is ever posted: events carry only the
 * safe fields of protocol.ts.
 */

import { messageOf } from '../core/errors.ts';
import type { EmbedConfig } from './config.ts';
import { EMBED_WARNING_EVENT, type EmbedHandle, mount } from './mount.ts';
import { type EmbedMessage, isHostMessage } from './protocol.ts';

/** Starts listening; returns the function that stops (and unmounts). */
export function connectToHost(element: HTMLElement, win: Window = window): () => void {
  const post = (message: EmbedMessage) => win.parent.postMessage(message, '*');
  let mounted: Promise<EmbedHandle | undefined> | undefined;

  const onWarning = (e: Event) => {
    const warning = (e as CustomEvent).detail;
    post({
      type: 'tabcode:warning',
      warning: { field: String(warning.field), message: String(warning.message) },
    });
  };
  element.addEventListener(EMBED_WARNING_EVENT, onWarning);

  const onMessage = (event: MessageEvent) => {
    if (event.source !== win.parent || !isHostMessage(event.data)) return;
    const message = event.data;
    if (message.type === 'tabcode:config') {
      if (mounted) {
        post({
          type: 'tabcode:warning',
          warning: {
            field: 'config',
            message: 'A config was already applied; reload the iframe to change it.',
          },
        });
        return;
      }
      mounted = mount(element, message.config as EmbedConfig, {
        onAutoHeight: (height) => post({ type: 'tabcode:resize', height }),
        documentTheme: true,
      }).then(
        (handle) => {
          handle.subscribe((e) => post({ type: 'tabcode:event', event: e }));
          post({ type: 'tabcode:ready', sandbox: handle.sandbox });
          return handle;
        },
        (err: unknown) => {
          post({ type: 'tabcode:error', message: messageOf(err) });
          return undefined;
        },
      );
      return;
    }
    if (!mounted) {
      post({
        type: 'tabcode:warning',
        warning: { field: message.type, message: 'Post tabcode:config first; this message was ignored.' },
      });
      return;
    }
    void mounted.then((h) => {
      if (!h) return;
      switch (message.type) {
        case 'tabcode:send':
          return h.send(message.prompt);
        case 'tabcode:interrupt':
          return h.interrupt();
        case 'tabcode:play':
          return h.play();
        case 'tabcode:reset':
          return h.reset();
        case 'tabcode:step':
          if (!h.goToStep(message.step))
            post({
              type: 'tabcode:warning',
              warning: { field: 'step', message: `There is no lesson step ${message.step}.` },
            });
          return;
        case 'tabcode:export-replay':
          return post({ type: 'tabcode:replay', replay: h.exportReplay() ?? null });
      }
    });
  };
  win.addEventListener('message', onMessage);
  post({ type: 'tabcode:loaded' });

  return () => {
    win.removeEventListener('message', onMessage);
    element.removeEventListener(EMBED_WARNING_EVENT, onWarning);
    void mounted?.then((h) => h?.unmount());
  };
}
