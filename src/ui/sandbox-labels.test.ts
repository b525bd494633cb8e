import { describe, expect, it } from 'vitest';
import { openSandbox } from '../sandbox/select.ts';
import { SANDBOX_LABELS } from './sandbox-labels.ts';

/** A WebContainer boot that must not happen: auto and just-bash never ask for one. */
const noBoot = () => Promise.reject(new Error('a WebContainer was asked for'));

describe('the sandbox setting labels say what each choice runs', () => {
  it('auto and just-bash name the sandbox they open, and neither says it lacks Node.js', async () => {
    for (const preference of ['auto', 'just-bash'] as const) {
      const opened = await openSandbox({ preference, store: null, acquire: noBoot, isolated: true });
      try {
        expect(opened.selection.kind).toBe('just-bash');
        expect(SANDBOX_LABELS[preference]).toContain(opened.selection.kind);
        expect(SANDBOX_LABELS[preference]).not.toMatch(/WebContainer when|no Node/i);
        // The sandbox it opens has Node.js (node and npm run in a worker: e2e/node.spec.ts runs them).
        expect(opened.selection.reason).toContain('Node.js');
        if (preference === 'just-bash') expect(SANDBOX_LABELS[preference]).toMatch(/\bnode\b/);
      } finally {
        await opened.close();
      }
    }
  });

  it('WebContainer says it falls back to just-bash', () => {
    expect(SANDBOX_LABELS.webcontainer).toContain('just-bash');
  });
});
