/**
 * Checks of the config fields that decide how the playground looks: `theme`, `layout`, `height`,
 * `autorun`. A value that is not what the field takes is reported and left out; the rest applies.
 * Theme values are checked as CSS: with the browser's own parser (`CSS.supports`) where there is one,
 * else with a strict syntax check. Values are only ever set with `style.setProperty`, never pasted into
 * CSS text, so even a value that passed could not add a rule. Never throws.
 */
import type {
  EmbedAutorun,
  EmbedHeight,
  EmbedLayout,
  EmbedPanel,
  EmbedTheme,
  EmbedThemeName,
  EmbedThemeObject,
} from './config.ts';
import { isObject, kindOf, pathProblem, type Warn } from './validate-shared.ts';

export const THEME_NAMES: readonly EmbedThemeName[] = ['light', 'dark', 'auto'];
export const EMBED_PANELS: readonly EmbedPanel[] = [
  'files',
  'terminal',
  'preview',
  'todos',
  'usage',
  'mcp',
  'rules',
];

/** What a theme variable holds: checked against the CSS property of that kind. */
type VariableKind = 'color' | 'shadow' | 'length' | 'font';
const KIND_PROPERTY: Record<VariableKind, string> = {
  color: 'color',
  shadow: 'box-shadow',
  length: 'border-radius',
  font: 'font-family',
};
const KIND_NOUN: Record<VariableKind, string> = {
  color: 'a CSS colour',
  shadow: 'a CSS box-shadow',
  length: 'a CSS length',
  font: 'a CSS font-family list',
};

/** The workbench's CSS custom properties a theme may set (src/ui/styles/base.css), by kind. */
export const THEME_VARIABLES: Readonly<Record<`--${string}`, VariableKind>> = {
  '--bg': 'color',
  '--bg-elev': 'color',
  '--bg-sunk': 'color',
  '--bg-code': 'color',
  '--fg': 'color',
  '--fg-muted': 'color',
  '--fg-faint': 'color',
  '--border': 'color',
  '--border-strong': 'color',
  '--accent': 'color',
  '--accent-fg': 'color',
  '--accent-soft': 'color',
  '--green': 'color',
  '--green-soft': 'color',
  '--red': 'color',
  '--red-soft': 'color',
  '--yellow': 'color',
  '--yellow-soft': 'color',
  '--blue': 'color',
  '--blue-soft': 'color',
  '--purple': 'color',
  '--user-bg': 'color',
  '--term-bg': 'color',
  '--term-fg': 'color',
  '--shadow': 'shadow',
  '--radius': 'length',
  '--radius-small': 'length',
  '--font': 'font',
  '--mono': 'font',
};

/** Longest theme value accepted (characters). */
export const MAX_THEME_VALUE_CHARS = 300;
/** Smallest and largest fixed height (px). */
export const MIN_EMBED_HEIGHT_PX = 160;
export const MAX_EMBED_HEIGHT_PX = 10_000;

/** CSS lengths a height may be written in. */
const LENGTH = /^(\d+(?:\.\d+)?)(px|em|rem|vh|svh|lvh|dvh|%)$/;

