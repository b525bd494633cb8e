/**
 * The benchmark tree: 5,000 source-like files, 50 MB, in 50 packages × 10 modules × 10 files. About one
 * line in 200 holds the marker the searches look for. Deterministic (same tree every run).
 */

export const TREE_FILES = 5_000;
export const TREE_BYTES = 50 * 1024 * 1024;
/** What the Grep benchmarks search for. */
export const TREE_MARKER = 'TABCODE_MARKER';

const WORDS = [
  'const',
  'value',
  'return',
  'export',
  'function',
  'async',
  'await',
  'items',
  'result',
  'config',
  'handler',
  'index',
];

/** relative path → content. */
export function makeTree(files = TREE_FILES, bytes = TREE_BYTES): Record<string, string> {
  const per = Math.floor(bytes / files);
  const out: Record<string, string> = {};
  // xorshift32: every bit is usable (an LCG's low bits would repeat in short cycles).
  let seed = 0x2545f491;
  const rand = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  for (let i = 0; i < files; i++) {
    const pkg = Math.floor(i / 100);
    const mod = Math.floor((i % 100) / 10);
    const ext = i % 3 === 0 ? 'js' : i % 3 === 1 ? 'ts' : 'md';
    const lines: string[] = [];
    let size = 0;
    let n = 0;
    while (size < per) {
      const w = Array.from({ length: 6 + (rand() % 6) }, () => WORDS[rand() % WORDS.length]).join(' ');
      const line = rand() % 200 === 0 ? `  // ${TREE_MARKER} ${n}: ${w}` : `  ${w}; // line ${n}`;
      lines.push(line);
      size += line.length + 1;
      n++;
    }
    out[`pkg-${String(pkg).padStart(2, '0')}/mod-${mod}/file-${String(i).padStart(4, '0')}.${ext}`] =
      `${lines.join('\n')}\n`;
  }
  return out;
}
