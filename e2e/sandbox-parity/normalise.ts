/**
 * What may differ between the Node run and the page run, and nothing else. The corpus avoids clocks,
 * PIDs and random data (dates are fixed with -d, `date` alone is only checked to succeed); what remains
 * is normalised here, on both sides.
 */

/** Rules: each replaces what must differ with a fixed token. */
const RULES: Array<[RegExp, string]> = [
  // node:test's summary (npm test on the demo project): "duration_ms 16.2".
  [/duration_ms \d+(\.\d+)?/g, 'duration_ms <n>'],
];

/** The tool result text with run-specific values replaced. Never throws. */
export function normalise(text: string): string {
  let out = text;
  for (const [re, token] of RULES) out = out.replace(re, token);
  return out;
}
