/** Reading a typed slash command. Pure. */

export interface ParsedCommand {
  name: string;
  args: string;
}

/**
 * The command of a prompt that starts with `/name`, or null. A first word with another `/` in it is a
 * path (`/src/app.ts is broken`), not a command.
 */
export function parseSlashCommand(text: string): ParsedCommand | null {
  const m = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9_:.-]*$/.test(m[1])) return null;
  return { name: m[1], args: (m[2] ?? '').trim() };
}

/** Words of an argument string ("double" or 'single' quotes keep spaces). */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** A command body with `$ARGUMENTS` and `$1`…`$9` filled in; arguments with no placeholder are appended. */
export function fillArguments(body: string, args: string): string {
  const words = splitWords(args);
  let used = false;
  const filled = body
    .replace(/\$ARGUMENTS\b/g, () => {
      used = true;
      return args;
    })
    .replace(/\$([1-9])\b/g, (_, d: string) => {
      used = true;
      return words[Number(d) - 1] ?? '';
    });
  return !used && args ? `${filled.trimEnd()}\n\nArguments: ${args}` : filled;
}

/** How close a typed name is to a command (for "did you mean"): the edit distance. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length];
}

/** The hint for an unknown command: the closest names, and /help. */
export function unknownCommandHint(name: string, known: readonly string[]): string {
  const close = known
    .map((k) => ({
      k,
      d: Math.min(editDistance(name, k), k.startsWith(name) ? 0 : Number.POSITIVE_INFINITY),
    }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, 3)
    .map((c) => `/${c.k}`);
  const suggestion = close.length ? ` Did you mean ${close.join(', ')}?` : '';
  return `Unknown command /${name}: nothing was sent.${suggestion} Type /help for the commands.`;
}
