/**
 * The Chinese-English glossary on the table that ships (./glossary/zh-en.txt.gz): its format, how text is
 * cut into words, and ToolSearch through the real tool-call path with the glossary stage loading that
 * file: English queries find tools described in Chinese, Chinese queries find tools described in English,
 * and a glossary that cannot load leaves the lexical answer and says why.
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext } from '../../core/context.ts';
import type { AnyTool } from '../../core/tool.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../core/tool-execution.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { fakeMcpTool as mcp } from '../../testing/mcp-tool.ts';
import { cutWords, decodeGlossary, type Glossary, glossOf, hasHan, withEnglish } from './glossary.ts';
import { createGlossaryStage, type GlossaryStage } from './glossary-stage.ts';
import { toolSearchDoc } from './search.ts';
import { sentenceToolText } from './sentence.ts';
import { createToolSearchTool, type ToolSearchOutput } from './tool-search.ts';

const TABLE = new URL('./glossary/zh-en.txt.gz', import.meta.url);
const tableBytes = async () => new Uint8Array(await readFile(TABLE));

let glossary: Glossary;
beforeAll(async () => {
  const stage = createGlossaryStage(tableBytes);
  const g = await stage.get(30_000);
  if (!g) throw new Error(`glossary did not load: ${JSON.stringify(stage.status())}`);
  glossary = g;
});

describe('the table', () => {
  it('holds the dictionary: simplified and traditional headwords, English words for each', () => {
    expect(glossary.words.size).toBeGreaterThan(150_000);
    expect(glossary.words.get('图片')?.split(' ')).toContain('picture');
    expect(glossary.words.get('圖片')).toBe(glossary.words.get('图片'));
    expect(glossary.words.get('菜谱')?.split(' ')).toContain('recipe');
    // The common reading of a character, not the rarest one (榜 "list", not 搒 "to row").
    expect(glossary.words.get('榜')?.split(' ')).toContain('list');
    expect(glossary.words.get('榜')?.split(' ')).not.toContain('oar');
    // Stop words and words whose senses are all stop words stay, with no English: text is cut at them.
    expect(glossary.words.get('的')).toBe('');
    expect(glossary.words.get('什么')).toBe('');
  });

  it('decodes plain text and gzip alike, and skips lines without a tab', async () => {
    const text = '卡牌\tplaying card\n垃圾行\n图片\timage picture\n';
    const plain = decodeGlossary(text);
    expect([...plain.words]).toEqual([
      ['卡牌', 'playing card'],
      ['图片', 'image picture'],
    ]);
    const zipped = await createGlossaryStage(async () => gzipSync(Buffer.from(text))).get(5000);
    expect(zipped && [...zipped.words]).toEqual([...plain.words]);
  });
});

describe('cutting and glossing', () => {
  it('cuts by bidirectional maximum matching', () => {
    expect(cutWords('以上海时区为准', glossary)).toEqual(['以', '上海', '时区', '为准']);
    expect(cutWords('获取游戏王卡牌的图片', glossary)).toEqual(['获取', '游戏王', '卡牌', '的', '图片']);
  });

  it('gives the English of the Chinese in a text, each word once, and nothing for other text', () => {
    const english = glossOf('通过卡牌ID获取游戏王卡牌的图片', glossary).split(' ');
    expect(english).toEqual(expect.arrayContaining(['playing', 'card', 'get', 'image', 'picture']));
    expect(new Set(english).size).toBe(english.length);
    expect(glossOf('Weather forecast for a city', glossary)).toBe('');
    expect(glossOf('погода', glossary)).toBe('');
    expect(hasHan('abc 天气')).toBe(true);
    expect(hasHan('カタカナ')).toBe(false);
    expect(withEnglish('天气预报', glossary)).toMatch(/^天气预报 .*weather/);
    expect(withEnglish('plain', glossary)).toBe('plain');
    // The sentence encoder (English only) reads a glossed tool without its Chinese, with its English.
    const doc = toolSearchDoc(mcp('ygo', 'tupian', '通过卡牌ID获取游戏王卡牌的图片。'), glossary);
    expect(doc.translation).toContain('picture');
    const text = sentenceToolText(doc);
    expect(hasHan(text)).toBe(false);
    expect(text).toMatch(/^tupian: ID .*playing card.*picture/);
    // A 10,000-character Chinese text is glossed from its start, to a bound.
    expect(glossOf('图片卡牌菜谱天气'.repeat(1250), glossary).split(' ').length).toBeLessThanOrEqual(400);
  });
});

const CATALOGUE = [
  // Names that say nothing in English: only the description tells what the tool does.
  mcp('ygo', 'tupian', '通过卡牌ID获取游戏王卡牌的图片'),
  mcp('cook', 'caipu_list', '根据分类查询菜谱，可选分类有: 早餐, 甜品, 饮品'),
  mcp('rail', 'yupiao', '查询火车票余票信息'),
  mcp('weather', 'forecast', 'Weather forecast for a city'),
  mcp('fs', 'read_file', 'Read a file from disk'),
];

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: {} });
});
afterEach(() => sandbox.dispose());

/** One ToolSearch call through the loop's own stages: the tool_result the model gets, and the output. */
async function viaLoop(tool: AnyTool, query: string) {
  const tools = [tool, ...CATALOGUE];
  const ctx = createToolUseContext({ sandbox, options: { tools } });
  const call = await prepareCall(
    { type: 'tool_use', id: 'toolu_g', name: 'ToolSearch', input: { query } },
    tools,
  );
  const out = await runToolCall(call, ctx, { tools, canUseTool: defaultCanUseTool, emit: () => {} });
  const data = (await tool.call({ query }, ctx)).data as ToolSearchOutput;
  return { block: out.block, data };
}

