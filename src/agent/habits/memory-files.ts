/**
 * Project memory for the session: the workspace's CLAUDE.md and .claude/CLAUDE.md (read at the start of
 * every turn, so an edit takes effect with the next prompt), plus text an embedding page supplies.
 * Never throws: a file that cannot be read is left out with a problem named.
 */
import { MEMORY_FILES } from '../../core/constants.ts';
import { messageOf } from '../../core/errors.ts';
import type { MemorySource } from '../../core/memory.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';

/** The label of memory an embedding page supplied. */
export const EMBED_MEMORY_LABEL = 'the memory the embedding page supplied';

export interface MemoryRead {
  sources: MemorySource[];
  /** Files that exist but could not be read. */
  problems: string[];
}

/** Reads the memory files of the workspace (and the page's memory, first). */
export async function readMemory(
  sandbox: Pick<Sandbox, 'exists' | 'readFile' | 'stat'>,
  embedded?: string | null,
): Promise<MemoryRead> {
  const out: MemoryRead = { sources: [], problems: [] };
  if (embedded?.trim()) out.sources.push({ label: EMBED_MEMORY_LABEL, text: embedded });
  for (const path of MEMORY_FILES) {
    try {
      if (!(await sandbox.exists(path))) continue;
      if ((await sandbox.stat(path)).type !== 'file') continue;
      out.sources.push({ label: path, text: await sandbox.readFile(path) });
    } catch (err) {
      out.problems.push(`${path} could not be read: ${messageOf(err)}`);
    }
  }
  return out;
}
