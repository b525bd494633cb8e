/**
 * gzip, gunzip and zcat on the platform's CompressionStream / DecompressionStream (Web Workers, pages
 * and Node 20 all have them). just-bash's own gzip calls Node's zlib and Buffer, which its browser
 * bundle lacks: in the page every gzip failed with "Cannot read properties of undefined (reading
 * 'Z_DEFAULT_COMPRESSION')" and every gunzip with "gunzipSync is not a function", while Node, where
 * zlib resolves, never showed it. These replace them on both sides, so the unit tests run what users run.
 *
 * Supported: -c/--stdout, -d/--decompress, -f/--force, -k/--keep, -t/--test, -q/--quiet, -S/--suffix,
 * files and stdin ("-" or none). Accepted and ignored: -1..-9 (the stream has one level), -n/-N,
 * -v. Refused with a clear message: -l/--list, -r/--recursive.
 */
import type { CustomCommand } from 'just-bash/browser';

/** What the commands need of just-bash's command context (a subset, so tests can pass their own). */
export interface GzipContext {
  cwd: string;
  /** Latin-1 bytes (one char per byte), as just-bash passes stdin. */
  stdin: unknown;
  fs: {
    resolvePath(base: string, path: string): string;
    readFileBuffer(path: string): Promise<Uint8Array>;
    writeFile(path: string, content: Uint8Array): Promise<void>;
    exists(path: string): Promise<boolean>;
    stat(path: string): Promise<{ isDirectory: boolean }>;
    rm(path: string): Promise<void>;
  };
}

export interface GzipResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  stdoutKind?: 'text' | 'bytes';
}

type Mode = 'gzip' | 'gunzip' | 'zcat';

interface Options {
  decompress: boolean;
  stdout: boolean;
  force: boolean;
  keep: boolean;
  test: boolean;
  quiet: boolean;
  suffix: string;
  files: string[];
}

/** Bytes per String.fromCharCode call (a Worker's stack cannot take 65,536 arguments). */
const CHUNK = 8_192;

function latin1(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]));
  }
  return parts.join('');
}

function bytesOfLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

