/**
 * Skills: SKILL.md files of the real just-bash sandbox (and page-given ones), parsed with their
 * problems named; announced to the model once per change; loaded inline (instructions as newMessages,
 * allowed tools for the rest of the turn, asked for first) or forked as a sub-agent through the real
 * loop and the mock Messages API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, type RecordedRequest, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { MessageParam } from '../../core/messages.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../bash/bash.ts';
import { ReadTool } from '../read/read.ts';
import { runLoop, userMessage } from '../testing/loop.ts';
import { createSkillTool, loadedThisTurn } from './skill.ts';
import {
  createSkillCatalog,
  loadSkills,
  parseSkillFile,
  SKILLS_REMINDER_HEADER,
  skillsAnnouncement,
} from './skills.ts';

const GOOD = `---
name: release-notes
description: Write release notes from the git log.
allowed-tools: Bash(git log:*), Read
---
Run git log and write RELEASE.md.
`;
const FORKED = `---
name: survey
description: Survey the project.
context: fork
agent: Explore
---
Read README.md and report its first line.
`;

let api: MockApi;
let sandbox: Sandbox;
let ctx: ToolUseContext;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({
    files: {
      'README.md': '# Survey me\n',
      '.claude/skills/release-notes/SKILL.md': GOOD,
      '.claude/skills/survey/SKILL.md': FORKED,
      '.claude/skills/broken/SKILL.md': '---\nname: [unclosed\n---\nbody\n',
      '.claude/skills/nofront/SKILL.md': 'Just text, no front matter.\n',
      '.claude/skills/empty-folder/notes.txt': 'not a skill',
    },
  });
  ctx = createToolUseContext({ sandbox });
});

describe('SKILL.md', () => {
  it('parses front matter (name, description, allowed tools, fork) and names what is wrong', () => {
    const ok = parseSkillFile(GOOD, 'release-notes', '/x/SKILL.md');
    expect(ok).toMatchObject({
      ok: true,
      skill: {
        name: 'release-notes',
        allowedTools: ['Bash(git log:*)', 'Read'],
        body: 'Run git log and write RELEASE.md.',
      },
    });
    expect(parseSkillFile(FORKED, 'survey', 's')).toMatchObject({
      ok: true,
      skill: { fork: true, agent: 'Explore' },
    });
    const bad = (text: string) => {
      const r = parseSkillFile(text, 'x', 's');
      return r.ok ? '' : r.reason;
    };
    expect(bad('no front matter')).toMatch(/must start with YAML front matter/);
    expect(bad('---\nname: [x\n---\nbody')).toMatch(/front matter is not valid YAML/);
    expect(bad('---\nname: x\n---\nbody')).toMatch(/has no description/);
    expect(bad('---\nname: Bad Name\ndescription: d\n---\nbody')).toMatch(/lower-case letters/);
    expect(bad('---\ndescription: d\ncontext: spoon\n---\nbody')).toMatch(
      /context must be "fork" or "inline"/,
    );
    expect(bad('---\ndescription: d\n---\n')).toMatch(/no instructions/);
  });

  it('loads the workspace skills and the page-given ones, malformed ones kept as problems', async () => {
    const loaded = await loadSkills(sandbox, [
      { name: 'embedded', description: 'From the page.', body: 'Do it.', source: 'x' },
    ]);
    expect(loaded.skills.map((s) => s.name)).toEqual(['embedded', 'release-notes', 'survey']);
    expect(loaded.skills[0].source).toBe('embed');
    expect(loaded.problems.map((p) => p.name).sort()).toEqual(['broken', 'nofront']);
  });

  it('is announced once per change, in the messages', async () => {
    const catalog = createSkillCatalog();
    const first = skillsAnnouncement(await catalog.refresh(sandbox), []);
    expect(first).toContain(SKILLS_REMINDER_HEADER);
    expect(first).toContain('- release-notes: Write release notes from the git log.');
    expect(first).toContain('broken (');
    const transcript: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: `<system-reminder>\n${first}\n</system-reminder>` }] },
    ];
    expect(skillsAnnouncement(await catalog.refresh(sandbox), transcript)).toBeNull();
    await sandbox.writeFile(
      `${sandbox.root}/.claude/skills/new-one/SKILL.md`,
      '---\ndescription: New.\n---\nGo.\n',
    );
    expect(skillsAnnouncement(await catalog.refresh(sandbox), transcript)).toContain('- new-one: New.');
  });
});

describe('Skill', () => {
  it('loads inline: instructions after the result, the announced allowed tools for the rest of the turn, asked first', async () => {
    const catalog = createSkillCatalog();
    await catalog.refresh(sandbox);
    const tool = createSkillTool(catalog);
    const perm = { mode: 'default' as const, root: sandbox.root, cwd: sandbox.root };
    expect(await tool.checkPermissions({ skill: 'release-notes' }, perm)).toMatchObject({
      behavior: 'ask',
      message: expect.stringContaining('Bash(git log:*), Read'),
    });
    expect(await tool.checkPermissions({ skill: 'unknown-yet' }, perm)).toMatchObject({ behavior: 'ask' });
    const result = await tool.call({ skill: 'release-notes', args: 'v1.2' }, ctx);
    const text = (result.newMessages?.[0]?.content as Array<{ text: string }> | undefined)?.[0]?.text;
    expect(text).toContain('<skill name="release-notes">');
    expect(text).toContain('Run git log and write RELEASE.md.');
    expect(text).toContain('ARGUMENTS: v1.2');
    expect(result.contextModifier?.(ctx).options.allowedTools).toEqual(['Bash(git log:*)', 'Read']);
    expect(tool.mapToolResultToToolResultBlockParam(result.data, 't').content).toMatch(
      /run without asking: Bash\(git log:\*\), Read/,
    );
    // Written during the turn: the SKILL.md cannot grant more than what was announced.
    await sandbox.writeFile(
      `${sandbox.root}/.claude/skills/release-notes/SKILL.md`,
      GOOD.replace('allowed-tools: Bash(git log:*), Read', 'allowed-tools: Bash, Read'),
    );
    const widened = await tool.call({ skill: 'release-notes' }, ctx);
    expect(widened.data.allowedTools).toEqual(['Read']);
    expect(widened.data.ignoredRules).toEqual(['Bash']);
  });

  it('refuses an unknown skill, a malformed one (with its reason), and one already loaded this turn', async () => {
    const tool = createSkillTool();
    expect(await tool.validateInput?.({ skill: 'nope' }, ctx)).toMatch(
      /Unknown skill "nope". Available skills: release-notes, survey/,
    );
    expect(await tool.validateInput?.({ skill: 'broken' }, ctx)).toMatch(
      /cannot be loaded: .*not valid YAML/,
    );
    const loaded = await tool.call({ skill: 'release-notes' }, ctx);
    const messages: MessageParam[] = [
      userMessage('go'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Skill', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'x' },
          ...((loaded.newMessages?.[0]?.content ?? []) as never[]),
        ],
      },
    ];
    expect(loadedThisTurn(messages, 'release-notes')).toBe(true);
    expect(await tool.validateInput?.({ skill: 'release-notes' }, { ...ctx, messages })).toMatch(
      /already loaded in this turn/,
    );
    expect(loadedThisTurn([...messages, userMessage('next prompt')], 'release-notes')).toBe(false);
  });

  it('a forked skill runs as a sub-agent of its type through the loop; its report is the result', async () => {
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system).includes('# Sub-agent: Explore');
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_skill', name: 'Skill', input: { skill: 'survey' } }] },
      (r) => {
        expect(isSub(r)).toBe(true);
        expect(JSON.stringify(r.body.messages[0])).toContain('Read README.md and report its first line.');
        return {
          content: [{ type: 'tool_use', name: 'Read', input: { file_path: `${sandbox.root}/README.md` } }],
        };
      },
      { content: [{ type: 'text', text: 'The first line is "# Survey me".' }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const catalog = createSkillCatalog();
    await catalog.refresh(sandbox);
    const tools = [createSkillTool(catalog), ReadTool, BashTool];
    const run = await runLoop({ baseURL: api.url, sandbox, tools, messages: [userMessage('survey it')] });
    expect(run.outcome.reason).toBe('end_turn');
    expect(run.flat.some((f) => f.agentId !== 'main' && f.event.type === 'tool-run-start')).toBe(true);
    const last = api.requests.at(-1) as RecordedRequest;
    expect(JSON.stringify(last.body.messages)).toContain('The first line is \\"# Survey me\\".');
  });

  it('a forked skill that forks itself again stops at the depth cap: the deepest call is a clear is_error', async () => {
    await sandbox.writeFile(
      `${sandbox.root}/.claude/skills/recurse/SKILL.md`,
      '---\nname: recurse\ndescription: Fork again.\ncontext: fork\n---\nLoad the recurse skill again.\n',
    );
    const lastResult = (r: RecordedRequest) => {
      const last = r.body.messages.at(-1);
      const block = Array.isArray(last?.content)
        ? last.content.find((b) => b.type === 'tool_result')
        : undefined;
      return block as { content?: unknown; is_error?: boolean } | undefined;
    };
    // Every agent (main or sub) loads the skill, then reports the result it got.
    const turn = (r: RecordedRequest) => {
      const result = lastResult(r);
      return result
        ? { content: [{ type: 'text' as const, text: `got: ${String(result.content)}` }] }
        : { content: [{ type: 'tool_use' as const, name: 'Skill', input: { skill: 'recurse' } }] };
    };
    api.script(Array.from({ length: 10 }, () => turn));
    const catalog = createSkillCatalog();
    await catalog.refresh(sandbox);
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools: [createSkillTool(catalog), ReadTool],
      messages: [userMessage('recurse')],
    });
    expect(run.outcome.reason).toBe('end_turn');
    // main, depth 1, depth 2 each asked twice; depth 3 never started.
    expect(api.requests).toHaveLength(6);
    const refused = api.requests.map(lastResult).find((b) => b?.is_error);
    expect(String(refused?.content)).toMatch(
      /Sub-agents may nest at most 2 deep, and this one would be at depth 3/,
    );
    // The refusal travels up as each level's report.
    expect(JSON.stringify(api.requests.at(-1)?.body.messages.at(-1))).toContain('got: got: ');
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(createSkillTool().inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/skill.schema.json',
    );
  });
});
