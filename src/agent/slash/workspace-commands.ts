/**
 * Commands from the workspace: project commands (`.claude/commands`, any depth, `.md` files) (a subfolder makes a
 * namespace: `.claude/commands/git/commit.md` is `/git:commit`) and skills `.claude/skills/<name>/SKILL.md`,
 * as Claude Code reads them. The optional YAML-style front matter gives `description` and
 * `argument-hint` (skills: `name`, `description`). Read afresh each time the menu opens, so a new file
 * shows at once. Never throws: a file that cannot be read is skipped.
 */

import type { Sandbox } from '../../sandbox/sandbox.ts';
import type { PromptCommand } from './types.ts';

export const COMMANDS_DIR = '.claude/commands';
export const SKILLS_DIR = '.claude/skills';
/** Most workspace commands read (a folder with thousands of files costs one scan, not a hang). */
const MAX_WORKSPACE_COMMANDS = 500;

/** Front matter (`---` lines at the top) as key/value pairs, and the body after it. */
export function splitFrontMatter(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    meta[kv[1].toLowerCase()] = kv[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return { meta, body: text.slice(m[0].length) };
}

/** The first non-empty line of a body, as a fallback description. */
function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim() !== '') ?? '';
  return line
    .replace(/^#+\s*/, '')
    .trim()
    .slice(0, 100);
}

async function filesUnder(
  sandbox: Pick<Sandbox, 'root' | 'exists' | 'listFiles'>,
  dir: string,
): Promise<string[]> {
  const abs = `${sandbox.root}/${dir}`;
  try {
    if (!(await sandbox.exists(abs))) return [];
    return (await sandbox.listFiles({ root: abs })).slice(0, MAX_WORKSPACE_COMMANDS);
  } catch {
    return [];
  }
}

/** Every project command and skill of the workspace, sorted by name. */
export async function loadWorkspaceCommands(
  sandbox: Pick<Sandbox, 'root' | 'exists' | 'listFiles' | 'readFile'>,
): Promise<PromptCommand[]> {
  const out: PromptCommand[] = [];
  const seen = new Set<string>();
  const commandsRoot = `${sandbox.root}/${COMMANDS_DIR}/`;
  for (const file of await filesUnder(sandbox, COMMANDS_DIR)) {
    if (!file.endsWith('.md')) continue;
    const name = file.slice(commandsRoot.length, -3).split('/').join(':');
    if (!/^[A-Za-z0-9][A-Za-z0-9_:.-]*$/.test(name) || seen.has(name)) continue;
    try {
      const { meta, body } = splitFrontMatter(await sandbox.readFile(file));
      seen.add(name);
      out.push({
        name,
        description: meta.description || firstLine(body) || 'Project command',
        ...(meta['argument-hint'] ? { argumentHint: meta['argument-hint'] } : {}),
        source: 'project',
        origin: file.slice(sandbox.root.length + 1),
        body,
      });
    } catch {}
  }
  const skillsRoot = `${sandbox.root}/${SKILLS_DIR}/`;
  for (const file of await filesUnder(sandbox, SKILLS_DIR)) {
    const rel = file.slice(skillsRoot.length).split('/');
    if (rel.length !== 2 || rel[1] !== 'SKILL.md') continue;
    try {
      const { meta, body } = splitFrontMatter(await sandbox.readFile(file));
      const name = (meta.name || rel[0]).trim();
      if (!/^[A-Za-z0-9][A-Za-z0-9_:.-]*$/.test(name) || seen.has(name)) continue;
      seen.add(name);
      out.push({
        name,
        description: meta.description || firstLine(body) || 'Skill',
        source: 'skill',
        origin: file.slice(sandbox.root.length + 1),
        body,
      });
    } catch {}
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** What a skill command sends: the skill's instructions, then what the user asked for. */
export function skillPrompt(command: PromptCommand, args: string): string {
  const ask = args ? `\n\nThe user's request: ${args}` : '';
  return `Use the skill "${command.name}" (from ${command.origin ?? SKILLS_DIR}). Its instructions:\n\n${command.body.trim()}${ask}`;
}
