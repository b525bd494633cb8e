/** Behaviour-altering defaults of tabcode's npm, in one place. */

/** The registry when neither `--registry`, `npm_config_registry` nor an `.npmrc` names one. */
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

/** What `npm --version` prints: the npm release whose behaviour this module follows. */
export const NPM_VERSION = '10.9.2';

/** The Node.js version npm reports in `npm_config_user_agent` (the sandbox's `node` says the same). */
export const NODE_VERSION = 'v22.12.0';

/** The platform packages' `os` / `cpu` fields are checked against (optional dependencies elsewhere are skipped). */
export const TARGET_OS = 'linux';
export const TARGET_CPU = 'x64';

/** `npm i <name>` saves `^x.y.z` (npm's `save-prefix`); `--save-exact` saves `x.y.z`. */
export const SAVE_PREFIX = '^';

/** Accept header for packuments: the abbreviated document when the registry has one. */
export const PACKUMENT_ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

/** Retries of a registry request that failed on the network or with a 5xx / 429 (npm: 2). */
export const FETCH_RETRIES = 2;
/** Wait before retry n is n × this. */
export const FETCH_RETRY_DELAY_MS = 150;
/** A registry request that has not answered after this long fails. */
export const FETCH_TIMEOUT_MS = 60_000;
/** Packuments and tarballs fetched at the same time. */
export const FETCH_CONCURRENCY = 8;

/** How long `createPackumentCache()` keeps a registry document (npm's own cache revalidates after 5 min). */
export const PACKUMENT_TTL_MS = 5 * 60_000;

/** Largest unpacked size of one tarball (a guard against decompression bombs). */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
/** Most entries in one tarball. */
export const MAX_TAR_ENTRIES = 100_000;

/** IndexedDB database (its purpose: `<namespace>-npm`, see core/storage-namespace.ts) and object store of the tarball cache. */
export const CACHE_DB_PURPOSE = 'npm';
export const CACHE_STORE_NAME = 'tarballs';

/** Exit code when Esc or a timeout stopped npm (a shell's 128 + SIGINT). */
export const ABORTED_EXIT_CODE = 130;
