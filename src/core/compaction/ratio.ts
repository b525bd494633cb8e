/**
 * The auto-compaction threshold of a setting, on its own: the page reads it (the context meter) without
 * importing the compaction machinery, which brings the API client with it.
 */
import { DEFAULT_AUTO_COMPACT_RATIO, MAX_AUTO_COMPACT_RATIO, MIN_AUTO_COMPACT_RATIO } from '../constants.ts';

/** The threshold ratio of a setting, kept within the accepted range. Never throws. */
export function autoCompactRatio(settings: { autoCompactRatio?: number }): number {
  const r = settings.autoCompactRatio ?? DEFAULT_AUTO_COMPACT_RATIO;
  if (!Number.isFinite(r)) return DEFAULT_AUTO_COMPACT_RATIO;
  return Math.min(MAX_AUTO_COMPACT_RATIO, Math.max(MIN_AUTO_COMPACT_RATIO, r));
}
