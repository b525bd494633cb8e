export interface BenchContext {
  /** ../shared/bench-data or --data DIR, when it exists. */
  dataDir?: string;
  /** The project root. */
  root: string;
}

export interface BenchModule {
  title: string;
  /** Runs the benchmark and returns the lines to print. */
  run(ctx: BenchContext): Promise<string[]>;
}
