import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';

describe('just-bash sandbox: work limits fit ordinary large files', () => {
  // just-bash's default of 100,000 loop iterations also bounded rg's matching, cut's ranges and seq:
  // `rg -c` on a 110,000-line file failed with "matching work limit exceeded (100000)".
  it('seq, rg, cut and awk handle a 110,000-line file', async () => {
    const sb = await createJustBashSandbox({});
    try {
      const r = await sb.exec(
        "seq 1 110000 > big.txt && wc -l < big.txt && rg -c '7$' big.txt && cut -c1-1 big.txt | sort -u | wc -l && awk 'END { print NR }' big.txt",
      );
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')).toEqual(['110000', '11000', '9', '110000', '']);
    } finally {
      await sb.dispose();
    }
  }, 30_000);
});
