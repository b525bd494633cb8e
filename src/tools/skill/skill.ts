/**
 * Skill: loads a skill's instructions (SKILL.md in the workspace, or given by the embedding page).
 * Inline skills return the body as `newMessages` (a user message after the result) and a
 * `contextModifier` that lets the skill's allowed tools run without asking for the rest of the turn.
 * A skill marked `context: fork` runs as a sub-conversation through the same lazy import as Agent.
 *
 * Granting tools is a permission: a skill with allowed-tools asks the user first, naming them, and only
 * the tools listed when the turn began (the catalog) are ever granted, so a SKILL.md written during the
 * turn cannot widen what the user approved.
 */
import { z } from 'zod';
import type { MessageParam } from '../../core/messages.ts';
import { parseRule } from '../../core/permissions/rules.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { DEFAULT_AGENT_TYPE, findAgentType, subagentTools } from '../agent/agent-types.ts';
import promptText from './prompt.md?raw';
import { createSkillCatalog, loadSkills, type SkillCatalog, type SkillDefinition } from './skills.ts';

const inputSchema = z.strictObject({
  skill: z.string().describe('The name of the skill to load (as the skills reminder lists it)'),
  args: z.string().optional().describe("Optional arguments for the skill (the user's details)"),
});

export type SkillInput = z.infer<typeof inputSchema>;

export interface SkillOutput {
  name: string;
  source: string;
  /** Allowed-tools rules in force for the rest of the turn. */
  allowedTools: string[];
  /** Entries of allowed-tools that are not granted (unparseable, or not listed when the turn began). */
  ignoredRules: string[];
  forked: boolean;
  /** A forked skill's report. */
  report?: string;
}

/** The opening of the message a skill's instructions travel in (found again by it). */
const skillTag = (name: string) => `<skill name="${name}">`;

/**
 * True when the skill's instructions are already in this turn: the messages since the user's prompt
 * (the last user message that is not tool results) hold them.
 */
export function loadedThisTurn(messages: readonly MessageParam[], name: string): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    if (m.content.some((b) => b.type === 'text' && b.text.startsWith(skillTag(name)))) return true;
    if (!m.content.some((b) => b.type === 'tool_result')) return false;
  }
  return false;
}

/** The message the skill's instructions travel in. */
function skillMessage(skill: SkillDefinition, args: string | undefined): string {
  const base =
    skill.source === 'embed'
      ? ''
      : `Base directory of this skill: ${skill.source.replace(/\/SKILL\.md$/, '')}\n\n`;
  const extra = args?.trim() ? `\n\nARGUMENTS: ${args.trim()}` : '';
  return `${skillTag(skill.name)}\n${base}${skill.body}${extra}\n</skill>`;
}

