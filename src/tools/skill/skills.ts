/**
 * Skills: folders `.claude/skills/<name>/SKILL.md` in the workspace (YAML front matter with `name`,
 * `description`, optional `allowed-tools`, `context: fork` and `agent`), plus skills an embedding page
 * gives. Loaded fresh on each use, so a skill the agent or the user just wrote is there at once. A
 * malformed SKILL.md is kept as a problem with its reason (listed to the model, refused when called),
 * never dropped silently. Never throws.
 */
import { parse as parseYaml } from 'yaml';
import type { Sandbox } from '../../sandbox/sandbox.ts';

/** Where skills live, relative to the workspace root. */
export const SKILLS_DIR = '.claude/skills';
/** Most skills read from the workspace (a runaway folder must not flood the context). */
export const MAX_SKILLS = 100;
/** Longest SKILL.md read (characters). */
export const MAX_SKILL_CHARS = 100_000;
/** Longest description announced to the model (characters). */
export const MAX_DESCRIPTION_CHARS = 1024;
/** Skill names: lower-case letters, digits and dashes, as Claude Code's. */
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A skill as the page gives it (the embed config), or as SKILL.md parses. */
export interface SkillDefinition {
  name: string;
  description: string;
  /** The instructions (SKILL.md below its front matter). */
  body: string;
  /** Permission rules the skill's turn may run without asking (`Read`, `Bash(git status:*)`). */
  allowedTools?: string[];
  /** Run the skill as a sub-conversation of its own instead of in this one. */
  fork?: boolean;
  /** The agent type a forked skill runs as (default general-purpose). */
  agent?: string;
  /** Where it came from: the SKILL.md path, or 'embed'. */
  source: string;
}

export interface SkillProblem {
  name: string;
  source: string;
  reason: string;
}

export interface LoadedSkills {
  skills: SkillDefinition[];
  problems: SkillProblem[];
}

/** Splits `---\nyaml\n---\nbody`. Null when there is no front matter. */
function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { yaml: m[1], body: text.slice(m[0].length) } : null;
}

function listOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string')
    return value
      .split(/,(?![^(]*\))/)
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim());
  return null;
}

/**
 * Parses one SKILL.md. `folder` is its directory name (the skill's name when the front matter names
 * none). Returns the skill, or the reason it cannot be used.
 */
export function parseSkillFile(
  text: string,
  folder: string,
  source: string,
): { ok: true; skill: SkillDefinition } | { ok: false; reason: string } {
  const parts = splitFrontMatter(text);
  if (!parts) {
    return {
      ok: false,
      reason: 'SKILL.md must start with YAML front matter between --- lines (name, description).',
    };
  }
  let meta: unknown;
  try {
    meta = parseYaml(parts.yaml);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { ok: false, reason: `its front matter is not valid YAML: ${why}` };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return { ok: false, reason: 'its front matter must be a YAML mapping (name: ..., description: ...).' };
  }
  const m = meta as Record<string, unknown>;
  const name = m.name === undefined ? folder : m.name;
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    return {
      ok: false,
      reason: `its name ${JSON.stringify(name)} must be lower-case letters, digits and dashes.`,
    };
  }
  if (typeof m.description !== 'string' || m.description.trim() === '') {
    return { ok: false, reason: 'its front matter has no description (say when the skill should be used).' };
  }
  const allowed = listOf(m['allowed-tools'] ?? m.allowedTools);
  if (allowed === null)
    return { ok: false, reason: 'allowed-tools must be a list of tool rules, or one comma-separated line.' };
  const context = m.context;
  if (context !== undefined && context !== 'fork' && context !== 'inline') {
    return { ok: false, reason: `context must be "fork" or "inline", not ${JSON.stringify(context)}.` };
  }
  if (m.agent !== undefined && typeof m.agent !== 'string')
    return { ok: false, reason: 'agent must be an agent type name.' };
  if (parts.body.trim() === '')
    return { ok: false, reason: 'it has no instructions below its front matter.' };
  return {
    ok: true,
    skill: {
      name,
      description: m.description.trim().slice(0, MAX_DESCRIPTION_CHARS),
      body: parts.body.trim(),
      ...(allowed.length ? { allowedTools: allowed } : {}),
      ...(context === 'fork' ? { fork: true } : {}),
      ...(typeof m.agent === 'string' ? { agent: m.agent } : {}),
      source,
    },
  };
}

/** Checks a skill an embedding page gave; the reason when it cannot be used. */
export function checkGivenSkill(skill: SkillDefinition): string | null {
  if (!SKILL_NAME.test(skill.name)) return 'its name must be lower-case letters, digits and dashes.';
  if (!skill.description?.trim()) return 'it has no description.';
  if (!skill.body?.trim()) return 'it has no instructions.';
  return null;
}

