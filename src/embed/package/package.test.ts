/**
 * Pure parts of the package: the CSS scoping of the stylesheet (every selector kind the workbench's
 * stylesheets use), and the indentation of files written inside a page.
 */
import { describe, expect, it } from 'vitest';
import { dedent } from './element.ts';
import { scopeCss, scopeSelector } from './scope-css.ts';

const S = '.tabcode-root';

describe('scopeSelector', () => {
  it('turns the page-level rules into the root itself', () => {
    expect(scopeSelector(':root', S)).toEqual([S]);
    expect(scopeSelector(':root[data-theme="dark"]', S)).toEqual(['.tabcode-root[data-theme="dark"]']);
    expect(scopeSelector('html', S)).toEqual([S]);
    expect(scopeSelector('body', S)).toEqual([S]);
    expect(scopeSelector('#root', S)).toEqual([S]);
    expect(scopeSelector('html body .x', S)).toEqual(['.tabcode-root .x']);
    expect(scopeSelector('*', S)).toEqual([S, '.tabcode-root *']);
  });
  it('keeps the page body state and applies inside the root', () => {
    expect(scopeSelector('body.resizing', S)).toEqual(['body.resizing .tabcode-root']);
    expect(scopeSelector('body.resizing iframe', S)).toEqual(['body.resizing .tabcode-root iframe']);
  });
  it('prefixes everything else, and leaves scoped selectors and the element alone', () => {
    expect(scopeSelector('.btn:hover:not(:disabled)', S)).toEqual([
      '.tabcode-root .btn:hover:not(:disabled)',
    ]);
    expect(scopeSelector('[hidden]', S)).toEqual(['.tabcode-root [hidden]']);
    expect(scopeSelector('dialog::backdrop', S)).toEqual(['.tabcode-root dialog::backdrop']);
    expect(scopeSelector('.tabcode-root[data-compact] .x', S)).toEqual(['.tabcode-root[data-compact] .x']);
    expect(scopeSelector('tabcode-playground', S)).toEqual(['tabcode-playground']);
    expect(scopeSelector('.htmlish', S)).toEqual(['.tabcode-root .htmlish']);
    expect(scopeSelector('bodyx', S)).toEqual(['.tabcode-root bodyx']);
  });
  it('as a PostCSS plugin: rewrites rules, not keyframe steps, and is stable when run again', () => {
    const plugin = scopeCss();
    const rule = { selectors: ['html', 'body', '#root'], parent: { type: 'root' } };
    plugin.Rule(rule);
    expect(rule.selectors).toEqual([S]);
    plugin.Rule(rule);
    expect(rule.selectors).toEqual([S]);
    const step = { selectors: ['50%'], parent: { type: 'atrule', name: 'keyframes' } };
    plugin.Rule(step);
    expect(step.selectors).toEqual(['50%']);
  });
});

describe('dedent', () => {
  it('removes the indentation of the page, the blank first and last line, and ends with a newline', () => {
    expect(dedent('\n      const a = 1;\n        if (a) {}\n    ')).toBe('const a = 1;\n  if (a) {}\n');
    expect(dedent('x')).toBe('x\n');
    expect(dedent('\n\n')).toBe('\n');
  });

  it('takes a file of 250,000 lines', () => {
    const text = `\n${Array.from({ length: 250_000 }, (_, i) => `    line ${i}`).join('\n')}\n  `;
    const out = dedent(text).split('\n');
    expect(out[0]).toBe('line 0');
    expect(out[249_999]).toBe('line 249999');
  });
});
