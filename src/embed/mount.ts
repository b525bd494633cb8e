/**
 * The embed API: `mount(element, config)` renders a tabcode playground into a host's element with the
 * config applied, and hands back a handle to drive it. The playground paints at once with a usable
 * prompt box; the agent (SDK, tools) and the sandbox load right after, the terminal, the highlighter
 * and MCP connections only when first used. It keeps nothing across loads (sessions, settings and the
 * project live in memory), writes nothing to the host page's storage, and two playgrounds on one page
 * share nothing (each has its own controller, workbench, agent and sandbox).
 *
 * Keys never come from the config: a host plays a replay (`config.replay` or the older `config.demo`:
 * no key, no network) or points `baseURL` at a proxy that adds the key. A bad config field is reported
 * (console.warn, an `embed-warning` DOM event on `element`, a notice in the page) and ignored.
 */
// First: the embed's storage namespace, before any module below can open storage.
import './storage-scope.ts';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { AgentSettings } from '../agent/types.ts';
import { PLACEHOLDER_SETTINGS } from '../ui/agent-module.ts';
import type { EmbedConfig, EmbedEvent, EmbedHandle, EmbedWarning, MountOptions } from './config.ts';
import { createEmbedController } from './embed-controller.ts';
import { createEmbedRoot } from './embed-root.ts';
import { EmbedShell } from './embed-shell.tsx';
import { toEmbedEvent } from './protocol.ts';
import { validateEmbedConfig } from './validate-config.ts';
import '../ui/styles/base.css';
import '../ui/styles/layout.css';
import '../ui/styles/chat.css';
import '../ui/styles/markdown.css';
import '../ui/styles/highlight.css';
import '../ui/styles/tools.css';
import '../ui/styles/panels.css';
import '../ui/styles/side-tabs.css';
import '../ui/styles/sessions.css';
import '../ui/styles/dialog.css';
import './embed.css';

export type {
  EmbedConfig,
  EmbedEvent,
  EmbedHandle,
  EmbedHook,
  EmbedHookInput,
  EmbedHookOutput,
  EmbedReplay,
  EmbedWarning,
  MountOptions,
  ReplayCheck,
} from './config.ts';

/** The DOM event dispatched on the mount element for each refused config field (`detail`: EmbedWarning). */
export const EMBED_WARNING_EVENT = 'embed-warning';

/** Playgrounds mounted, by host element: a second mount() on one element gets the first's handle. */
const mounted = new WeakMap<HTMLElement, Mounted>();

interface Mounted {
  handle: Promise<EmbedHandle>;
  /** Shows a warning in the playground (once its controller exists). */
  notice?: (warning: EmbedWarning) => void;
}

function report(element: HTMLElement, warning: EmbedWarning) {
  console.warn(`tabcode: embed config: ${warning.field}: ${warning.message}`);
  element.dispatchEvent(new CustomEvent(EMBED_WARNING_EVENT, { detail: warning, bubbles: true }));
}

/**
 * Renders a playground into `element` with `config` applied; resolves once its agent is up (its
 * sandbox has the config's files) and `send` works. `config` is checked as untrusted input. Mounting
 * again on the same element (before unmount) is refused with a warning and resolves with the first
 * playground's handle. Rejects only for an element that is not an element, or an agent that cannot
 * start at all (the page then shows why).
 */
export function mount(
  element: HTMLElement,
  config?: EmbedConfig,
  options: MountOptions = {},
): Promise<EmbedHandle> {
  if (typeof HTMLElement === 'undefined' || !(element instanceof HTMLElement))
    return Promise.reject(
      new TypeError('tabcode: mount(element, config) needs a DOM element to render into.'),
    );
  const existing = mounted.get(element);
  if (existing) {
    const warning = {
      field: 'mount',
      message:
        'tabcode is already mounted on this element: the second mount() is ignored (call unmount() first).',
    };
    if (existing.notice) existing.notice(warning);
    else report(element, warning);
    return existing.handle;
  }
  const entry: Mounted = { handle: Promise.resolve() as unknown as Promise<EmbedHandle> };
  entry.handle = start(element, config, options, (notice) => {
    entry.notice = notice;
  });
  mounted.set(element, entry);
  entry.handle.catch(() => mounted.delete(element));
  return entry.handle;
}

