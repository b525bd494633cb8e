/**
 * Module resolution the way Node does it, over the worker's file system: builtins (`node:` prefixes),
 * relative and absolute paths, `node_modules` lookup up the tree, package.json `exports` (conditions,
 * subpaths, `*` patterns), `imports` (`#name`), `main`, index files, and the module format (`type`,
 * `.mjs`/`.cjs`/`.json`, TypeScript extensions).
 *
 * `require` (CommonJS) tries extensions and index files; `import` (ESM) takes the path as written, as
 * Node does. Failures are ResolveErrors with Node's codes and messages.
 */
import type { MemFs } from '../shared/mem-fs.ts';

export type ModuleFormat = 'commonjs' | 'module' | 'json' | 'builtin';

export interface Resolved {
  /** An absolute path, or `node:<name>` for a builtin. */
  path: string;
  format: ModuleFormat;
  /** TypeScript source: types are stripped before it runs. */
  typescript?: boolean;
}

export type ResolveKind = 'require' | 'import';

export class ResolveError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'Error';
    this.code = code;
  }
}

/** Builtins that exist only with the `node:` prefix (as in Node). */
const PREFIX_ONLY = new Set(['test', 'test/reporters', 'sqlite', 'sea']);
const CJS_EXTENSIONS = ['.js', '.json', '.cjs', '.mjs'];
/** A statement only an ES module can have: `import …`/`export …` at the start of a line, or import.meta. */
const MODULE_SYNTAX =
  /^\s*(import\s*[\w{*'"]|export\s+(\{|\*|default\b|const\b|let\b|var\b|function\b|async\b|class\b))|\bimport\.meta\b/m;
const TS_EXTENSIONS = ['.ts', '.mts', '.cts'];

export interface ResolverOptions {
  fs: MemFs;
  /** Builtin names a program may load (without `node:`). */
  builtins: ReadonlySet<string>;
}

export class Resolver {
  private readonly fs: MemFs;
  private readonly builtins: ReadonlySet<string>;
  /** package.json contents by directory (null: none there); cleared per run. */
  private readonly packages = new Map<string, PackageJson | null>();

  constructor(options: ResolverOptions) {
    this.fs = options.fs;
    this.builtins = options.builtins;
  }

  clearCache(): void {
    this.packages.clear();
  }

  /**
   * Resolves `specifier` imported or required from `parent` (an absolute path; for the entry point a
   * path inside the cwd). Throws ResolveError.
   */
  resolve(specifier: string, parent: string, kind: ResolveKind): Resolved {
    if (specifier.startsWith('node:')) {
      const name = specifier.slice(5);
      if (this.builtins.has(name)) return { path: `node:${name}`, format: 'builtin' };
      throw new ResolveError('ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${specifier}`);
    }
    if (this.builtins.has(specifier) && !PREFIX_ONLY.has(specifier)) {
      return { path: `node:${specifier}`, format: 'builtin' };
    }
    const base = dirnameOf(parent);
    if (specifier.startsWith('file://'))
      return this.fromPath(fileUrlToPath(specifier), specifier, parent, kind);
    if (
      specifier.startsWith('/') ||
      specifier.startsWith('./') ||
      specifier.startsWith('../') ||
      specifier === '.' ||
      specifier === '..'
    ) {
      const abs = normalizePath(specifier.startsWith('/') ? specifier : `${base}/${specifier}`);
      return this.fromPath(abs, specifier, parent, kind);
    }
    if (specifier.startsWith('#')) return this.fromImports(specifier, parent, kind);
    return this.fromNodeModules(specifier, parent, kind);
  }

  /** The module format of an existing file, by extension and the nearest package.json `type`. */
  formatOf(path: string): Resolved {
    const ext = extOf(path);
    const typescript = TS_EXTENSIONS.includes(ext);
    if (ext === '.json') return { path, format: 'json' };
    if (ext === '.mjs' || ext === '.mts') return { path, format: 'module', typescript };
    if (ext === '.cjs' || ext === '.cts') return { path, format: 'commonjs', typescript };
    if (ext === '.js' || ext === '.ts') {
      const type = this.nearestPackage(dirnameOf(path))?.json.type;
      if (type === 'module') return { path, format: 'module', typescript };
      if (type === 'commonjs') return { path, format: 'commonjs', typescript };
      // No "type": Node 22 runs a file with module syntax as an ES module (syntax detection).
      return { path, format: this.hasModuleSyntax(path) ? 'module' : 'commonjs', typescript };
    }
    return { path, format: 'commonjs' };
  }

  private fromPath(abs: string, specifier: string, parent: string, kind: ResolveKind): Resolved {
    const found = kind === 'require' ? this.tryCjsPath(abs) : this.tryEsmPath(abs);
    if (found) return this.formatOf(found);
    if (kind === 'import') {
      const hint = this.tryCjsPath(abs);
      const suggestion = hint ? ` Did you mean to import "${relativeHint(specifier, abs, hint)}"?` : '';
      throw new ResolveError(
        'ERR_MODULE_NOT_FOUND',
        `Cannot find module '${abs}' imported from ${parent}${suggestion}`,
      );
    }
    throw notFound(specifier, parent);
  }

  private tryEsmPath(abs: string): string | undefined {
    if (this.isFile(abs)) return this.real(abs);
    if (this.isDir(abs)) {
      // Node's ESM refuses directory imports; say so rather than "not found".
      throw new ResolveError(
        'ERR_UNSUPPORTED_DIR_IMPORT',
        `Directory import '${abs}' is not supported resolving ES modules`,
      );
    }
    return undefined;
  }

  private tryCjsPath(abs: string): string | undefined {
    if (this.isFile(abs)) return this.real(abs);
    for (const ext of CJS_EXTENSIONS) if (this.isFile(abs + ext)) return this.real(abs + ext);
    if (this.isDir(abs)) {
      const pkg = this.readPackage(abs);
      if (pkg?.main) {
        const main = normalizePath(`${abs}/${pkg.main}`);
        if (this.isFile(main)) return this.real(main);
        for (const ext of CJS_EXTENSIONS) if (this.isFile(main + ext)) return this.real(main + ext);
        for (const ext of CJS_EXTENSIONS)
          if (this.isFile(`${main}/index${ext}`)) return this.real(`${main}/index${ext}`);
      }
      for (const ext of CJS_EXTENSIONS)
        if (this.isFile(`${abs}/index${ext}`)) return this.real(`${abs}/index${ext}`);
    }
    return undefined;
  }

  private fromNodeModules(specifier: string, parent: string, kind: ResolveKind): Resolved {
    const { name, subpath } = splitPackageSpecifier(specifier);
    if (!name) throw new ResolveError('ERR_INVALID_MODULE_SPECIFIER', `Invalid module "${specifier}"`);
    // A package may import itself by name when its package.json has `exports`.
    const own = this.nearestPackage(dirnameOf(parent));
    if (own && own.json.name === name && own.json.exports !== undefined) {
      return this.fromExports(own.dir, own.json, subpath, specifier, parent, kind);
    }
    for (let dir = dirnameOf(parent); ; dir = dirnameOf(dir)) {
      if (!dir.endsWith('/node_modules')) {
        const pkgDir = `${dir === '/' ? '' : dir}/node_modules/${name}`;
        if (this.isDir(pkgDir)) {
          const pkg = this.readPackage(pkgDir);
          if (pkg?.exports !== undefined)
            return this.fromExports(pkgDir, pkg, subpath, specifier, parent, kind);
          const target = subpath === '.' ? pkgDir : `${pkgDir}/${subpath.slice(2)}`;
          const found =
            kind === 'import' && subpath !== '.' ? this.tryEsmPath(target) : this.tryCjsPath(target);
          if (found) return this.formatOf(found);
          if (kind === 'import' && subpath === '.') {
            const main = this.tryCjsPath(pkgDir);
            if (main) return this.formatOf(main);
          }
          throw kind === 'import'
            ? new ResolveError(
                'ERR_MODULE_NOT_FOUND',
                `Cannot find module '${target}' imported from ${parent}`,
              )
            : notFound(specifier, parent);
        }
      }
      if (dir === '/') break;
    }
    throw kind === 'import'
      ? new ResolveError('ERR_MODULE_NOT_FOUND', `Cannot find package '${name}' imported from ${parent}`)
      : notFound(specifier, parent);
  }

  private fromExports(
    pkgDir: string,
    pkg: PackageJson,
    subpath: string,
    specifier: string,
    parent: string,
    kind: ResolveKind,
  ): Resolved {
    const conditions = kind === 'require' ? ['require', 'node', 'default'] : ['import', 'node', 'default'];
    const target = matchExports(pkg.exports, subpath, conditions);
    if (target === undefined) {
      throw new ResolveError(
        'ERR_PACKAGE_PATH_NOT_EXPORTED',
        subpath === '.'
          ? `No "exports" main defined in ${pkgDir}/package.json`
          : `Package subpath '${subpath}' is not defined by "exports" in ${pkgDir}/package.json`,
      );
    }
    const abs = normalizePath(`${pkgDir}/${target}`);
    if (this.isFile(abs)) return this.formatOf(this.real(abs));
    throw kind === 'import'
      ? new ResolveError('ERR_MODULE_NOT_FOUND', `Cannot find module '${abs}' imported from ${parent}`)
      : notFound(specifier, parent);
  }

  private fromImports(specifier: string, parent: string, kind: ResolveKind): Resolved {
    const own = this.nearestPackage(dirnameOf(parent));
    const conditions = kind === 'require' ? ['require', 'node', 'default'] : ['import', 'node', 'default'];
    const target = own?.json.imports
      ? matchExports(own.json.imports, specifier, conditions, true)
      : undefined;
    if (!own || target === undefined) {
      throw new ResolveError(
        'ERR_PACKAGE_IMPORT_NOT_DEFINED',
        `Package import specifier "${specifier}" is not defined${own ? ` in package ${own.dir}/package.json` : ''} imported from ${parent}`,
      );
    }
    if (!target.startsWith('./')) return this.resolve(target, parent, kind);
    const abs = normalizePath(`${own.dir}/${target}`);
    if (this.isFile(abs)) return this.formatOf(this.real(abs));
    throw notFound(specifier, parent);
  }

  private nearestPackage(dir: string): { dir: string; json: PackageJson } | undefined {
    for (let d = dir; ; d = dirnameOf(d)) {
      const json = this.readPackage(d);
      if (json) return { dir: d, json };
      if (d === '/' || d.endsWith('/node_modules')) return undefined;
    }
  }

  private readPackage(dir: string): PackageJson | null {
    const cached = this.packages.get(dir);
    if (cached !== undefined) return cached;
    let json: PackageJson | null = null;
    const file = `${dir === '/' ? '' : dir}/package.json`;
    if (this.isFile(file)) {
      try {
        json = JSON.parse(new TextDecoder().decode(this.fs.readFile(file))) as PackageJson;
        if (typeof json !== 'object' || json === null) json = null;
      } catch {
        throw new ResolveError('ERR_INVALID_PACKAGE_CONFIG', `Invalid package config ${file}.`);
      }
    }
    this.packages.set(dir, json);
    return json;
  }

  private hasModuleSyntax(path: string): boolean {
    try {
      const text = new TextDecoder().decode(this.fs.readFile(path));
      return MODULE_SYNTAX.test(text) && !/\b(require\s*\(|module\.exports|exports\.\w+\s*=)/.test(text);
    } catch {
      return false;
    }
  }

  private isFile(path: string): boolean {
    try {
      return this.fs.stat(path).type === 'file';
    } catch {
      return false;
    }
  }

  private isDir(path: string): boolean {
    try {
      return this.fs.stat(path).type === 'dir';
    } catch {
      return false;
    }
  }

  /** Node resolves symlinks to their real path (so a linked package's own imports work). */
  private real(path: string): string {
    try {
      return this.fs.realpath(path);
    } catch {
      return path;
    }
  }
}

interface PackageJson {
  name?: string;
  main?: string;
  type?: string;
  exports?: unknown;
  imports?: unknown;
}

/**
 * The target of `subpath` in an `exports` (or `imports`) field under `conditions`; undefined when the
 * field does not export it.
 */
export function matchExports(
  field: unknown,
  subpath: string,
  conditions: string[],
  isImports = false,
): string | undefined {
  let map: Record<string, unknown>;
  if (typeof field === 'string' || Array.isArray(field) || !isSubpathMap(field, isImports)) {
    if (subpath !== '.') return undefined;
    return pickTarget(field, conditions, undefined);
  }
  map = field as Record<string, unknown>;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*'))
    return pickTarget(map[subpath], conditions, undefined);
  // The longest pattern prefix wins, as Node orders them.
  let best: { key: string; star: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length) {
      if (!best || prefix.length > best.key.indexOf('*')) {
        best = { key, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
      }
    }
  }
  return best ? pickTarget(map[best.key], conditions, best.star) : undefined;
}

function isSubpathMap(field: unknown, isImports: boolean): boolean {
  if (typeof field !== 'object' || field === null) return false;
  if (isImports) return true;
  const keys = Object.keys(field);
  return keys.length > 0 && keys.every((k) => k.startsWith('.'));
}

function pickTarget(value: unknown, conditions: string[], star: string | undefined): string | undefined {
  if (typeof value === 'string') return star === undefined ? value : value.replaceAll('*', star);
  if (Array.isArray(value)) {
    for (const item of value) {
      const t = pickTarget(item, conditions, star);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (conditions.includes(key)) {
        const t = pickTarget(inner, conditions, star);
        if (t !== undefined) return t;
      }
    }
  }
  return undefined;
}

function splitPackageSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const nameParts = specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1);
  const name = nameParts.join('/');
  if (specifier.startsWith('@') && nameParts.length < 2) return { name: '', subpath: '.' };
  const rest = parts.slice(nameParts.length).join('/');
  return { name, subpath: rest ? `./${rest}` : '.' };
}

function notFound(specifier: string, parent: string): ResolveError {
  const err = new ResolveError(
    'MODULE_NOT_FOUND',
    `Cannot find module '${specifier}'\nRequire stack:\n- ${parent}`,
  );
  return err;
}

function relativeHint(specifier: string, abs: string, found: string): string {
  return specifier.startsWith('/') ? found : specifier + found.slice(abs.length);
}

export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

export function dirnameOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function extOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}

export function fileUrlToPath(url: string): string {
  return decodeURIComponent(url.replace(/^file:\/\//, '').replace(/[?#].*$/, ''));
}

export function pathToFileUrl(path: string): string {
  return `file://${path
    .split('/')
    .map((p) => encodeURIComponent(p))
    .join('/')}`;
}
