/**
 * just-bash's own parser (the one that runs the commands), from its browser entry: `new Bash().transform()`
 * returns the AST. Loaded lazily so the page's first paint does not wait for it; once loaded it is used
 * synchronously.
 */
import type { ScriptNode } from 'just-bash';

/** Parses one script text; throws with the parser's message on a syntax error. */
export type ShellParser = (text: string) => ScriptNode;

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;
let runs = 0;

/** Loads the parser once. Rejects only when the module cannot be loaded. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= import('just-bash/browser').then(({ Bash }) => {
    const bash = new Bash();
    loaded = (text: string) => {
      runs++;
      return bash.transform(text).ast;
    };
    return loaded;
  });
  return loading;
}

/** The parser when it is already loaded (else undefined: call loadShellParser first). */
export function shellParserIfLoaded(): ShellParser | undefined {
  return loaded;
}

/** How many times the parser ran since the page loaded (benchmarks read it). */
export function shellParserRuns(): number {
  return runs;
}
