/**
 * just-bash's in-memory file system turns a file's bytes into a "binary" (Latin-1) string for the
 * commands that read it (cat, wc, head, sed...) with `String.fromCharCode(...bytes)` in chunks of
 * 65,536 when there is no Node `Buffer`, that is, in the page. A Worker's stack cannot hold that many
 * arguments: every file over about 62 KB failed there with "No such file or directory" (the RangeError
 * is reported as ENOENT), while Node, which has Buffer, never showed it. This wrapper decodes those
 * reads itself, in chunks small enough for any thread.
 */

/** Bytes per String.fromCharCode call: far below any engine's argument limit. */
const CHUNK = 8_192;

/** The Latin-1 string of `bytes` (one character per byte). Never throws. */
export function latin1Of(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]));
  }
  return parts.join('');
}

interface BufferReader {
  readFileBuffer(path: string): Promise<Uint8Array>;
}

const encodingOf = (options: unknown): unknown =>
  typeof options === 'string' ? options : (options as { encoding?: unknown } | undefined)?.encoding;

/**
 * Wraps a just-bash file system so its binary, Latin-1 and base64 reads are decoded by latin1Of;
 * every other call goes to the file system unchanged.
 */
export function withSafeBinaryReads<T extends BufferReader>(fs: T): T {
  return new Proxy(fs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'readFileBytes')
        return async (path: string) => latin1Of(await target.readFileBuffer(path));
      if (prop === 'readFile') {
        return async (path: string, options?: unknown) => {
          const encoding = encodingOf(options);
          if (encoding === 'binary' || encoding === 'latin1')
            return latin1Of(await target.readFileBuffer(path));
          if (encoding === 'base64') return btoa(latin1Of(await target.readFileBuffer(path)));
          return value.call(target, path, options);
        };
      }
      return value.bind(target);
    },
  });
}
