/**
 * The package checks CI runs after `npm run build:lib` (`npm run test:lib`), also printed by the embed
 * benchmark:
 * - size budget: host-facing JS until interactive (the entry `tabcode.js` and every chunk it imports
 *   statically: what a page fetches before the playground paints with a usable prompt box) at most
 *   EMBED_FIRST_LOAD_BUDGET_KB gzip; the agent, the sandbox, xterm, the highlighter and the MCP SDK are
 *   dynamic imports, so they are not part of it;
 * - a gated-off feature is 0 bytes: no trace of a gate that is off in the package build;
 * - stable names: the entry points have no content hash in their names;
 * - `npm pack --dry-run` lists the library build (entries, stylesheet, declarations, worker assets)
 *   and nothing of the sources;
 * - the shipped declarations type-check a consumer's code.
 *
 *   npx tsx bench/embed-budget.ts [--dir dist-lib] [--no-pack]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { featureDefines } from '../src/core/features.ts';

/** Host-facing JS until interactive, gzip (the issue's budget). */
export const EMBED_FIRST_LOAD_BUDGET_KB = 200;

/** Markers only a gated feature's code contains (see src/core/features.test.ts), by gate. */
const GATE_MARKERS: Record<string, string> = {
  __FEATURE_POWERSHELL__: 'tabcode PowerShell gate',
  __FEATURE_LSP__: 'tabcode LSP gate',
  __FEATURE_PYTHON__: 'tabcode python gate',
};

/**
 * What must load only after the first paint, each by a string only its library's code contains: the
 * check fails when a marker is in the first load, and also when it is nowhere in the package (a library
 * update changed it, and the check would prove nothing).
 */
export const LAZY_MARKERS: Record<string, string> = {
  'the sandbox (just-bash)': 'just-bash shell builtins',
  'the API client (@anthropic-ai/sdk)': 'anthropic-version',
  xterm: 'xterm-helper-textarea',
  'the highlighter (highlight.js)': 'no-highlight',
  'the MCP SDK': 'mcp-session-id',
  "ToolSearch's sentence encoder (TF.js, in its worker)": 'WASM_HAS_MULTITHREAD_SUPPORT',
};

/** Files the package must contain (relative to the package root). */
const REQUIRED_IN_PACK = [
  'package.json',
  'dist-lib/tabcode.js',
  'dist-lib/react.js',
  'dist-lib/tabcode.css',
  'dist-lib/types/embed/package/api.d.ts',
  'dist-lib/types/embed/package/react-api.d.ts',
  'dist-lib/types/embed/config.d.ts',
  'dist-lib/assets/node-worker.js',
  'dist-lib/assets/quickjs.wasm',
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export interface FirstLoad {
  files: string[];
  /** Gzip bytes of each file, largest first. */
  sizes: { file: string; gzipBytes: number }[];
  rawBytes: number;
  gzipBytes: number;
}

/** The entry and every chunk it imports statically (dynamic `import()` excluded), with sizes. */
export function staticGraph(dir: string, entry = 'tabcode.js'): FirstLoad {
  const seen = new Set<string>();
  const queue = [entry];
  let raw = 0;
  let gz = 0;
  const sizes: { file: string; gzipBytes: number }[] = [];
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dir, file));
    const zipped = gzipSync(code, { level: 9 }).length;
    raw += code.length;
    gz += zipped;
    sizes.push({ file, gzipBytes: zipped });
    for (const m of code.toString('utf8').matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g))
      queue.push(relative(dir, resolve(dir, dirname(file), m[1])));
  }
  sizes.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { files: [...seen], sizes, rawBytes: raw, gzipBytes: gz };
}

/** A selector list split at its top-level commas (not those inside `:is(…)`, `:not(…)`). */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allFiles(path));
    else out.push(path);
  }
  return out;
}

export interface CheckResult {
  lines: string[];
  failures: string[];
  firstLoad: FirstLoad;
}

