/**
 * The sandbox setting's choices as the Files panel names them. Each says what the choice really gives
 * (src/sandbox/select.ts decides): `auto` is the built-in just-bash sandbox, at once and offline, and
 * just-bash runs `node` and `npm` (QuickJS in a worker); a WebContainer is only booted when chosen.
 */
import type { SandboxPreference } from '../sandbox/select.ts';

export const SANDBOX_LABELS: Record<SandboxPreference, string> = {
  auto: 'Automatic (just-bash: ready at once, offline)',
  webcontainer: 'WebContainer (a Node.js VM; needs StackBlitz, else just-bash)',
  'just-bash': 'just-bash (offline; node and npm in QuickJS)',
};
