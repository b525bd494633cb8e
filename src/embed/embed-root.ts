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

/** Creates the root inside `host` with the config's theme, layout and height applied. */
export function createEmbedRoot(host: HTMLElement, config: EmbedConfig): HTMLDivElement {
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
    root.style.height = `${AUTO_HEIGHT_MIN_PX}px`;
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
 * transcript's visible part plus all of its content, within the auto-height bounds. Undefined before
 * the transcript exists.
 */
export function autoHeight(root: HTMLElement): number | undefined {
  const transcript = root.querySelector<HTMLElement>('[data-testid="transcript"], .transcript');
  if (!transcript) return undefined;
  const chrome = root.getBoundingClientRect().height - transcript.clientHeight;
  const wanted = Math.ceil(chrome + transcript.scrollHeight);
  return Math.min(AUTO_HEIGHT_MAX_PX, Math.max(AUTO_HEIGHT_MIN_PX, wanted));
}
