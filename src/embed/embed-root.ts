/**
 * The playground's own element inside the host's: `<div class="tabcode-root">`, which carries the
 * theme (`data-theme` and CSS custom properties set with `style.setProperty`, never as CSS text), the
 * layout switches as data attributes (embed.css reads them), and the height. Everything tabcode draws
 * lives under it, and the package's CSS is scoped to it, so the host page's own elements, attributes
 * and styles are never touched.
 */
import type { EmbedConfig, EmbedThemeName } from './config.ts';

/** The class of the playground's root element (the package's CSS is scoped to it). */
export const ROOT_CLASS = 'tabcode-root';
/** Height of a playground when the config names none and the host element has none either (px). */
export const DEFAULT_EMBED_HEIGHT_PX = 520;
/** Bounds of `height: 'auto'` (px): the playground grows with the conversation between them. */
export const AUTO_HEIGHT_MIN_PX = 360;
export const AUTO_HEIGHT_MAX_PX = 1200;

/** The scheme of a config theme: `auto` when it names none. */
export function themeScheme(config: EmbedConfig): EmbedThemeName {
  const t = config.theme;
  if (!t) return 'auto';
  return typeof t === 'string' ? t : (t.scheme ?? 'auto');
}

/** How the root is placed in its host element. */
export interface EmbedRootOptions {
  /**
   * The caller sizes `host` itself for `height: 'auto'` (the iframe page: its parent sizes the frame
   * from `tabcode:resize`), so the root fills `host` instead of carrying the height.
   */
  fillHost?: boolean;
}

/** Creates the root inside `host` with the config's theme, layout and height applied. */
export function createEmbedRoot(
  host: HTMLElement,
  config: EmbedConfig,
  options: EmbedRootOptions = {},
): HTMLDivElement {
  const root = host.ownerDocument.createElement('div');
  root.className = ROOT_CLASS;
  root.dataset.testid = 'tabcode-root';
  const scheme = themeScheme(config);
  if (scheme !== 'auto') root.dataset.theme = scheme;
  if (typeof config.theme === 'object') {
    for (const [name, value] of Object.entries(config.theme)) {
      if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value);
    }
  }
  const layout = config.layout ?? {};
  const off = (flag: boolean | undefined, name: string) => {
    if (flag === false) root.dataset[name] = 'off';
  };
  off(layout.header, 'header');
  off(layout.sidePanel, 'side');
  off(layout.terminal, 'terminal');
  off(layout.promptBox, 'prompt');
  if (layout.sessions !== true) root.dataset.sessions = 'off';
  if (layout.compact) root.dataset.compact = '';
  const height = config.height;
  if (height === 'auto') {
    root.dataset.height = 'auto';
    // Filling the host: the frame's height is the one the parent gave it, and the root must use all of
    // it (a fixed 360 px root left most of a grown frame empty).
    root.style.height = options.fillHost ? '100%' : `${AUTO_HEIGHT_MIN_PX}px`;
  } else if (typeof height === 'number') root.style.height = `${height}px`;
  else if (typeof height === 'string') root.style.height = height;
  host.append(root);
  // A host element with no height of its own (and none configured) would leave the workbench 0 px tall.
  if (height === undefined && root.getBoundingClientRect().height < 50)
    root.style.height = `${DEFAULT_EMBED_HEIGHT_PX}px`;
  return root;
}

/**
 * The height that shows the whole conversation without scrolling: the root's height minus the
 * transcript's visible part plus the height of its content, within the auto-height bounds. Undefined
 * before the transcript exists. The content is measured on its own (`.transcript-inner`), not as the
 * transcript's scroll height: that is never less than the visible part, so a playground that had
 * grown (a frame the parent made tall) could never shrink back to a shorter conversation. The result
 * does not depend on the root's current height, so applying it changes nothing on the next
 * measurement (no resize loop).
 */
export function autoHeight(root: HTMLElement): number | undefined {
  const transcript = root.querySelector<HTMLElement>('[data-testid="transcript"], .transcript');
  if (!transcript) return undefined;
  // Layout heights (fractional), not the rounded clientHeight: the same chrome on every measurement.
  const chrome = root.getBoundingClientRect().height - transcript.getBoundingClientRect().height;
  const inner = transcript.querySelector<HTMLElement>('.transcript-inner');
  const content = inner ? inner.getBoundingClientRect().height : transcript.scrollHeight;
  const wanted = Math.ceil(chrome + content);
  return Math.min(AUTO_HEIGHT_MAX_PX, Math.max(AUTO_HEIGHT_MIN_PX, wanted));
}