/** The Skill tool reading `catalog` (the session's; a fresh one when none is given). */
export function createSkillTool(catalog: SkillCatalog = createSkillCatalog()) {
  const announced = (name: string) => catalog.current()?.skills.find((s) => s.name === name);
  /** What may be granted: rules that parse and that the announced version listed too. */
  const grants = (skill: SkillDefinition) => {
    const approved = new Set(announced(skill.name)?.allowedTools ?? []);
    const rules = skill.allowedTools ?? [];
    const allowed = rules.filter((r) => parseRule(r).ok && approved.has(r));
    return { allowed, ignored: rules.filter((r) => !allowed.includes(r)) };
  };

  return buildTool({
    name: 'Skill',
    searchHint: 'skill instructions workflow load SKILL.md',
    inputSchema,
    description: () => 'Load a skill (instructions for one kind of task) from the project or the page',
    prompt: () => promptText.trim(),

    async checkPermissions(input) {
      const skill = announced(input.skill);
      if (!skill) {
        return {
          behavior: 'ask',
          message: `Load the skill "${input.skill}"? It was not listed when this turn began.`,
        };
      }
      if (skill.allowedTools?.length) {
        return {
          behavior: 'ask',
          message: `The skill "${skill.name}" lets these run without asking for the rest of this turn: ${skill.allowedTools.join(', ')}. Load it?`,
        };
      }
      // Instructions alone change nothing; the tools they lead to are checked as usual.
      return { behavior: 'allow' };
    },
    isReadOnly: () => true,

    async validateInput(input, ctx) {
      const loaded = await loadSkills(ctx.sandbox, catalog.given());
      const skill = loaded.skills.find((s) => s.name === input.skill);
      if (skill && !skill.fork && loadedThisTurn(ctx.messages, skill.name)) {
        return `The skill "${skill.name}" is already loaded in this turn: follow its instructions above instead of loading it again.`;
      }
      if (skill) return null;
      const broken = loaded.problems.find((p) => p.name === input.skill);
      if (broken) return `The skill "${input.skill}" cannot be loaded: ${broken.source}: ${broken.reason}`;
      const names = loaded.skills.map((s) => s.name);
      return `Unknown skill "${input.skill}".${names.length ? ` Available skills: ${names.join(', ')}.` : ' No skills are available.'}`;
    },

    async call(input, ctx, onProgress) {
      const loaded = await loadSkills(ctx.sandbox, catalog.given());
      const skill = loaded.skills.find((s) => s.name === input.skill);
      if (!skill) throw new ToolInputError(`Unknown skill "${input.skill}".`);
      const { allowed, ignored } = grants(skill);
      const base: Omit<SkillOutput, 'forked'> = {
        name: skill.name,
        source: skill.source,
        allowedTools: allowed,
        ignoredRules: ignored,
      };
      const withGrants = <T extends { options: { allowedTools?: readonly string[] } }>(c: T): T =>
        allowed.length
          ? { ...c, options: { ...c.options, allowedTools: [...(c.options.allowedTools ?? []), ...allowed] } }
          : c;
      if (skill.fork) {
        const type = findAgentType(skill.agent ?? DEFAULT_AGENT_TYPE);
        if (!type)
          throw new ToolInputError(`The skill "${skill.name}" names an unknown agent type "${skill.agent}".`);
        // The loop, loaded on first use (the cycle Agent breaks the same way).
        const { runSubagent } = await import('../agent/run-subagent.ts');
        const result = await runSubagent(
          {
            agentType: type.name,
            label: `skill ${skill.name}`,
            prompt: skillMessage(skill, input.args),
            tools: subagentTools(type, ctx.options.tools),
            instructions: type.instructions,
            readOnly: type.readOnly,
          },
          withGrants(ctx),
          onProgress,
        );
        return { data: { ...base, forked: true, report: result.text } };
      }
      return {
        data: { ...base, forked: false },
        newMessages: [{ role: 'user', content: [{ type: 'text', text: skillMessage(skill, input.args) }] }],
        ...(allowed.length ? { contextModifier: withGrants } : {}),
      };
    },

    mapToolResultToToolResultBlockParam(output: SkillOutput, toolUseId) {
      if (output.forked) return textResult(toolUseId, output.report ?? '');
      const allowed = output.allowedTools.length
        ? ` For the rest of this turn these run without asking: ${output.allowedTools.join(', ')}.`
        : '';
      const ignored = output.ignoredRules.length
        ? ` (Not granted: ${output.ignoredRules.join(', ')}; they ask as usual.)`
        : '';
      return textResult(
        toolUseId,
        `Launching skill: ${output.name}. Its instructions follow.${allowed}${ignored}`,
      );
    },
    renderToolUseMessage: (input) => ({ title: 'Skill', subtitle: input.skill, body: { kind: 'none' } }),
    renderToolResultMessage: (output: SkillOutput) =>
      output.forked
        ? { kind: 'markdown', text: output.report ?? '' }
        : { kind: 'text', text: `Loaded ${output.name} (${output.source})` },
    toAutoClassifierInput: (input) => input.skill,
  });
}

export const SkillTool = createSkillTool();
