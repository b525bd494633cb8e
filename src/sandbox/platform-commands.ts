/**
 * The commands the built-in sandbox adds to just-bash so the page behaves as Node does (found by the
 * parity corpus, e2e/sandbox-parity): gzip/gunzip/zcat on CompressionStream, and clear messages for
 * the commands the browser cannot have. Hooked into `new Bash({ customCommands })` in just-bash.ts.
 */
import type { CustomCommand } from 'just-bash/browser';
import { gzipCommands } from './gzip-commands.ts';
import { unavailableCommands } from './unavailable-commands.ts';

/** Every command of this module, for Bash's `customCommands` (they replace just-bash's own). */
export function platformCommands(): CustomCommand[] {
  return [...gzipCommands(), ...unavailableCommands()];
}
