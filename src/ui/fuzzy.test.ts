import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from './fuzzy.ts';

describe('fuzzy matching', () => {
  it('matches characters in order and ranks prefixes and segment starts first', () => {
    expect(fuzzyScore('cmp', 'compact')).not.toBeNull();
    expect(fuzzyScore('xyz', 'compact')).toBeNull();
    const files = ['src/deep/nested/app.ts', 'src/app.ts', 'README.md', 'src/apple-pie.md', 'package.json'];
    expect(fuzzyFilter('app', files, (f) => f)[0]).toBe('src/app.ts');
    expect(fuzzyFilter('rdm', files, (f) => f)).toEqual(['README.md']);
    expect(fuzzyFilter('', files, (f) => f)).toHaveLength(5);
    expect(fuzzyFilter('co', ['context', 'compact', 'cost', 'clear'], (f) => f)).toEqual([
      'cost',
      'context',
      'compact',
    ]);
  });
});
