/**
 * Loads the Chinese-English glossary (./glossary.ts) once, on first need: a catalogue with a tool
 * described in Chinese, or a query with Chinese in it. Most sessions never load it (2.3 MB gzip). The
 * table is gzip (decompressed with DecompressionStream where its bytes are gzip; a server that already
 * undid the encoding hands over plain text). A glossary that fails to load stays failed with a reason:
 * ToolSearch then ranks without it and the card says why. Never throws.
 */
import { messageOf } from '../../core/errors.ts';
import { decodeGlossary, type Glossary } from './glossary.ts';
import { statusHub, timeout } from './semantic-stage.ts';

export type GlossaryStatus =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; headwords: number; bytes: number; loadMs: number }
  | { state: 'failed'; reason: string };

export interface GlossaryStage {
  /** Starts loading (idempotent). */
  warm(): void;
  /** The glossary, once loaded within `waitMs`; undefined while loading or after a failure. Never rejects. */
  get(waitMs: number): Promise<Glossary | undefined>;
  status(): GlossaryStatus;
}

/** True when `bytes` start with the gzip magic number. */
const isGzip = (bytes: Uint8Array) => bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The plain bytes of a table that may be gzip. */
export async function gunzipIfNeeded(bytes: Uint8Array): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes;
  if (typeof DecompressionStream === 'undefined') throw new Error('this browser cannot decompress gzip');
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A stage over `load` (the table's bytes, gzip or plain). */
export function createGlossaryStage(load: () => Promise<Uint8Array>): GlossaryStage {
  const hub = statusHub<GlossaryStatus>({ state: 'idle' });
  let loading: Promise<Glossary | undefined> | undefined;
  const start = () => {
    loading ??= (async () => {
      hub.set({ state: 'loading' });
      const t0 = performance.now();
      try {
        const bytes = await gunzipIfNeeded(await load());
        const glossary = decodeGlossary(bytes);
        if (glossary.words.size === 0) throw new Error('the glossary table is empty');
        hub.set({
          state: 'ready',
          headwords: glossary.words.size,
          bytes: glossary.bytes,
          loadMs: performance.now() - t0,
        });
        return glossary;
      } catch (err) {
        hub.set({ state: 'failed', reason: `the glossary did not load (${messageOf(err)})` });
        return undefined;
      }
    })();
    return loading;
  };
  return {
    warm: () => void start(),
    async get(waitMs) {
      return Promise.race([start(), timeout<Glossary>(waitMs)]);
    },
    status: () => hub.get(),
  };
}
