/**
 * The empty state, rendered with react-dom/server: the stand-alone page teaches its demo project and
 * the developer's ways to connect; an embedded playground (EmbedEmptyContext) names its own files and
 * its real state (a recording, the host's proxy, a key or none) and never the stand-alone page's
 * project or commands.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EMBED_FILES_LISTED, EmbedEmptyContext, type EmbedEmptyInfo, EmptyState } from './EmptyState.tsx';

const noop = () => {};

function render(connected: boolean, info?: EmbedEmptyInfo): string {
  const state = createElement(EmptyState, {
    connected,
    onPick: noop,
    onOpenSettings: noop,
    onOpenFile: noop,
  });
  const html = renderToStaticMarkup(
    info ? createElement(EmbedEmptyContext.Provider, { value: info }, state) : state,
  );
  // Text only, entities decoded, for readable assertions.
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

function modeOf(connected: boolean, info: EmbedEmptyInfo): string | undefined {
  const html = renderToStaticMarkup(
    createElement(
      EmbedEmptyContext.Provider,
      { value: info },
      createElement(EmptyState, { connected, onPick: noop, onOpenSettings: noop, onOpenFile: noop }),
    ),
  );
  return /data-mode="([^"]+)"/.exec(html)?.[1];
}

const base: EmbedEmptyInfo = {
  files: ['data/sales.csv'],
  replay: true,
  autorun: false,
  filesPanel: true,
  promptBox: true,
};

/** What the stand-alone page says that an embed must never say. */
const STANDALONE_ONLY = [
  /weather-notes/,
  /npm run/,
  /ANTHROPIC_API_KEY/,
  /saved in this browser/,
  /Remember/,
];

describe('EmptyState', () => {
  it('stand-alone: the demo project, the developer ways to connect', () => {
    const text = render(false);
    expect(text).toContain('weather-notes');
    expect(text).toContain('npm run dev');
    expect(text).toContain('Add your Anthropic API key');
    expect(render(true)).toContain('Connected: a key is set.');
  });

  it('embed with a recording: its own files, "no key", Play; nothing of the stand-alone page', () => {
    // `connected` is true in a replay (App counts it keyless), yet no key is claimed.
    const text = render(true, base);
    expect(modeOf(true, base)).toBe('replay');
    expect(text).toContain('A recorded session: no key, no network.');
    expect(text).toContain('Press ▶ Play');
    expect(text).toContain('The project: 1 file');
    expect(text).toContain('data/sales.csv');
    expect(text).not.toContain('key is set');
    // A recording takes no typed prompt: no example to send.
    expect(text).not.toContain('Ask for something');
    for (const words of STANDALONE_ONLY) expect(text).not.toMatch(words);
    expect(render(true, { ...base, autorun: true })).toContain('It plays on its own.');
  });

  it("embed live: the host's proxy, a key set in Settings, or no key (the button to add one)", () => {
    const proxy = { ...base, replay: false, proxy: 'https://docs.example/api/claude' };
    expect(modeOf(true, proxy)).toBe('proxy');
    expect(render(true, proxy)).toContain('Live, through https://docs.example.');

    const live = { ...base, replay: false };
    expect(modeOf(true, live)).toBe('key');
    expect(render(true, live)).toContain('Live: a key is set.');
    expect(modeOf(false, live)).toBe('no-key');
    const noKey = render(false, live);
    expect(noKey).toContain('Add an Anthropic API key to run it live.');
    expect(noKey).toContain('Add API key');
    expect(noKey).toContain("kept in this page's memory only");
    expect(noKey).toContain('Ask for something');
    for (const text of [render(true, proxy), render(true, live), noKey])
      for (const words of STANDALONE_ONLY) expect(text).not.toMatch(words);
  });

  it('embed files: loading, empty, the demo project when the config gives none, many counted', () => {
    expect(render(false, { ...base, files: undefined })).toContain('The project is loading');
    expect(render(false, { ...base, files: [] })).toContain('The project starts empty.');
    // With no files of its own the sandbox really holds the demo project: then it is named.
    const demo = render(false, { ...base, files: 'demo' });
    expect(demo).toContain('weather-notes');
    expect(demo).toContain('src/stats.js');
    expect(demo).not.toContain('npm run');
    const many = Array.from({ length: EMBED_FILES_LISTED + 3 }, (_, i) => `f${i}.txt`);
    const text = render(false, { ...base, files: many });
    expect(text).toContain(`The project: ${many.length} files`);
    expect(text).toContain(`f${EMBED_FILES_LISTED - 1}.txt`);
    expect(text).not.toContain(`f${EMBED_FILES_LISTED}.txt`);
    expect(text).toContain('and 3 more');
    // No side panel: the names are listed, with no Files panel to point to.
    expect(render(false, { ...base, filesPanel: false })).not.toContain('Files panel');
  });
});
