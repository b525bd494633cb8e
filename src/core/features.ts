/**
 * Compile-time feature flags. Each `__FEATURE_X__` is replaced by a boolean literal by Vite `define`
 * (see vite.config.ts and `featureDefines`), so `if (__FEATURE_X__) { ... }` branches of a disabled flag
 * are removed from the bundle together with everything only they import.
 *
 * In Node (vitest), vitest.config.ts defines them too; `features()` reports the values compiled in.
 */

export type FeatureName = 'POWERSHELL' | 'PYTHON' | 'LSP';

/**
 * Gates on in every standard build; a build turns one off with the mode `no-<name>` (e.g.
 * `vite build --mode no-python`) or `TABCODE_FEATURE_<NAME>=0`.
 */
const ON_BY_DEFAULT: ReadonlySet<FeatureName> = new Set(['PYTHON']);

/**
 * Flag values for a build mode. Standard builds ('development', 'production', 'test') have the gates
 * of ON_BY_DEFAULT on and every other gate off; `feature-<name>` turns a gate on, `no-<name>` off, and
 * `TABCODE_FEATURE_<NAME>` (1/true or 0/false) overrides both.
 */
export function featureDefines(
  mode: string,
  env: Record<string, string | undefined> = {},
): Record<string, string> {
  const on = (name: FeatureName): boolean => {
    const fromEnv = env[`TABCODE_FEATURE_${name}`];
    if (fromEnv !== undefined) return fromEnv === '1' || fromEnv === 'true';
    if (ON_BY_DEFAULT.has(name)) return mode !== `no-${name.toLowerCase()}`;
    return mode === `feature-${name.toLowerCase()}`;
  };
  return {
    __FEATURE_POWERSHELL__: JSON.stringify(on('POWERSHELL')),
    __FEATURE_PYTHON__: JSON.stringify(on('PYTHON')),
    __FEATURE_LSP__: JSON.stringify(on('LSP')),
  };
}

/** The flags this bundle was compiled with. */
export function features(): Record<FeatureName, boolean> {
  return { POWERSHELL: __FEATURE_POWERSHELL__, PYTHON: __FEATURE_PYTHON__, LSP: __FEATURE_LSP__ };
}
