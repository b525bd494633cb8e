/** npm's errors: a code and the lines printed after `npm error `, as the real CLI prints them. */

import { messageOf } from '../../core/errors.ts';
import { ABORTED_EXIT_CODE } from './constants.ts';

export class NpmError extends Error {
  readonly code: string;
  /** Lines printed as `npm error <line>` (the first is usually `code <CODE>`). */
  readonly lines: string[];
  readonly exitCode: number;

  constructor(code: string, lines: string[], exitCode = 1) {
    super(lines.join('\n'));
    this.name = 'NpmError';
    this.code = code;
    this.lines = lines;
    this.exitCode = exitCode;
  }
}

/** Esc or a timeout stopped the command. */
export class NpmAbortError extends NpmError {
  constructor() {
    super('ABORT_ERR', ['canceled: the command was interrupted; nothing was changed'], ABORTED_EXIT_CODE);
  }
}

/** Throws NpmAbortError when `signal` has fired. */
export function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new NpmAbortError();
}

/** The registry could not be reached at all (offline, refused, dropped, timed out). */
export function registryUnreachable(
  command: string,
  registry: string,
  url: string,
  detail: string,
): NpmError {
  return new NpmError('ENETWORK', [
    'code ENETWORK',
    `network \`${command}\` needs the package registry at ${registry} and could not reach it.`,
    `network Request: GET ${url}`,
    `network Reason: ${detail}`,
    'network Check the network connection, or choose another registry with --registry=<url>,',
    'network npm_config_registry or a `registry=` line in .npmrc.',
  ]);
}

/** `npm error …` lines for any error (an unexpected one is reported, never thrown further). */
export function errorLines(err: unknown): string[] {
  if (err instanceof NpmError) return err.lines;
  const message = messageOf(err);
  return [`${message}`];
}

/** Writes `npm error <line>` for each line to stderr. */
export function printError(write: (text: string) => void, err: unknown): void {
  write(
    errorLines(err)
      .map((line) => (line ? `npm error ${line}\n` : 'npm error\n'))
      .join(''),
  );
}
