/** The URL of the newest server listening in the sandbox (for the preview iframe), kept current. */
import { useEffect, useState } from 'react';
import type { Sandbox } from '../sandbox/sandbox.ts';

export function usePreviewUrl(sandbox: Sandbox | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!sandbox) {
      setUrl(null);
      return;
    }
    const update = () => {
      const previews = sandbox.previews();
      setUrl(previews.length ? previews[previews.length - 1].url : null);
    };
    update();
    return sandbox.onEvent((e) => {
      if (e.type === 'server-ready' || e.type === 'port-closed') update();
    });
  }, [sandbox]);
  return url;
}
