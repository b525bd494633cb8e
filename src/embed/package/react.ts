/**
 * `tabcode/react`: `<Tabcode {...config} />`, a playground as a React component. Its props are the
 * embed config (see EmbedConfig) plus `className`, `style`, `onEvent`, `onReady` and `onWarning`. It
 * uses the host's React (a peer dependency) only for its own element; the playground inside runs its
 * own React root, so any React 18 or 19 host works. A change of config props mounts it again.
 */
import { createElement, type ReactElement, useEffect, useRef } from 'react';
import type { EmbedConfig, EmbedWarning } from '../config.ts';
import { EMBED_WARNING_EVENT, mount } from './index.ts';
import type * as Api from './react-api.ts';

export type { EmbedConfig, EmbedEvent, EmbedHandle, EmbedWarning } from '../config.ts';
export type { TabcodeProps } from './react-api.ts';

export function Tabcode(props: Api.TabcodeProps): ReactElement {
  const { className, style, onEvent, onReady, onWarning, ...config } = props;
  const outer = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  // Props that are the config: the playground mounts again when they change (by value).
  const key = JSON.stringify(config);

  useEffect(() => {
    const container = outer.current;
    if (!container) return;
    // A fresh element per mount, so React's double effects in development never mount twice on one.
    const host = document.createElement('div');
    host.style.height = '100%';
    container.append(host);
    const onWarn = (e: Event) => latest.current.onWarning?.((e as CustomEvent<EmbedWarning>).detail);
    host.addEventListener(EMBED_WARNING_EVENT, onWarn);
    let cancelled = false;
    const started = mount(host, JSON.parse(key) as EmbedConfig);
    started.then(
      (handle) => {
        if (cancelled) return;
        handle.subscribe((event) => latest.current.onEvent?.(event));
        latest.current.onReady?.(handle);
      },
      (err: unknown) => console.error('tabcode: the playground could not start', err),
    );
    return () => {
      cancelled = true;
      host.removeEventListener(EMBED_WARNING_EVENT, onWarn);
      void started
        .then(
          (h) => h.unmount(),
          () => {},
        )
        .finally(() => host.remove());
    };
  }, [key]);

  return createElement('div', { ref: outer, className, style, 'data-tabcode': '' });
}

// The shipped declarations (react-api.ts) describe this implementation.
Tabcode satisfies typeof Api.Tabcode;
