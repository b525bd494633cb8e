/**
 * Files programs write under names made from their operands and options: gzip's and gunzip's FILE with
 * or without its suffix, split's PREFIX with its generated and additional suffixes (read by programs.ts).
 */
import type { ParsedArgs } from './options.ts';
import type { ShellWord } from './types.ts';

/**
 * The files gzip and gunzip write (src/sandbox/gzip-commands.ts): FILE and its suffix (`.gz`, or -S's:
 * `gzip -S /../config/prod.env notes.txt` writes config/prod.env), FILE without it for gunzip (`gunzip
 * prod.env.gz` writes prod.env). A run-time suffix, or one gunzip takes off a path it cannot read
 * lexically, names a run-time file.
 */
export function gzipOutputs(name: string, a: ParsedArgs, ops: readonly ShellWord[]): ShellWord[] {
  if (name !== 'gzip' && name !== 'gunzip') return [];
  const has = (...flags: string[]) => flags.some((f) => a.flags.has(f));
  if (has('-c', '--stdout', '--to-stdout', '-t', '--test')) return [];
  const decompress = name === 'gunzip' || has('-d', '--decompress', '--uncompress');
  const given = a.values.filter((v) => v.option === '-S' || v.option === '--suffix').pop()?.word;
  const suffix: ShellWord = given ?? { text: '.gz', dynamic: false, glob: false };
  return ops.flatMap((w) => {
    if (w.text === '-' && !w.dynamic) return [];
    const file = w.text.replace(/\/+$/, '');
    const unknown = { text: `${file}…`, dynamic: true, glob: false };
    if (w.dynamic || suffix.dynamic) return [unknown];
    if (!decompress) return [{ ...w, text: `${file}${suffix.text}`, glob: w.glob || suffix.glob }];
    if (suffix.text.includes('/') || /(^|\/)\.\.?(\/|$)/.test(file)) return [unknown];
    return file.endsWith(suffix.text) ? [{ ...w, text: file.slice(0, -suffix.text.length) }] : [];
  });
}

/**
 * The files split writes: PREFIX, a generated suffix, then --additional-suffix's (`PREFIXaaSUFFIX`). A
 * suffix with a `/` names a path below the first name, which its `..` may leave: just-bash resolves the
 * name lexically, so `split --additional-suffix=/../config/prod.env notes.txt` writes config/prod.env.
 */
export function splitOutputs(prefix: ShellWord, a: ParsedArgs): ShellWord[] {
  const given = a.values.filter((v) => v.option === '--additional-suffix').pop()?.word;
  if (prefix.dynamic || given?.dynamic) return [{ text: `${prefix.text}…`, dynamic: true, glob: false }];
  const suffix = given?.text ?? '';
  const glob = { ...prefix, text: `${prefix.text}*${suffix}`, glob: true };
  const slash = suffix.indexOf('/');
  if (slash < 0) return [glob];
  // The first name (PREFIX's last name, the generated suffix, SUFFIX up to its `/`) is never `.` or `..`;
  // where a `..` below it leaves it, what follows is a path from PREFIX's directory.
  const names = suffix.slice(slash + 1).split('/');
  let depth = 1;
  for (let k = 0; k < names.length; k++) {
    if (names[k] === '..') depth--;
    else if (names[k] !== '' && names[k] !== '.') depth++;
    if (depth > 0) continue;
    const dir = prefix.text.slice(0, prefix.text.lastIndexOf('/') + 1);
    const rest = names
      .slice(k + 1)
      .join('/')
      .replace(/^\/+/, '');
    return [glob, { ...prefix, text: `${dir}${rest || '.'}`, glob: prefix.glob || (given?.glob ?? false) }];
  }
  return [glob];
}
