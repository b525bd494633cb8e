import { InMemoryFs } from 'just-bash/browser';
import { describe, expect, it } from 'vitest';
import { latin1Of, withSafeBinaryReads } from './binary-reads.ts';

describe('binary reads of the just-bash file system', () => {
  // Every byte value, repeated past the 65,536-argument chunks that overflowed a Worker's stack.
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256);
  const expected = Buffer.from(bytes).toString('latin1');

  it('latin1Of maps each byte to one character, in order', () => {
    expect(latin1Of(bytes)).toBe(expected);
    expect(latin1Of(new Uint8Array())).toBe('');
  });

  it('binary, latin1 and base64 reads are decoded by latin1Of; utf8 reads go to the file system', async () => {
    const fs = withSafeBinaryReads(new InMemoryFs({ '/w/big.bin': bytes, '/w/t.txt': 'héllo\n' }));
    expect(await fs.readFile('/w/big.bin', 'binary')).toBe(expected);
    expect(await fs.readFile('/w/big.bin', { encoding: 'latin1' })).toBe(expected);
    expect(await fs.readFile('/w/big.bin', 'base64')).toBe(Buffer.from(bytes).toString('base64'));
    expect(await fs.readFileBytes('/w/big.bin')).toBe(expected);
    expect(await fs.readFile('/w/t.txt')).toBe('héllo\n');
    expect(await fs.readFile('/w/t.txt', 'utf8')).toBe('héllo\n');
    await expect(fs.readFile('/w/missing', 'binary')).rejects.toThrow(/ENOENT|no such file/i);
  });
});
