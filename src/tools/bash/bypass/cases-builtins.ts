/**
 * Cases: builtins and programs whose own syntax hides what they run or write: `trap --` before the
 * action, `enable -f` loading a builtin's code, yq rewriting files in place (-i) or loading others.
 * The sandbox has no trap builtin and no yq: the decisions alone are checked.
 */
import type { BypassCase } from './harness.ts';

export const HIDDEN_ACTIONS: BypassCase[] = [
  {
    what: 'eval -- TEXT',
    command: "eval -- 'rm -f src/app.ts'",
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
  },
  { what: 'source -- FILE', command: 'source -- secrets/key.pem', effect: { leaks: true }, bypass: 'deny' },
  {
    what: 'trap -- ACTION (the action after --)',
    command: "trap -- 'rm -f src/app.ts' EXIT",
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'enable -f loads a builtin from a shared object',
    command: 'enable -f ./evil.so ls && ls',
    effect: { removed: 'src/app.ts' },
    rules: { deny: ['Bash(rm:*)'] },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'yq -i rewrites a denied file',
    command: "yq -i '.a = 1' config/app.json",
    effect: { changed: 'config/app.json' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'yq --inplace (long form)',
    command: "yq --inplace -o json '.a = 1' config/app.json",
    effect: { changed: 'config/app.json' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'yq load_str() reads a denied file',
    command: `yq -n 'load_str(".env")'`,
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
];
