/// <reference types="vite/client" />

/** Compile-time feature flags, set by Vite `define` per build mode (see src/core/features.ts). */
declare const __FEATURE_POWERSHELL__: boolean;
/** python3 in the just-bash sandbox (Pyodide): on in standard builds, off with `--mode no-python`. */
declare const __FEATURE_PYTHON__: boolean;
/**
 * The LSP tool and diagnostics after edits (a TypeScript language service in a worker): off in
 * standard builds, on with `--mode feature-lsp` or TABCODE_FEATURE_LSP=1.
 */
declare const __FEATURE_LSP__: boolean;
/** True in `vite dev` when ANTHROPIC_API_KEY is set: the page talks to /api/anthropic and the server adds the key. */
declare const __TABCODE_DEV_PROXY__: boolean;
