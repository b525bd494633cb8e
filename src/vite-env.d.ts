/// <reference types="vite/client" />

/** Compile-time feature flags, set by Vite `define` per build mode (see src/core/features.ts). */
declare const __FEATURE_POWERSHELL__: boolean;