const withGlossary = (stage: GlossaryStage) =>
  createToolSearchTool({ semantic: null, sentence: null, glossary: stage });

/** A stage over the shipped table, loaded before the test (a search waits for it 1.5 s at most). */
async function loadedStage(): Promise<GlossaryStage> {
  const stage = createGlossaryStage(tableBytes);
  await stage.get(30_000);
  return stage;
}

describe('ToolSearch with the glossary', () => {
  it('an English query finds a tool described only in Chinese (and does not without the glossary)', async () => {
    const tool = withGlossary(await loadedStage());
    const picture = await viaLoop(tool, 'get the picture of a card');
    expect(picture.block.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__ygo__tupian' }]);
    expect(picture.data.semantic).toBe('off (no semantic stage here); Chinese glossary used');
    const recipes = await viaLoop(tool, 'dessert recipes');
    expect((recipes.block.content as { tool_name?: string }[])[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'mcp__cook__caipu_list',
    });
    const tickets = await viaLoop(tool, 'remaining train tickets');
    expect((tickets.block.content as { tool_name?: string }[])[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'mcp__rail__yupiao',
    });

    const without = await viaLoop(
      createToolSearchTool({ semantic: null, sentence: null, glossary: null }),
      'get the picture of a card',
    );
    expect(without.block.content).toMatch(/^No deferred tools match "get the picture of a card"/);
  });

  it('a Chinese query finds a tool described in English, and Chinese text still matches as it is', async () => {
    const tool = withGlossary(await loadedStage());
    const weather = await viaLoop(tool, '城市天气预报');
    expect(weather.block.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__weather__forecast' }]);
    const direct = await viaLoop(tool, '火车票');
    expect((direct.block.content as { tool_name?: string }[])[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'mcp__rail__yupiao',
    });
    // A query in Chinese that means nothing here is still a clear no-match.
    const none = await viaLoop(tool, '量子物理');
    expect(none.block.content).toMatch(
      /^No deferred tools match "量子物理" \(5 deferred tools are available\)/,
    );
  });

  it('a glossary that cannot load: the lexical answer, and the card says why', async () => {
    const broken = createGlossaryStage(async () => {
      throw new Error('HTTP 404 for /assets/zh-en.txt.gz');
    });
    const tool = withGlossary(broken);
    const { block, data } = await viaLoop(tool, 'weather in my town');
    expect(block.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__weather__forecast' }]);
    expect(data.semantic).toBe(
      'off (no semantic stage here); Chinese glossary not used: the glossary did not load (HTTP 404 for /assets/zh-en.txt.gz)',
    );
    expect(broken.status()).toEqual({
      state: 'failed',
      reason: 'the glossary did not load (HTTP 404 for /assets/zh-en.txt.gz)',
    });
    const card = tool.renderToolResultMessage?.(data, { query: 'weather in my town' });
    expect(card).toEqual({
      kind: 'text',
      text: 'Loaded: mcp__weather__forecast\nSemantic stage: off (no semantic stage here); Chinese glossary not used: the glossary did not load (HTTP 404 for /assets/zh-en.txt.gz)',
    });
    // An empty table is a failure too, not a silent glossary that knows nothing.
    const empty = createGlossaryStage(async () => new Uint8Array());
    expect(await empty.get(1000)).toBeUndefined();
    expect(empty.status()).toEqual({
      state: 'failed',
      reason: 'the glossary did not load (the glossary table is empty)',
    });
  });

  it('a glossary still loading is not waited for past the bound, and the card says so', async () => {
    const slow = createGlossaryStage(() => new Promise<Uint8Array>(() => {}));
    expect(await slow.get(20)).toBeUndefined();
    expect(slow.status()).toEqual({ state: 'loading' });
  });

  it('a catalogue without Chinese and an English query never load it', async () => {
    let loads = 0;
    const stage = createGlossaryStage(async () => {
      loads++;
      return tableBytes();
    });
    const tool = createToolSearchTool({ semantic: null, sentence: null, glossary: stage });
    const english = [mcp('weather', 'forecast', 'Weather forecast for a city')];
    const tools = [tool, ...english];
    const ctx = createToolUseContext({ sandbox, options: { tools } });
    const out = await tool.call({ query: 'weather' }, ctx);
    expect(out.data.matches).toEqual(['mcp__weather__forecast']);
    expect(out.data.semantic).toBe('off (no semantic stage here)');
    expect(loads).toBe(0);
    expect(stage.status()).toEqual({ state: 'idle' });
  });
});
