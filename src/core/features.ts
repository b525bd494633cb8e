/**
 * Compile-time feature flags. Each `__FEATURE_X__` is replaced by a boolean literal by Vite `define`
 * (see vite.config.ts and `featureDefines`), so `if (__FEATURE_X__) { ... }` branches of a disabled flag
 * are removed from the bundle together with everything only they import.
 *
 * In Node (vitest), vitest.config.ts defines them too; `features()` reports the values compiled in.
 */

export type FeatureName = 'POWERSHELL';

/** Flag values for a build mode. Standard builds ('development', 'production') ship every gate off. */
export function featureDefines(
  mode: string,
  env: Record<string, string | undefined> = {},
): Record<string, string> {
  const on = (name: FeatureName): boolean => {
    const fromEnv = env[`TABCODE_FEATURE_${name}`];
    if (fromEnv !== undefined) return fromEnv === '1' || fromEnv === 'true';
    return mode === `feature-${name.toLowerCase()}`;
  };
  return { __FEATURE_POWERSHELL__: JSON.stringify(on('POWERSHELL')) };
}

/** The flags this bundle was compiled with. */
export function features(): Record<FeatureName, boolean> {
  return { POWERSHELL: __FEATURE_POWERSHELL__ };
}