/** Why `value` is not CSS of `kind`, or null. Uses the browser's parser where there is one. */
export function cssValueProblem(value: unknown, kind: VariableKind): string | null {
  if (typeof value !== 'string') return `must be ${KIND_NOUN[kind]} as text (got ${kindOf(value)})`;
  const v = value.trim();
  if (!v) return 'is empty';
  if (v.length > MAX_THEME_VALUE_CHARS) return `is longer than ${MAX_THEME_VALUE_CHARS} characters`;
  // Never anything that could end the declaration, open a rule, or load a resource.
  if (/[;{}<>\\@]|\/\*|url\s*\(|image\s*\(|expression\s*\(/i.test(v))
    return `is not ${KIND_NOUN[kind]} (no ; { } < > \\ @, comments, url() or image())`;
  if (!balanced(v)) return `is not ${KIND_NOUN[kind]} (unbalanced parentheses or quotes)`;
  const css = (globalThis as { CSS?: { supports?: (p: string, v: string) => boolean } }).CSS;
  if (typeof css?.supports === 'function') {
    return css.supports(KIND_PROPERTY[kind], v) ? null : `is not ${KIND_NOUN[kind]}`;
  }
  return syntaxOk(v, kind) ? null : `is not ${KIND_NOUN[kind]}`;
}

function balanced(v: string): boolean {
  let depth = 0;
  let quote = '';
  for (const ch of v) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0 && !quote;
}

/** Without a CSS parser (Node): a conservative check of the value's shape. */
function syntaxOk(v: string, kind: VariableKind): boolean {
  const fn = '[a-z-]+\\([#a-z0-9.,%\\s/+-]*(?:\\([#a-z0-9.,%\\s/+-]*\\)[#a-z0-9.,%\\s/+-]*)*\\)';
  const color = `(?:#[0-9a-f]{3,8}|[a-z]+|${fn})`;
  const length = `(?:0|-?\\d*\\.?\\d+(?:px|em|rem|%|vh|vw)|${fn})`;
  switch (kind) {
    case 'color':
      return new RegExp(`^${color}$`, 'i').test(v);
    case 'length':
      return new RegExp(`^${length}(?:\\s+${length}){0,3}$`, 'i').test(v);
    case 'shadow':
      return v === 'none' || new RegExp(`^(?:(?:inset|${length}|${color})\\s*,?\\s*)+$`, 'i').test(v);
    case 'font':
      return /^(?:(?:"[^"]+"|'[^']+'|[a-z][a-z0-9 -]*)\s*,\s*)*(?:"[^"]+"|'[^']+'|[a-z][a-z0-9 -]*)$/i.test(
        v,
      );
  }
}

export function checkTheme(value: unknown, warn: Warn): EmbedTheme | undefined {
  if (typeof value === 'string') {
    if ((THEME_NAMES as readonly string[]).includes(value)) return value as EmbedThemeName;
    warn('theme', `theme must be ${THEME_NAMES.join(', ')} or an object of CSS custom properties.`);
    return undefined;
  }
  if (!isObject(value)) {
    warn('theme', `theme must be a name or an object of CSS custom properties (got ${kindOf(value)}).`);
    return undefined;
  }
  const theme: EmbedThemeObject = {};
  for (const [key, v] of Object.entries(value)) {
    const field = `theme[${JSON.stringify(key)}]`;
    if (key === 'scheme') {
      if ((THEME_NAMES as readonly unknown[]).includes(v)) theme.scheme = v as EmbedThemeName;
      else warn(field, `scheme must be one of ${THEME_NAMES.join(', ')}.`);
      continue;
    }
    const kind = THEME_VARIABLES[key as `--${string}`];
    if (!kind) {
      warn(
        field,
        key.startsWith('--')
          ? `${key} is not a theme variable; the variables are ${Object.keys(THEME_VARIABLES).join(', ')}.`
          : `Unknown theme field "${key}": a theme has a scheme and CSS custom properties (--name).`,
      );
      continue;
    }
    const problem = cssValueProblem(v, kind);
    if (problem) warn(field, `${JSON.stringify(String(v).slice(0, 80))} ${problem}; the default applies.`);
    else theme[key as `--${string}`] = (v as string).trim();
  }
  return theme;
}

const LAYOUT_FLAGS = ['header', 'sessions', 'sidePanel', 'terminal', 'promptBox', 'compact'] as const;

export function checkLayout(value: unknown, warn: Warn): EmbedLayout | undefined {
  if (!isObject(value)) {
    warn('layout', `layout must be an object (got ${kindOf(value)}).`);
    return undefined;
  }
  const layout: EmbedLayout = {};
  for (const [key, v] of Object.entries(value)) {
    const field = `layout.${key}`;
    if ((LAYOUT_FLAGS as readonly string[]).includes(key)) {
      if (typeof v === 'boolean') layout[key as (typeof LAYOUT_FLAGS)[number]] = v;
      else warn(field, `${key} must be true or false (got ${kindOf(v)}).`);
    } else if (key === 'panel') {
      if ((EMBED_PANELS as readonly unknown[]).includes(v)) layout.panel = v as EmbedPanel;
      else warn(field, `panel must be one of ${EMBED_PANELS.join(', ')}.`);
    } else if (key === 'file') {
      const problem = typeof v === 'string' ? pathProblem(v) : `A path must be text (got ${kindOf(v)}).`;
      if (problem) warn(field, problem);
      else layout.file = (v as string).replace(/^\.\//, '');
    } else warn(field, `Unknown layout field "${key}", ignored.`);
  }
  if (layout.sidePanel === false && layout.panel)
    warn('layout.panel', 'The side panel is off (layout.sidePanel: false): panel has no effect.');
  if (layout.terminal === false && layout.panel === 'terminal') {
    warn('layout.panel', 'The terminal is off (layout.terminal: false); the Files panel opens instead.');
    delete layout.panel;
  }
  return layout;
}

export function checkHeight(value: unknown, warn: Warn): EmbedHeight | undefined {
  const range = `from ${MIN_EMBED_HEIGHT_PX} to ${MAX_EMBED_HEIGHT_PX}`;
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= MIN_EMBED_HEIGHT_PX && value <= MAX_EMBED_HEIGHT_PX) return value;
    warn('height', `A height in pixels must be ${range} (got ${value}).`);
    return undefined;
  }
  if (typeof value === 'string') {
    const v = value.trim();
    if (v === 'auto') return v;
    const m = LENGTH.exec(v);
    if (m && (m[2] !== 'px' || (Number(m[1]) >= MIN_EMBED_HEIGHT_PX && Number(m[1]) <= MAX_EMBED_HEIGHT_PX)))
      return v;
    warn(
      'height',
      `height must be "auto", a number of pixels or a CSS length like "480px" or "70vh" (got ${JSON.stringify(v.slice(0, 40))}).`,
    );
    return undefined;
  }
  warn('height', `height must be "auto", a number or a CSS length (got ${kindOf(value)}).`);
  return undefined;
}

export function checkAutorun(value: unknown, warn: Warn): EmbedAutorun | undefined {
  if (typeof value === 'boolean' || value === 'load' || value === 'visible') return value;
  warn('autorun', 'autorun must be true, false, "load" or "visible".');
  return undefined;
}