/** Runs the checks on a built package folder. */
export function checkLibrary(root: string, dir: string, options: { pack?: boolean } = {}): CheckResult {
  const lines: string[] = [];
  const failures: string[] = [];
  if (!existsSync(join(dir, 'tabcode.js'))) {
    return {
      lines,
      failures: [`${dir}/tabcode.js is missing: run npm run build:lib first.`],
      firstLoad: { files: [], sizes: [], rawBytes: 0, gzipBytes: 0 },
    };
  }
  const firstLoad = staticGraph(dir);
  const budget = EMBED_FIRST_LOAD_BUDGET_KB * 1024;
  lines.push(
    `package first load (tabcode.js + ${firstLoad.files.length - 1} static chunks): ${kb(firstLoad.gzipBytes)} gzip (${kb(firstLoad.rawBytes)} raw); budget ${EMBED_FIRST_LOAD_BUDGET_KB} KB: ${firstLoad.gzipBytes <= budget ? 'within' : 'OVER'}`,
  );
  if (firstLoad.gzipBytes > budget)
    failures.push(
      `host-facing JS until interactive is ${kb(firstLoad.gzipBytes)} gzip, over the ${EMBED_FIRST_LOAD_BUDGET_KB} KB budget; ` +
        `the largest files: ${firstLoad.sizes
          .slice(0, 5)
          .map((f) => `${f.file} ${kb(f.gzipBytes)}`)
          .join(', ')} (a module the page imports statically brings what it imports: ` +
        'import a small module, or load the heavy one with import() on first use)',
    );
  const firstText = firstLoad.files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
  const everything = allFiles(dir)
    .filter((f) => /\.(?:js|mjs)$/.test(f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const early = Object.entries(LAZY_MARKERS).filter(([, marker]) => firstText.includes(marker));
  const unknown = Object.entries(LAZY_MARKERS).filter(([, marker]) => !everything.includes(marker));
  for (const [name] of early) failures.push(`${name} is in the first load; it must load on first use`);
  for (const [name, marker] of unknown)
    failures.push(`the marker of ${name} ("${marker}") is nowhere in the package: update LAZY_MARKERS`);
  if (!early.length && !unknown.length)
    lines.push(`lazy, not in the first load: ${Object.keys(LAZY_MARKERS).join(', ')}`);
  const css = readFileSync(join(dir, 'tabcode.css'));
  lines.push(`stylesheet tabcode.css: ${kb(gzipSync(css).length)} gzip`);

  // Stylesheet scoped: every rule starts at the playground's root (or is its own element / the page's body state).
  const text = css.toString('utf8').replace(/@keyframes[^{]+\{(?:[^{}]*\{[^}]*\})*[^}]*\}/g, '');
  const unscoped = [...text.matchAll(/(?:^|[{}])\s*([^@{}][^{}]*)\{/g)]
    .flatMap((m) => splitSelectors(m[1]))
    .map((s) => s.trim())
    .filter(
      (s) =>
        s &&
        !/^(?:\.tabcode-root|tabcode-playground|body[.[:][^ ]* \.tabcode-root)/.test(s) &&
        !/^(?:from|to|\d+%)$/.test(s),
    );
  if (unscoped.length)
    failures.push(`the stylesheet has rules outside .tabcode-root: ${unscoped.slice(0, 5).join(' | ')}`);
  else lines.push('stylesheet: every rule is scoped to .tabcode-root');

  // Gates that are off in the package build leave nothing behind.
  const defines = featureDefines('production', process.env);
  const bundle = everything;
  for (const [gate, marker] of Object.entries(GATE_MARKERS)) {
    if (defines[gate] !== 'false') continue;
    const bytes = bundle.includes(marker) ? 'present' : '0 bytes';
    lines.push(`gated-off ${gate.replace(/^__FEATURE_|__$/g, '')}: ${bytes}`);
    if (bytes !== '0 bytes') failures.push(`${gate} is off, yet its code is in the package`);
  }

  // Stable entry names (a script tag can point at them).
  for (const name of ['tabcode.js', 'react.js', 'tabcode.css']) {
    if (!existsSync(join(dir, name))) failures.push(`${name} is missing from the package build`);
  }
  const hashed = allFiles(dir)
    .map((f) => relative(dir, f))
    .filter(
      (f) => !f.startsWith('assets/pyodide') && /-(?=[\w-]*[A-Z0-9])[\w-]{8}\.(?:js|css|wasm)$/.test(f),
    );
  if (hashed.length) failures.push(`hashed file names in the package: ${hashed.slice(0, 5).join(', ')}`);

  if (options.pack !== false) {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(out) as { files: { path: string }[]; size: number; unpackedSize: number }[];
    const paths = new Set(pack.files.map((f) => f.path));
    const missing = REQUIRED_IN_PACK.filter((p) => !paths.has(p));
    const strays = [...paths].filter((p) => /^(?:src|e2e|bench|node_modules|dist)\//.test(p));
    lines.push(
      `npm pack --dry-run: ${paths.size} files, ${kb(pack.size)} packed, ${kb(pack.unpackedSize)} unpacked; library build listed: ${missing.length === 0 ? 'yes' : 'NO'}`,
    );
    if (missing.length) failures.push(`npm pack does not list: ${missing.join(', ')}`);
    if (strays.length) failures.push(`npm pack lists sources: ${strays.slice(0, 5).join(', ')}`);
    // Every file package.json points a consumer at is in the package.
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    const targets = manifestTargets(manifest);
    const unpacked = targets.filter((t) => !paths.has(t));
    if (unpacked.length)
      failures.push(`package.json points at files npm pack leaves out: ${unpacked.join(', ')}`);
    else
      lines.push(
        `package.json: its ${targets.length} entry points (main, types, exports) are all in the package`,
      );
    if (manifest.private === true) failures.push('package.json is "private": npm refuses to publish it');
    // The build bundles what it uses: a runtime dependency would only make `npm install tabcode` fetch
    // packages nothing loads (pyodide, WebContainer...). React is the host's, for tabcode/react only.
    const deps = Object.keys((manifest.dependencies as Record<string, string> | undefined) ?? {});
    if (deps.length)
      failures.push(`package.json lists runtime dependencies the build already bundles: ${deps.join(', ')}`);
    const peers = (manifest.peerDependencies as Record<string, string> | undefined) ?? {};
    const peerMeta =
      (manifest.peerDependenciesMeta as Record<string, { optional?: boolean }> | undefined) ?? {};
    if (!peers.react || peerMeta.react?.optional !== true)
      failures.push(
        "package.json must name react as an optional peer dependency (tabcode/react uses the host's React)",
      );
    else lines.push(`package.json: no runtime dependencies; react ${peers.react} an optional peer`);
    // The package holds the whole build (a chunk or worker left out breaks a lazy import at run time).
    const outside = relative(root, dir);
    if (!outside.startsWith('..')) {
      const left = allFiles(dir)
        .map((f) => relative(root, f))
        .filter((f) => !paths.has(f));
      if (left.length)
        failures.push(`npm pack leaves out files of the build: ${left.slice(0, 5).join(', ')}`);
    }
  }
  return { lines, failures, firstLoad };
}

/** The package-relative files `main`, `module`, `types` and `exports` (every condition) point at. */
export function manifestTargets(manifest: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string') out.add(v.replace(/^\.\//, ''));
    else if (v && typeof v === 'object') for (const x of Object.values(v)) add(x);
  };
  for (const key of ['main', 'module', 'types', 'exports']) add(manifest[key]);
  return [...out].sort();
}

/** Type-checks a small consumer against the shipped declarations (tsc, no emit). */
export function checkDeclarations(root: string, dir: string): string[] {
  const work = mkdtempSync(join(tmpdir(), 'tabcode-types-'));
  try {
    const types = join(resolve(dir), 'types/embed/package');
    writeFileSync(
      join(work, 'consumer.ts'),
      `import { mount, type EmbedConfig, type EmbedEvent, ELEMENT_NAME, REPLAY_FORMAT } from 'tabcode';
import { Tabcode, type TabcodeProps } from 'tabcode/react';
const config: EmbedConfig = { theme: { scheme: 'dark', '--accent': '#0a7' }, layout: { compact: true, panel: 'files' }, height: 'auto', autorun: 'visible', readOnly: ['README.md'], replay: './demo.json' };
const el = document.createElement(ELEMENT_NAME);
el.config = config;
void mount(document.body, config).then((h) => h.subscribe((e: EmbedEvent) => e.type === 'replay-end' && console.log(e.mismatches, REPLAY_FORMAT)));
const props: TabcodeProps = { ...config, onReady: (h) => void h.play() };
void Tabcode;
void props;
// @ts-expect-error a key is never part of the config
const bad: EmbedConfig = { apiKey: 'sk' };
void bad;
`,
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          lib: ['ES2022', 'DOM'],
          types: [],
          typeRoots: [join(root, 'node_modules/@types')],
          paths: {
            tabcode: [join(types, 'api.d.ts')],
            'tabcode/react': [join(types, 'react-api.d.ts')],
            react: [join(root, 'node_modules/@types/react/index.d.ts')],
          },
        },
        files: ['consumer.ts'],
      }),
    );
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', work], { encoding: 'utf8', stdio: 'pipe' });
      return [];
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return [`the shipped declarations do not type-check a consumer:\n${e.stdout ?? ''}${e.stderr ?? ''}`];
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..');
  const dir = resolve(root, arg('dir') ?? 'dist-lib');
  const result = checkLibrary(root, dir, { pack: !process.argv.includes('--no-pack') });
  const failures = [...result.failures, ...checkDeclarations(root, dir)];
  for (const line of result.lines) console.log(line);
  if (failures.length === 0) console.log('declarations: a consumer type-checks against them');
  for (const f of failures) console.error(`FAIL: ${f}`);
  console.log(failures.length ? `package checks: ${failures.length} failed` : 'package checks: all passed');
  process.exit(failures.length ? 1 : 0);
}
