/**
 * Fetches the Chinese-English glossary table from our own origin (the asset beside this module) and
 * hands its plain bytes to the page (transferred, not copied), so the download and the gunzip stay off
 * the main thread. One message in (any), one out: `{ bytes }` or `{ error }`.
 */
import { messageOf } from '../../core/errors.ts';
import tableUrl from './glossary/zh-en.txt.gz?url';
import { gunzipIfNeeded } from './glossary-stage.ts';

const scope = self as unknown as {
  postMessage(m: { bytes: Uint8Array } | { error: string }, transfer?: Transferable[]): void;
  onmessage: (() => void) | null;
};

scope.onmessage = () => {
  void (async () => {
    try {
      const res = await fetch(tableUrl);
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${tableUrl}`);
      const bytes = await gunzipIfNeeded(new Uint8Array(await res.arrayBuffer()));
      scope.postMessage({ bytes }, [bytes.buffer]);
    } catch (err) {
      scope.postMessage({ error: messageOf(err) });
    }
  })();
};
