/**
 * How a command's output folds on its card, rendered with react-dom/server: a foreground command's to its
 * start; a background command's to its end (a collapsed card of a command that runs on showed its first
 * 40 lines and nothing new after them).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ResultView } from './ToolViews.tsx';

const output = `${Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n')}\n`;
const shown = (backgroundId?: string) =>
  renderToStaticMarkup(
    createElement(ResultView, {
      view: {
        kind: 'terminal',
        stdout: output,
        stderr: '',
        exitCode: 0,
        ...(backgroundId ? { backgroundId, running: true } : {}),
      },
    }),
  );

describe('terminal output folds', () => {
  it('a foreground command to its first lines', () => {
    const html = shown();
    expect(html).toContain('row 1\n');
    expect(html).not.toContain('row 60');
    expect(html).toContain('Show all 60 lines');
  });

  it('a background command to its latest lines', () => {
    const html = shown('bg-1-abcd');
    expect(html).toContain('row 60');
    expect(html).toContain('row 49');
    expect(html).not.toContain('row 48\n');
    expect(html).not.toContain('>row 1\n');
    expect(html).toContain('Show all 60 lines');
  });
});