async function start(
  element: HTMLElement,
  config: EmbedConfig | undefined,
  options: MountOptions,
  registerNotice: (notice: (warning: EmbedWarning) => void) => void,
): Promise<EmbedHandle> {
  const { config: cfg, warnings } = validateEmbedConfig(config);
  for (const warning of warnings) report(element, warning);
  const initialSettings: AgentSettings = {
    ...PLACEHOLDER_SETTINGS,
    ...(cfg.baseURL ? { baseURL: cfg.baseURL } : {}),
    ...(cfg.model ? { model: cfg.model } : {}),
    ...(cfg.maxTokens ? { maxTokens: cfg.maxTokens } : {}),
    ...(cfg.permissionMode ? { permissionMode: cfg.permissionMode } : {}),
    ...(cfg.toolSearchEncoder === false ? { toolSearchEncoder: false } : {}),
  };
  const root = createEmbedRoot(element, cfg, { fillHost: Boolean(options.onAutoHeight) });
  const themeRoot = options.documentTheme ? element.ownerDocument.documentElement : root;
  if (themeRoot !== root && root.dataset.theme) themeRoot.dataset.theme = root.dataset.theme;
  const controller = createEmbedController({
    config: cfg,
    warn: (w) => report(element, w),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  registerNotice(controller.notice);
  const listeners = new Set<(event: EmbedEvent) => void>();
  const forward = (event: EmbedEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        console.error('tabcode: an embed listener threw', err);
      }
    }
  };
  controller.onEvent(forward);
  // Session events of whichever scene is current.
  let sessionOff: (() => void) | undefined;
  let current: unknown;
  const offState = controller.subscribe(() => {
    const { agent } = controller.getState();
    if (agent === current) return;
    current = agent;
    sessionOff?.();
    sessionOff = agent?.subscribe((e) => {
      const event = toEmbedEvent(e);
      if (event) forward(event);
    });
  });

  let visibility: IntersectionObserver | undefined;
  if (cfg.autorun === 'visible' && typeof IntersectionObserver !== 'undefined') {
    visibility = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        controller.setVisible(true);
        visibility?.disconnect();
      }
    });
    visibility.observe(root);
  } else controller.setVisible(true);

  const onAutoHeight =
    cfg.height === 'auto'
      ? (options.onAutoHeight ??
        ((height: number) => {
          root.style.height = `${height}px`;
        }))
      : undefined;
  const reactRoot = createRoot(root);
  // A session that cannot start shows its error in the page; mount rejects too.
  let bootFailed: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    bootFailed = reject;
  });
  const guarded = {
    ...controller,
    createSession: (o: Parameters<typeof controller.createSession>[0]) =>
      controller.createSession(o).catch((err: unknown) => {
        if (!(err instanceof Error && err.message === 'This playground scene was replaced.')) bootFailed(err);
        throw err;
      }),
  };
  reactRoot.render(
    createElement(EmbedShell, {
      controller: guarded,
      config: cfg,
      warnings,
      initialSettings,
      root,
      themeRoot,
      onAutoHeight,
    }),
  );
  const first = await Promise.race([controller.ready, failed]).catch((err: unknown) => {
    // The page keeps showing why (its boot error banner); the element stays the host's to reuse.
    mounted.delete(element);
    throw err;
  });

  let unmounted: Promise<void> | undefined;
  return {
    warnings: [...warnings, ...controller.getState().notices],
    sandbox: first.sandbox.info().kind,
    async send(prompt) {
      if (unmounted || typeof prompt !== 'string') return;
      await controller.send(prompt);
    },
    interrupt: () => controller.interrupt(),
    play: async () => {
      if (!unmounted) await controller.play();
    },
    reset: () => {
      if (!unmounted) controller.reset();
    },
    goToStep: (index) => !unmounted && controller.goToStep(index),
    showSolution: async () => {
      if (!unmounted) await controller.showSolution();
    },
    exportReplay: () => controller.exportReplay(),
    replayChecks: () => controller.getState().checks,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    unmount() {
      unmounted ??= (async () => {
        visibility?.disconnect();
        offState();
        sessionOff?.();
        listeners.clear();
        controller.interrupt();
        controller.dispose();
        // The workbench disposes its agent (sandbox included) as it unmounts.
        reactRoot.unmount();
        root.remove();
        mounted.delete(element);
      })().catch((err: unknown) => console.error('tabcode: unmount failed', err));
      return unmounted;
    },
  };
}
