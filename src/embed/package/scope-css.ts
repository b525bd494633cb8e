/**
 * The package's CSS is scoped to the playground's root: a PostCSS plugin (used by vite.lib.config.ts)
 * rewrites every selector of the workbench's stylesheets so that it only matches inside
 * `.tabcode-root`. `:root`, `html`, `body` and `#root` (the page-level rules of the stand-alone page)
 * become the root itself; `body.x` keeps its condition on the page's body and applies inside the root.
 * Selectors already starting at the root, and the package's own element, are kept. Keyframes are left
 * alone. The iframe page's build is not rewritten (it is a page of its own).
 */

/** The part of PostCSS's Rule node this plugin reads and writes. */
interface RuleLike {
  selectors: string[];
  parent?: { type?: string; name?: string } & Record<string, unknown>;
}

const PAGE_LEVEL = /^(?::root|html|body|#root)(?![\w-])/;

/** One selector (no commas) scoped under `scope`. */
export function scopeSelector(selector: string, scope: string): string[] {
  const s = selector.trim();
  if (s.startsWith(scope) || s.startsWith('tabcode-playground')) return [s];
  if (s === '*') return [scope, `${scope} *`];
  if (/^body[.[:]/.test(s)) {
    // `body.resizing iframe` → `body.resizing .tabcode-root iframe`: the page's state, our elements.
    const m = /^body((?:[.[:][^\s>+~]*)+)(.*)$/.exec(s);
    if (m) return [`body${m[1]} ${scope}${m[2] ? ` ${m[2].trim()}` : ''}`];
  }
  const page = PAGE_LEVEL.exec(s);
  if (page) {
    const rest = s.slice(page[0].length);
    // `:root[data-theme="dark"]` → `.tabcode-root[data-theme="dark"]`; `html body x` → `.tabcode-root x`.
    const descendant = rest.replace(/^\s+(?:(?:html|body|#root)(?![\w-])\s*)*/, ' ').trimEnd();
    return [`${scope}${descendant.startsWith(' ') ? descendant : rest}`];
  }
  return [`${scope} ${s}`];
}

/** The PostCSS plugin (a plain object: Vite's `css.postcss.plugins` takes it as is). */
export function scopeCss(scope = '.tabcode-root') {
  return {
    postcssPlugin: 'tabcode-scope-css',
    Rule(rule: RuleLike) {
      const parent = rule.parent;
      if (parent?.type === 'atrule' && /keyframes$/i.test(String(parent.name ?? ''))) return;
      const next = rule.selectors.flatMap((sel) => scopeSelector(sel, scope));
      if (next.join() !== rule.selectors.join()) rule.selectors = [...new Set(next)];
    },
  };
}
scopeCss.postcss = true;
