/** One recorded answer of the parity corpus (expected.json holds them in corpus order). */
export interface ExpectedAnswer {
  command: string;
  /** The command's stdout and stderr, normalised (normalise.ts), and its exit code. */
  stdout: string;
  stderr: string;
  exitCode: number;
}