/**
 * The skills of the workspace (sorted by name) and those given by the page (which win over a workspace
 * skill of the same name). Never throws: unreadable or malformed skills become problems.
 */
export async function loadSkills(
  sandbox: Sandbox,
  given: readonly SkillDefinition[] = [],
): Promise<LoadedSkills> {
  const skills = new Map<string, SkillDefinition>();
  const problems: SkillProblem[] = [];
  const dir = `${sandbox.root}/${SKILLS_DIR}`;
  let folders: string[] = [];
  try {
    folders = (await sandbox.readdir(dir))
      .filter((e) => e.type === 'directory')
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_SKILLS);
  } catch {
    folders = [];
  }
  for (const folder of folders) {
    const path = `${dir}/${folder}/SKILL.md`;
    let text: string;
    try {
      text = await sandbox.readFile(path);
    } catch {
      continue; // a folder without SKILL.md is not a skill
    }
    if (text.length > MAX_SKILL_CHARS) {
      problems.push({
        name: folder,
        source: path,
        reason: `SKILL.md is longer than ${MAX_SKILL_CHARS} characters.`,
      });
      continue;
    }
    const parsed = parseSkillFile(text, folder, path);
    if (parsed.ok) skills.set(parsed.skill.name, parsed.skill);
    else problems.push({ name: folder, source: path, reason: parsed.reason });
  }
  for (const skill of given) {
    const reason = checkGivenSkill(skill);
    if (reason) problems.push({ name: String(skill.name), source: 'embed', reason });
    else skills.set(skill.name, { ...skill, source: 'embed' });
  }
  return { skills: [...skills.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), problems };
}

/** The header of the reminder that announces skills (found again in the transcript by it). */
export const SKILLS_REMINDER_HEADER = 'Skills you can load with the Skill tool (name: when to use it):';

/** The announcement of the skills to the model, or null when there are none and no problems. */
export function skillsReminder(loaded: LoadedSkills): string | null {
  if (loaded.skills.length === 0 && loaded.problems.length === 0) return null;
  const lines = [SKILLS_REMINDER_HEADER];
  for (const s of loaded.skills) lines.push(`- ${s.name}: ${s.description}`);
  if (loaded.skills.length === 0) lines.push('(none)');
  if (loaded.problems.length) {
    lines.push('These skill files could not be loaded (tell the user if they ask for them):');
    for (const p of loaded.problems) lines.push(`- ${p.name} (${p.source}): ${p.reason}`);
  }
  return lines.join('\n');
}

/**
 * The skills as loaded at the start of the turn: what was announced to the model, and what the user is
 * asked about. The session refreshes it before each prompt; the Skill tool reads a skill's file again
 * when it runs, but never grants more allowed tools than the version here listed.
 */
export interface SkillCatalog {
  /** Skills the embedding page gives. */
  given(): readonly SkillDefinition[];
  /** Loads the skills now and remembers them. Never throws. */
  refresh(sandbox: Sandbox): Promise<LoadedSkills>;
  /** The skills as last loaded (undefined before the first refresh). */
  current(): LoadedSkills | undefined;
}

export function createSkillCatalog(given: () => readonly SkillDefinition[] = () => []): SkillCatalog {
  let last: LoadedSkills | undefined;
  return {
    given,
    async refresh(sandbox) {
      last = await loadSkills(sandbox, given());
      return last;
    },
    current: () => last,
  };
}

/** The skills announcement last made in `messages` (its reminder text), or undefined. */
export function lastSkillsAnnouncement(
  messages: readonly { role: string; content: string | readonly { type: string; text?: string }[] }[],
): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const text = m.content[j].text;
      if (typeof text !== 'string' || !text.includes(SKILLS_REMINDER_HEADER)) continue;
      return text.replace(/^<system-reminder>\n/, '').replace(/\n<\/system-reminder>$/, '');
    }
  }
  return undefined;
}

/**
 * The reminder to send with the next prompt: the skills as loaded now, unless the transcript already
 * announced exactly these (the announcement lives in the messages, so tools and system stay byte-stable).
 */
export function skillsAnnouncement(
  loaded: LoadedSkills,
  messages: Parameters<typeof lastSkillsAnnouncement>[0],
): string | null {
  const now = skillsReminder(loaded);
  const before = lastSkillsAnnouncement(messages);
  if (now === null) return before === undefined ? null : `${SKILLS_REMINDER_HEADER}\n(none)`;
  return now === before ? null : now;
}
