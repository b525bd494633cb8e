/**
 * The config fields of a docs playground: theme (names, CSS custom properties checked as CSS), layout,
 * height, autorun, readOnly, resetLabel, dependencies, lessons, replay, and the bad input of the issue
 * (a 20 MB file, `..` paths, a theme value that is not CSS, a config whose properties throw).
 */
import { describe, expect, it } from 'vitest';
import { validateEmbedConfig } from './validate-config.ts';
import { cssValueProblem } from './validate-look.ts';
import { MAX_EMBED_FILE_CHARS } from './validate-shared.ts';

const check = (raw: unknown) => validateEmbedConfig(raw);
const fields = (raw: unknown) => check(raw).warnings.map((w) => w.field);

describe('docs playground fields', () => {
  it('accepts a complete docs config as is', () => {
    const raw = {
      theme: {
        scheme: 'dark',
        '--accent': '#0a7',
        '--radius': '4px',
        '--font': '"Inter", system-ui, sans-serif',
      },
      layout: {
        header: false,
        sessions: false,
        terminal: false,
        panel: 'files',
        file: 'src/index.js',
        compact: true,
      },
      height: 'auto',
      autorun: 'visible',
      prompt: 'Explain src/index.js',
      readOnly: ['README.md', 'src/lib/**'],
      resetLabel: 'Start over',
      dependencies: { lodash: '^4.17.0', '@scope/pkg': 'latest' },
      replaySpeed: 2,
      record: false,
      replay: 'https://docs.example.com/demo.replay.json',
    };
    const { config, warnings } = check(raw);
    expect(warnings).toEqual([]);
    expect(config).toEqual(raw);
    expect(check({ theme: 'light', height: 480 }).config).toEqual({ theme: 'light', height: 480 });
    expect(check({ height: '70vh', autorun: true }).config).toEqual({ height: '70vh', autorun: true });
  });

  it('refuses a theme value that is not CSS, and names the variables it knows', () => {
    const { config, warnings } = check({
      theme: {
        scheme: 'sepia',
        '--accent': 'red; background: url(https://evil.example/x.png)',
        '--bg': 'not a colour at all',
        '--radius': '}body{display:none',
        '--font': '</style><script>',
        '--brand': '#fff',
        colour: 'red',
        '--fg': '#123456',
      },
    });
    expect(config.theme).toEqual({ '--fg': '#123456' });
    expect(warnings.map((w) => w.field)).toEqual([
      'theme["scheme"]',
      'theme["--accent"]',
      'theme["--bg"]',
      'theme["--radius"]',
      'theme["--font"]',
      'theme["--brand"]',
      'theme["colour"]',
    ]);
    expect(warnings[1].message).toMatch(/is not a CSS colour/);
    expect(warnings[5].message).toMatch(/not a theme variable; the variables are --bg/);
    expect(fields({ theme: 'blue' })).toEqual(['theme']);
    expect(fields({ theme: 42 })).toEqual(['theme']);
  });

  it('checks CSS values by kind without a browser', () => {
    expect(cssValueProblem('#0a7', 'color')).toBeNull();
    expect(cssValueProblem('light-dark(#fff, #111)', 'color')).toBeNull();
    expect(cssValueProblem('rgb(10 20 30 / 50%)', 'color')).toBeNull();
    expect(cssValueProblem('4px', 'length')).toBeNull();
    expect(cssValueProblem('0 1px 2px rgb(0 0 0 / 0.1)', 'shadow')).toBeNull();
    expect(cssValueProblem('"Fira Code", monospace', 'font')).toBeNull();
    expect(cssValueProblem('4 px', 'length')).toMatch(/not a CSS length/);
    expect(cssValueProblem('rgb(1, 2', 'color')).toMatch(/unbalanced/);
    expect(cssValueProblem('x'.repeat(400), 'color')).toMatch(/longer than/);
  });

  it('layout, height, autorun: each bad part alone', () => {
    const { config, warnings } = check({
      layout: { header: 'no', panel: 'debugger', file: '../secret', terminal: false, extra: 1 },
      height: 40,
      autorun: 'sometimes',
    });
    expect(config).toEqual({ layout: { terminal: false } });
    expect(warnings.map((w) => w.field)).toEqual([
      'layout.header',
      'layout.panel',
      'layout.file',
      'layout.extra',
      'height',
      'autorun',
    ]);
    expect(fields({ height: 'calc(100% - 2px)' })).toEqual(['height']);
    expect(check({ layout: { terminal: false, panel: 'terminal' } }).config.layout).toEqual({
      terminal: false,
    });
  });

  it('a 20 MB file and `..` paths are left out with a reason; the rest of the project stays', () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    const { config, warnings } = check({
      files: { 'data/big.csv': big, '../escape.txt': 'x', 'a/../b.txt': 'x', 'ok.md': '# ok' },
      readOnly: ['../outside', 'src/**', 42],
    });
    expect(config.files).toEqual({ 'ok.md': '# ok' });
    expect(config.readOnly).toEqual(['src/**']);
    const byField = Object.fromEntries(warnings.map((w) => [w.field, w.message]));
    expect(byField['files["data/big.csv"]']).toMatch(
      new RegExp(
        `20,971,520 characters; a playground file may have at most ${MAX_EMBED_FILE_CHARS.toLocaleString('en-US')}`,
      ),
    );
    expect(byField['files["../escape.txt"]']).toMatch(/may not contain "\.\."/);
    expect(byField['files["a/../b.txt"]']).toMatch(/may not contain "\.\."/);
    expect(byField['readOnly[0]']).toMatch(/\.\./);
    expect(byField['readOnly[2]']).toMatch(/must be text/);
  });

  it('dependencies, resetLabel, replaySpeed, record', () => {
    const { config, warnings } = check({
      dependencies: { 'Bad Name': '1', lodash: 'rm -rf /; echo', ok: '^1.0.0' },
      resetLabel: '',
      replaySpeed: 1000,
      record: 'yes',
    });
    expect(config).toEqual({ dependencies: { ok: '^1.0.0' } });
    expect(warnings.map((w) => w.field)).toEqual([
      'resetLabel',
      'dependencies["Bad Name"]',
      'dependencies["lodash"]',
      'replaySpeed',
      'record',
    ]);
  });

  it('lessons keep their good steps; a step replay is checked like any replay', () => {
    const replay = {
      format: 'tabcode-replay',
      version: 1,
      turns: [{ responses: [{ content: [{ type: 'text', text: 'hi' }] }] }],
    };
    const { config, warnings } = check({
      lessons: {
        steps: [
          { title: 'One', files: { 'a.js': '1' }, prompt: 'Do one', solution: { 'a.js': '2' }, replay },
          { files: {} },
          { title: 'Three', replay: { ...replay, version: 9 }, hint: 'x' },
        ],
        start: 5,
      },
    });
    expect(config.lessons?.steps.map((s) => s.title)).toEqual(['One', 'Three']);
    expect(config.lessons?.steps[0]).toEqual({
      title: 'One',
      files: { 'a.js': '1' },
      prompt: 'Do one',
      solution: { 'a.js': '2' },
      replay,
    });
    expect(config.lessons?.steps[1].replay).toBeUndefined();
    expect(warnings.map((w) => w.field)).toEqual([
      'lessons.steps[1]',
      'lessons.steps[2].hint',
      'lessons.steps[2].replay',
      'lessons.start',
    ]);
    expect(fields({ lessons: { steps: [] } })).toEqual(['lessons']);
    // A lesson's steps carry their own demos: a config-level replay beside them is dropped, and said so.
    expect(check({ lessons: { steps: [{ title: 'x' }] }, replay }).warnings.map((w) => w.field)).toEqual([
      'lessons',
    ]);
  });

  it('a config whose properties throw is refused whole, never thrown', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    const { config, warnings } = check(hostile);
    expect(config).toEqual({});
    expect(warnings).toEqual([
      { field: 'config', message: expect.stringMatching(/could not be read \(boom\)/) },
    ]);
  });
});
