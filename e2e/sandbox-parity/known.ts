/**
 * Commands whose answer in the page may differ from Node's, with the page's exact answer (so any other
 * change still fails the spec). Empty: the gzip divergences the corpus found are fixed by
 * src/sandbox/platform-commands.ts. A new entry needs a reason beside it.
 */
import type { ExpectedAnswer } from './types.ts';

export const KNOWN_DIVERGENCES: Readonly<Record<string, Omit<ExpectedAnswer, 'command'>>> = {};
