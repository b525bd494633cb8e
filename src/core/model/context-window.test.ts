import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW } from '../constants.ts';
import { contextWindowOf } from './context-window.ts';

describe('contextWindowOf', () => {
  it('takes the Models API figure first, then the table, then the default', () => {
    expect(contextWindowOf('claude-sonnet-4-6', 1_000_000)).toEqual({
      tokens: 1_000_000,
      source: 'models-api',
    });
    expect(contextWindowOf('claude-sonnet-4-6', null)).toEqual({ tokens: 200_000, source: 'table' });
    expect(contextWindowOf('claude-2.0')).toEqual({ tokens: 100_000, source: 'table' });
    expect(contextWindowOf('some-other-model', 0)).toEqual({
      tokens: DEFAULT_CONTEXT_WINDOW,
      source: 'default',
    });
  });
});
