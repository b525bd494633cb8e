/** The highlight language of a file, from its name (no grammar is loaded here). */

const BY_EXTENSION: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  css: 'css',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  xml: 'xml',
  sh: 'bash',
  bash: 'bash',
  py: 'python',
  yml: 'yaml',
  yaml: 'yaml',
  diff: 'diff',
  patch: 'diff',
};

export function languageOfPath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1)] : undefined;
}
