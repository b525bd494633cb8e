/**
 * Node 20 shim for `@modelcontextprotocol/conformance`, which imports `globSync` from `fs` (added in
 * Node 22). Preloaded with `node --import`, before any ES module asks for `fs`: the ES module facade
 * of a builtin takes its export names from the builtin's properties when it is first imported, so the
 * function added here becomes a named export. On Node 22 and later it changes nothing. The package on
 * disk is never touched.
 *
 * The suite uses globSync only to find `checks.json` files in a results folder (its tier-check
 * command); this covers that use: a pattern matched with path.matchesGlob against every file under
 * `cwd`, returned as relative paths.
 */
// No `import` of fs or path here: an ES import would create the facade before globSync exists.
const fs = process.getBuiltinModule('fs');
const { matchesGlob } = process.getBuiltinModule('path');

if (typeof fs.globSync !== 'function') {
  fs.globSync = function globSync(pattern, options = {}) {
    const cwd = options.cwd ? String(options.cwd) : process.cwd();
    const patterns = Array.isArray(pattern) ? pattern : [pattern];
    const entries = fs.readdirSync(cwd, { recursive: true, withFileTypes: false });
    return entries.map((entry) => String(entry)).filter((path) => patterns.some((p) => matchesGlob(path, p)));
  };
}
