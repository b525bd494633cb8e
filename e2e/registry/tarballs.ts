/**
 * Hand-made tarballs for the registry's bad cases (entries that escape the package folder, links,
 * garbage): the kind a hostile or broken registry could serve. Plain ustar headers, gzipped with zlib.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  /** The raw archive path, e.g. `package/index.js` or `package/../../evil.js`. */
  name: string;
  type?: 'file' | 'dir' | 'symlink' | 'hardlink';
  data?: string;
  /** Link target (symlink or hardlink). */
  linkname?: string;
  mode?: number;
}

const TYPE_FLAG = { file: '0', dir: '5', symlink: '2', hardlink: '1' } as const;

function header(entry: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, length: number) => h.write(text.slice(0, length), at, 'utf8');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  put(entry.name, 0, 100);
  put(octal(entry.mode ?? (entry.type === 'dir' ? 0o755 : 0o644), 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  h.fill(' ', 148, 156);
  put(TYPE_FLAG[entry.type ?? 'file'], 156, 1);
  put(entry.linkname ?? '', 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** A gzipped tar of `entries`. */
export function makeTarball(entries: TarEntry[]): Uint8Array {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.type && entry.type !== 'file' ? '' : (entry.data ?? ''), 'utf8');
    blocks.push(header(entry, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(gzipSync(Buffer.concat(blocks)));
}

/** A minimal valid package tarball for `name@version`, plus `extra` entries. */
export function packageTarball(name: string, version: string, extra: TarEntry[] = []): Uint8Array {
  return makeTarball([
    { name: 'package/package.json', data: `${JSON.stringify({ name, version, main: 'index.js' })}\n` },
    { name: 'package/index.js', data: `module.exports = '${name}';\n` },
    ...extra,
  ]);
}
