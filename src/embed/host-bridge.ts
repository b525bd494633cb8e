/**
 * The iframe side of the protocol (protocol.ts): listens to the parent window only, and only to a parent
 * whose origin is allowed (the build's TABCODE_EMBED_ALLOWED_ORIGINS, narrowed by the config's
 * `allowedOrigins`); mounts on the first `tabcode:config`, then forwards warnings, readiness and session
 * events to the parent. A message from a parent that is not allowed is ignored and reported once in the
 * console. Messages go to any origin while every origin is allowed (a docs site may live anywhere), so
 * nothing secret is ever posted: events carry only the safe fields of protocol.ts. With a list, they go
 * only to the origin whose config was applied.
 */

import { messageOf } from '../core/errors.ts';
import type { EmbedConfig } from './config.ts';
import { EMBED_WARNING_EVENT, type EmbedHandle, mount } from './mount.ts';
import {
  ANY_ORIGIN,
  checkHostMessage,
  type EmbedMessage,
  narrowOrigins,
  type OriginList,
  originAllowed,
  parseOriginList,
} from './protocol.ts';

/**
 * The parent origins this build lets drive the iframe. It is baked into the bundle at build time
 * (vite.config.ts defines it from TABCODE_EMBED_ALLOWED_ORIGINS), so no page that frames the embed can
 * change it: the parent itself sends the config, and the iframe's URL is the parent's to write too.
 */
export const BUILD_ALLOWED_ORIGINS: OriginList = parseOriginList(
  import.meta.env.TABCODE_EMBED_ALLOWED_ORIGINS as string | undefined,
);
/** Refused messages the host hears about; after that, one last warning and silence (a flood gets no flood back). */
export const MAX_HOST_WARNINGS = 50;
/** Prompts from the host waiting or running at once; more are refused (10,000 posted prompts queue no turns). */
export const MAX_PENDING_HOST_PROMPTS = 4;

export interface HostBridgeOptions {
  /** The parent origins allowed (default: the build's list). */
  allowedOrigins?: OriginList;
}

/** Starts listening; returns the function that stops (and unmounts). Never throws on any message. */
export function connectToHost(
  element: HTMLElement,
  win: Window = window,
  options: HostBridgeOptions = {},
): () => void {
  let allowed = options.allowedOrigins ?? BUILD_ALLOWED_ORIGINS;
  // Where replies go: anywhere while any origin may drive the iframe, else the origin being answered.
  let target = '*';
  const post = (message: EmbedMessage, to = target) => win.parent.postMessage(message, to);
  let mounted: Promise<EmbedHandle | undefined> | undefined;
  let warningsLeft = MAX_HOST_WARNINGS;
  let pendingPrompts = 0;
  const reported = new Set<string>();

  const warn = (field: string, message: string, to = target) => {
    if (warningsLeft <= 0) return;
    warningsLeft -= 1;
    post(
      warningsLeft > 0
        ? { type: 'tabcode:warning', warning: { field, message } }
        : {
            type: 'tabcode:warning',
            warning: {
              field: 'messages',
              message: `${MAX_HOST_WARNINGS} messages were refused; further refused messages get no reply.`,
            },
          },
      to,
    );
  };

  const onWarning = (e: Event) => {
    const warning = (e as CustomEvent).detail;
    post({
      type: 'tabcode:warning',
      warning: { field: String(warning.field), message: String(warning.message) },
    });
  };
  element.addEventListener(EMBED_WARNING_EVENT, onWarning);

  const applyConfig = (raw: object, origin: string) => {
    const reply = allowed === ANY_ORIGIN ? '*' : origin;
    if (mounted) {
      warn('config', 'A config was already applied; reload the iframe to change it.', reply);
      return;
    }
    const { allowedOrigins, ...config } = raw as Record<string, unknown>;
    const narrowed = narrowOrigins(allowed, allowedOrigins);
    if ('error' in narrowed) return post({ type: 'tabcode:error', message: narrowed.error }, origin);
    if (!originAllowed(narrowed.allowed, origin))
      return post(
        {
          type: 'tabcode:error',
          message: `This page's origin (${origin}) is not in the config's allowedOrigins; the config was refused.`,
        },
        origin,
      );
    allowed = narrowed.allowed;
    target = allowed === ANY_ORIGIN ? '*' : origin;
    mounted = mount(element, config as EmbedConfig, {
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
  };

  const onMessage = (event: MessageEvent) => {
    // Only the parent (not another window, a child frame or this page itself) drives the embed.
    if (event.source !== win.parent || win.parent === win) return;
    if (!originAllowed(allowed, event.origin)) {
      if (!reported.has(event.origin)) {
        reported.add(event.origin);
        console.warn(
          `tabcode embed: messages from ${event.origin} are ignored; it is not an allowed parent origin (TABCODE_EMBED_ALLOWED_ORIGINS, allowedOrigins).`,
        );
      }
      return;
    }
    const reply = allowed === ANY_ORIGIN ? '*' : event.origin;
    const checked = checkHostMessage(event.data);
    if ('ignore' in checked) return;
    if ('warning' in checked) return warn(checked.warning.field, checked.warning.message, reply);
    const message = checked.message;
    if (message.type === 'tabcode:config') return applyConfig(message.config as object, event.origin);
    if (!mounted) return warn(message.type, 'Post tabcode:config first; this message was ignored.', reply);
    if (message.type === 'tabcode:send') {
      if (pendingPrompts >= MAX_PENDING_HOST_PROMPTS)
        return warn(
          'prompt',
          `${MAX_PENDING_HOST_PROMPTS} prompts are already waiting; send the next after a run-end event. Ignored.`,
        );
      pendingPrompts += 1;
    }
    void mounted.then(async (h) => {
      if (!h) {
        if (message.type === 'tabcode:send') pendingPrompts -= 1;
        return;
      }
      switch (message.type) {
        case 'tabcode:send':
          try {
            await h.send(message.prompt);
          } finally {
            pendingPrompts -= 1;
          }
          return;
        case 'tabcode:interrupt':
          return h.interrupt();
        case 'tabcode:play':
          return h.play();
        case 'tabcode:reset':
          return h.reset();
        case 'tabcode:step':
          if (!h.goToStep(message.step)) warn('step', `There is no lesson step ${message.step}.`);
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