async function pipeThrough(
  data: Uint8Array,
  stream: CompressionStream | DecompressionStream,
): Promise<Uint8Array> {
  const out = new Response(new Blob([data as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** gzip bytes of `data`. */
export function gzipBytes(data: Uint8Array): Promise<Uint8Array> {
  return pipeThrough(data, new CompressionStream('gzip'));
}

/** The bytes a gzip stream holds; rejects when it is not gzip or is damaged. */
export async function gunzipBytes(data: Uint8Array): Promise<Uint8Array> {
  if (data.length < 18 || data[0] !== 0x1f || data[1] !== 0x8b) throw new NotGzip();
  try {
    return await pipeThrough(data, new DecompressionStream('gzip'));
  } catch {
    throw new Error('invalid compressed data--format violated');
  }
}

class NotGzip extends Error {
  constructor() {
    super('not in gzip format');
  }
}

class UsageError extends Error {}

type FlagName = 'decompress' | 'stdout' | 'force' | 'keep' | 'test' | 'quiet';

function parse(mode: Mode, args: string[]): Options {
  const o: Options = {
    decompress: mode !== 'gzip',
    stdout: mode === 'zcat',
    force: false,
    keep: false,
    test: false,
    quiet: false,
    suffix: '.gz',
    files: [],
  };
  // Long option name -> the boolean it sets (null: accepted and ignored).
  const flags: Record<string, FlagName | null> = {
    stdout: 'stdout',
    'to-stdout': 'stdout',
    decompress: 'decompress',
    uncompress: 'decompress',
    force: 'force',
    keep: 'keep',
    test: 'test',
    quiet: 'quiet',
    'no-name': null,
    name: null,
    verbose: null,
    fast: null,
    best: null,
  };
  const set = (name: string): void => {
    const flag = flags[name];
    if (flag) o[flag] = true;
  };
  const short: Record<string, string> = {
    c: 'stdout',
    d: 'decompress',
    f: 'force',
    k: 'keep',
    t: 'test',
    q: 'quiet',
    n: 'no-name',
    N: 'name',
    v: 'verbose',
  };
  let onlyFiles = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (onlyFiles || a === '-' || !a.startsWith('-')) {
      o.files.push(a);
    } else if (a === '--') {
      onlyFiles = true;
    } else if (a.startsWith('--')) {
      const [name, value] = a.slice(2).split(/=(.*)/s, 2);
      if (name === 'suffix') {
        const v = value ?? args[++i];
        if (!v) throw new UsageError('option --suffix needs a value');
        o.suffix = v;
      } else if (name === 'list' || name === 'recursive') {
        throw new UsageError(unsupported(name));
      } else if (name in flags && value === undefined) {
        set(name);
      } else {
        throw new UsageError(`unrecognized option '${a}'`);
      }
    } else {
      for (let j = 1; j < a.length; j++) {
        const f = a[j];
        if (f === 'S') {
          const v = a.slice(j + 1) || args[++i];
          if (!v) throw new UsageError('option -S needs a value');
          o.suffix = v;
          break;
        }
        if (f === 'l' || f === 'r') throw new UsageError(unsupported(f === 'l' ? 'list' : 'recursive'));
        if (/[1-9]/.test(f)) continue;
        const name = short[f];
        if (!name) throw new UsageError(`invalid option -- '${f}'`);
        set(name);
      }
    }
  }
  if (o.test) o.decompress = true;
  return o;
}

function unsupported(option: string): string {
  return option === 'list'
    ? '--list is not supported in this sandbox; use `gzip -dc FILE | wc -c` for the uncompressed size'
    : '--recursive is not supported in this sandbox; use `find DIR -type f -exec gzip {} \\;`';
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Runs gzip, gunzip or zcat with `args`. Never throws: failures are stderr and exit code 1. */
export async function runGzip(mode: Mode, args: string[], ctx: GzipContext): Promise<GzipResult> {
  let o: Options;
  try {
    o = parse(mode, args);
  } catch (err) {
    const hint = mode === 'zcat' ? '' : ` (supported: -c -d -f -k -t -q -S SUF)`;
    return { stdout: '', stderr: `${mode}: ${message(err)}${hint}\n`, exitCode: 1 };
  }
  const files = o.files.length ? o.files : ['-'];
  const out: string[] = [];
  let stderr = '';
  let exitCode = 0;
  const fail = (text: string) => {
    stderr += `${mode}: ${text}\n`;
    exitCode = 1;
  };
  for (const file of files) {
    const fromStdin = file === '-';
    const label = fromStdin ? 'stdin' : file;
    try {
      let input: Uint8Array;
      let path = '';
      if (fromStdin) {
        input = bytesOfLatin1(String(ctx.stdin ?? ''));
      } else {
        path = ctx.fs.resolvePath(ctx.cwd, file);
        if (!(await ctx.fs.exists(path))) {
          fail(`${file}: No such file or directory`);
          continue;
        }
        if ((await ctx.fs.stat(path)).isDirectory) {
          fail(`${file} is a directory -- ignored`);
          continue;
        }
        if (o.decompress && !path.endsWith(o.suffix) && !o.stdout && !o.test) {
          fail(`${file}: unknown suffix -- ignored`);
          continue;
        }
        if (!o.decompress && path.endsWith(o.suffix) && !o.stdout && !o.force) {
          fail(`${file} already has ${o.suffix} suffix -- unchanged`);
          continue;
        }
        input = await ctx.fs.readFileBuffer(path);
      }
      const result = o.decompress ? await gunzipBytes(input) : await gzipBytes(input);
      if (o.test) continue;
      if (fromStdin || o.stdout) {
        out.push(latin1(result));
        continue;
      }
      const target = o.decompress ? path.slice(0, -o.suffix.length) : path + o.suffix;
      if (!o.force && (await ctx.fs.exists(target))) {
        fail(`${target} already exists; use -f to overwrite`);
        continue;
      }
      await ctx.fs.writeFile(target, result);
      if (!o.keep) await ctx.fs.rm(path);
    } catch (err) {
      if (!(o.quiet && err instanceof NotGzip)) fail(`${label}: ${message(err)}`);
      else exitCode = 1;
    }
  }
  return { stdout: out.join(''), stderr, exitCode, stdoutKind: 'bytes' };
}

/**
 * The three commands, for Bash's `customCommands` (they take the place of just-bash's own). Never
 * throw: bad options and bad input are a message on stderr and exit code 1.
 */
export function gzipCommands(): CustomCommand[] {
  return (['gzip', 'gunzip', 'zcat'] as const).map((name) => ({
    name,
    trusted: true,
    execute: (args: string[], ctx: unknown) => runGzip(name, args, ctx as GzipContext),
  })) as unknown as CustomCommand[];
}
