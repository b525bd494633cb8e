/**
 * Commands just-bash's browser bundle lists but cannot run (they need Node modules or WebAssembly it
 * leaves out). Its own answer, "command not available in browser environments ... use the Node.js
 * bundle", tells the model nothing it can act on; these say what is missing and what to use instead.
 * The exit code is 127, as for a command that is not there, so scripts that test for it still work.
 */
import type { CustomCommand } from 'just-bash/browser';

/** Each missing command and what to use in its place (shown to the model). */
export const UNAVAILABLE_COMMANDS: Readonly<Record<string, string>> = {
  tar: 'there is no archive support here; copy trees with `cp -r`, compress single files with `gzip -c FILE > FILE.gz`',
  yq: 'YAML cannot be queried here; use `jq` for JSON, or parse YAML in a script (`node -e` or `python3 -c`)',
  sqlite3:
    'there is no SQLite here; keep data in JSON or CSV and query it with `jq`, `awk` or a script (`node -e`)',
  xan: 'use `cut`, `awk`, `sort` or `column -t -s,` for CSV',
};

/** The exit code of a command that is not available (as bash's "command not found"). */
export const UNAVAILABLE_EXIT_CODE = 127;

/** One command per entry of UNAVAILABLE_COMMANDS, for Bash's `customCommands`. Never throw. */
export function unavailableCommands(): CustomCommand[] {
  return Object.entries(UNAVAILABLE_COMMANDS).map(([name, instead]) => ({
    name,
    trusted: true,
    execute: async () => ({
      stdout: '',
      stderr: `${name}: not available in this browser sandbox: ${instead}\n`,
      exitCode: UNAVAILABLE_EXIT_CODE,
    }),
  })) as unknown as CustomCommand[];
}
