/**
 * The declarations the `tabcode` package ships for its main entry (types only: `tsc -p
 * tsconfig.lib.json` emits them with config.ts, which imports nothing). index.ts checks at compile time
 * that its exports match these. Imports use `.js` so the emitted declarations resolve as they are.
 */
import type { EmbedConfig, EmbedHandle, MountOptions } from '../config.js';

export type * from '../config.js';
export { REPLAY_FORMAT, REPLAY_VERSION } from '../config.js';

/** The DOM event dispatched on the mount element for each refused config field (`detail`: EmbedWarning). */
export declare const EMBED_WARNING_EVENT: 'embed-warning';
/** The custom element's tag name. */
export declare const ELEMENT_NAME: 'tabcode-playground';

/**
 * Renders a playground into `element` (give it a height, or set `height` in the config). Resolves with
 * its handle once the agent is up. A bad config field is reported (console, an `embed-warning` event on
 * the element, a notice in the playground) and ignored. Mounting twice on one element is refused with
 * a warning and resolves with the first playground's handle.
 */
export declare function mount(
  element: HTMLElement,
  config?: EmbedConfig,
  options?: MountOptions,
): Promise<EmbedHandle>;

/** `<tabcode-playground>`: attributes for the common fields, the `config` property for the rest. */
export interface TabcodePlaygroundElement extends HTMLElement {
  config: EmbedConfig | undefined;
  /** Resolves with the handle once the agent is up. */
  readonly ready: Promise<EmbedHandle>;
  send(prompt: string): Promise<void> | undefined;
  play(): Promise<void> | undefined;
  reset(): void;
  interrupt(): void;
}

/** The element's class (undefined where there is no DOM); defined as `tabcode-playground` on import. */
export declare const TabcodePlaygroundElement:
  | { new (): TabcodePlaygroundElement; prototype: TabcodePlaygroundElement }
  | undefined;

declare global {
  interface HTMLElementTagNameMap {
    'tabcode-playground': TabcodePlaygroundElement;
  }
}
