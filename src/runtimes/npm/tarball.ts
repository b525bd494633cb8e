/**
 * Unpacking a package tarball in memory: gunzip (DecompressionStream, with a size cap), then tar.
 *
 * The tar reader is our own, small one rather than nanotar's `parseTar`: nanotar quietly rewrites
 * `a/../../b` into `b` and drops the ustar `prefix` field, but a package manager must see the raw name
 * to refuse an entry that escapes its folder, and `npm pack` stores paths over 100 bytes in that
 * prefix field. Like npm (pacote), the first path component (`package/`) is stripped and links are not
 * created; unlike a silent skip, an entry or link pointing outside the package fails the install.
 */

import { messageOf } from '../../core/errors.ts';
import { MAX_TAR_ENTRIES, MAX_UNPACKED_BYTES } from './constants.ts';
import { NpmError } from './errors.ts';
import { normalize } from './paths.ts';

export interface PackageFile {
  data: Uint8Array;
  /** Any execute bit was set in the archive. */
  executable: boolean;
}

export interface UnpackedPackage {
  /** Path inside the package folder (no leading `package/`) → content. */
  files: Map<string, PackageFile>;
  /** Folders listed in the archive (so empty ones are created too). */
  dirs: Set<string>;
}

const decoder = new TextDecoder();

function badTarball(label: string, why: string): NpmError {
  return new NpmError('EBADTARBALL', [
    'code EBADTARBALL',
    `The tarball of ${label} is not a valid package archive: ${why}.`,
    'Nothing was installed. If the registry is a mirror, it may hold a damaged copy.',
  ]);
}

function escapes(label: string, entry: string): NpmError {
  return new NpmError('EBADTARBALL', [
    'code EBADTARBALL',
    `The tarball of ${label} has an entry that points outside its package folder: ${entry}`,
    'tabcode refuses such archives; nothing was installed.',
  ]);
}

async function gunzip(bytes: Uint8Array, label: string): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_UNPACKED_BYTES) {
        await reader.cancel();
        throw badTarball(label, `it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof NpmError) throw err;
    throw badTarball(label, `gzip data is corrupt (${messageOf(err)})`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function readString(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const nul = field.indexOf(0);
  return decoder.decode(nul < 0 ? field : field.subarray(0, nul));
}

/** An octal number field, or GNU base-256 when the high bit is set. */
function readNumber(block: Uint8Array, start: number, length: number): number {
  if (block[start] & 0x80) {
    let n = 0;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + block[i];
    return n;
  }
  const text = readString(block, start, length).trim();
  return text ? Number.parseInt(text, 8) : 0;
}

function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return readNumber(header, 148, 8) === sum;
}

/** pax records: `<length> <key>=<value>\n`, the length counting the whole record in bytes. */
function parsePax(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number.parseInt(decoder.decode(data.subarray(at, space)), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = decoder.decode(data.subarray(space + 1, at + length - 1));
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

/** The path inside the package for an archive path, or null when nothing is left after `package/`. */
function packagePath(label: string, raw: string): string | null {
  if (raw.includes('\0') || raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw escapes(label, raw);
  const parts = raw.split('/');
  if (parts.includes('..')) throw escapes(label, raw);
  const rest = parts.slice(1).filter((p) => p !== '' && p !== '.');
  return rest.length ? rest.join('/') : null;
}

/**
 * Unpacks a `.tgz` (or a plain tar) into memory. Throws NpmError EBADTARBALL for corrupt data, an
 * archive over the size caps, or an entry or link that leaves the package folder; never writes
 * anything.
 */
export async function unpackTarball(bytes: Uint8Array, label: string): Promise<UnpackedPackage> {
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  const tar = gzipped ? await gunzip(bytes, label) : bytes;
  const files = new Map<string, PackageFile>();
  const dirs = new Set<string>();
  let pax = new Map<string, string>();
  let longName: string | undefined;
  let longLink: string | undefined;
  let entries = 0;
  let offset = 0;
  let ended = false;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) {
      ended = true;
      break;
    }
    if (!checksumOk(header)) throw badTarball(label, `bad tar header checksum at byte ${offset}`);
    if (++entries > MAX_TAR_ENTRIES) throw badTarball(label, `more than ${MAX_TAR_ENTRIES} entries`);
    const type = String.fromCharCode(header[156] || 48);
    const size = Number(pax.get('size') ?? readNumber(header, 124, 12));
    const start = offset + 512;
    if (start + size > tar.length) throw badTarball(label, 'it ends in the middle of a file');
    const data = tar.subarray(start, start + size);
    offset = start + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      pax = parsePax(data);
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = readString(data, 0, data.length);
      continue;
    }
    if (type === 'K') {
      longLink = readString(data, 0, data.length);
      continue;
    }
    const magic = readString(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? readString(header, 345, 155) : '';
    const shortName = readString(header, 0, 100);
    const name = pax.get('path') ?? longName ?? (prefix ? `${prefix}/${shortName}` : shortName);
    const linkName = pax.get('linkpath') ?? longLink ?? readString(header, 157, 100);
    pax = new Map();
    longName = undefined;
    longLink = undefined;
    const path = packagePath(label, name);
    if (type === '1' || type === '2') {
      // Links are not created (as npm does), but one that leads out of the package is refused.
      const target =
        type === '2' ? normalize(`${path ? `${path}/..` : '.'}/${linkName}`) : packagePath(label, linkName);
      if (linkName.startsWith('/') || target === null || target === '..' || target.startsWith('../')) {
        throw escapes(label, `${name} -> ${linkName}`);
      }
      continue;
    }
    if (path === null) continue;
    if (type === '5') {
      dirs.add(path);
      continue;
    }
    if (type !== '0' && type !== '7') continue; // devices, fifos: nothing a package needs
    const mode = readNumber(header, 100, 8);
    files.set(path, { data: data.slice(), executable: (mode & 0o111) !== 0 });
  }
  if (!ended && files.size === 0) throw badTarball(label, 'no tar entries found');
  return { files, dirs };
}
