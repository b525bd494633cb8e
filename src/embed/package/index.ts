/**
 * The `tabcode` package: `mount(element, config)`, the `<tabcode-playground>` element (defined on
 * import, unless the page already has one by that name), and the config and event types. The React
 * component is `tabcode/react`; the stylesheet `tabcode/style.css` (added by the first playground when
 * the page has not loaded it).
 */
// First: the embed's storage namespace, before any module below can open storage.
import '../storage-scope.ts';
// Before the workbench's styles: the reset of the host's element rules comes first in tabcode.css.
import './reset.css';
import {
  EMBED_WARNING_EVENT,
  type EmbedHandle,
  type MountOptions,
  mount as mountPlayground,
} from '../mount.ts';
import type * as Api from './api.ts';
import { createPlaygroundElement, ELEMENT_NAME } from './element.ts';
import { ensureStyles, STYLESHEET_FILE } from './styles.ts';

export type * from '../config.ts';
export { REPLAY_FORMAT, REPLAY_VERSION } from '../config.ts';
export type { EmbedHandle, MountOptions } from '../mount.ts';
export { EMBED_WARNING_EVENT } from '../mount.ts';
export type { EmbedEvent, EmbedMessage, HostMessage } from '../protocol.ts';
export type { ReplayCheck } from '../replay-player.ts';
export { ELEMENT_NAME } from './element.ts';

/**
 * The stylesheet beside this script (a page or a bundler may load it itself instead). Through a
 * variable: the bundler must not take `new URL(…, import.meta.url)` for a file of the source tree.
 */
const here = import.meta.url;
const STYLESHEET_URL = new URL(STYLESHEET_FILE, here).href;

/**
 * Renders a playground into `element` (give it a height, or set `height` in the config). Resolves with
 * its handle once the agent is up. See EmbedConfig for every field; a bad field is reported, not fatal.
 */
export async function mount(
  element: HTMLElement,
  config?: import('../config.ts').EmbedConfig,
  options?: MountOptions,
): Promise<EmbedHandle> {
  if (typeof document !== 'undefined') await ensureStyles(document, STYLESHEET_URL);
  return mountPlayground(element, config, options);
}

/** The `<tabcode-playground>` element's class. */
export const TabcodePlaygroundElement: CustomElementConstructor | undefined =
  typeof HTMLElement === 'undefined' ? undefined : createPlaygroundElement(mount);

if (TabcodePlaygroundElement && typeof customElements !== 'undefined' && !customElements.get(ELEMENT_NAME)) {
  customElements.define(ELEMENT_NAME, TabcodePlaygroundElement);
}

// The shipped declarations (api.ts) describe these exports.
mount satisfies typeof Api.mount;
EMBED_WARNING_EVENT satisfies typeof Api.EMBED_WARNING_EVENT;
ELEMENT_NAME satisfies typeof Api.ELEMENT_NAME;
