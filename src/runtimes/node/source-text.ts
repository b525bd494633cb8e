/**
 * A module's source as the engine evaluates it: UTF-8 decoded, a BOM dropped, a `#!` line kept as a
 * comment (so line numbers do not move), and TypeScript's types stripped (as Node 23+ runs `.ts`
 * files) by sucrase, which keeps lines in place so stack traces point at the file the user wrote.
 */
import { transform } from 'sucrase';
import type { MemFs } from '../shared/mem-fs.ts';

const decoder = new TextDecoder();

export function loadSourceText(fs: MemFs, path: string, typescript: boolean): string {
  return prepareSource(decoder.decode(fs.readFile(path)), path, typescript);
}

export function prepareSource(text: string, path: string, typescript: boolean): string {
  let source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.startsWith('#!')) source = `//${source.slice(2)}`;
  if (!typescript) return source;
  return transform(source, {
    transforms: ['typescript'],
    disableESTransforms: true,
    preserveDynamicImport: true,
    keepUnusedImports: false,
    filePath: path,
  }).code;
}
