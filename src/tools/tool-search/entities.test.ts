import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool, textResult } from '../../core/tool.ts';
import { entityWords, withEntityWords } from './entities.ts';
import { searchTools } from './tool-search.ts';

function mcp(server: string, name: string, description: string, params: Record<string, string> = {}) {
  const shape = Object.fromEntries(Object.entries(params).map(([k, d]) => [k, z.string().describe(d)]));
  return buildTool({
    name: `mcp__${server}__${name}`,
    inputSchema: z.strictObject(shape),
    description: () => description,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: name },
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
  }) as AnyTool;
}

// Shaped like LiveMCPBench's servers: the file writer says "file", never "save" or "markdown".
const POOL: AnyTool[] = [
  mcp(
    'filesystem',
    'write_file',
    'Create a new file or completely overwrite an existing file with new content.',
    {
      path: 'Path of the file',
      content: 'Content to write',
    },
  ),
  mcp('filesystem', 'read_file', 'Read the complete contents of a file from the file system.', {
    path: 'Path of the file',
  }),
  mcp('notes', 'save_note', 'Save a research note with a title and a summary', { title: 'Title' }),
  mcp('mindmap', 'convert_markdown_to_mindmap', 'Convert Markdown text into a mind map', {
    markdown: 'Markdown text',
  }),
  mcp('research', 'summarize_topic', 'Generate a research summary of a topic from the web', {
    topic: 'Topic',
  }),
  mcp('research', 'research_report', 'Write a deep research report on a topic', { topic: 'Topic' }),
  mcp('fetch', 'fetch', 'Fetches a URL from the internet and extracts its contents as markdown.', {
    url: 'URL to fetch',
  }),
  mcp('images', 'describe_picture', 'Describe the visual design of a picture', { image: 'Image' }),
  mcp('pages', 'analyze_design', 'Analyze the visual design and marketing of a product', { name: 'Product' }),
];

describe('entity words (what paths and URLs imply)', () => {
  it('a path or file name adds "file", and "write" with a verb of output', () => {
    expect(entityWords('save it as Markdown to /root/markdown/report.md')).toBe('file write markdown');
    expect(entityWords('Read the data under /root/excel/sales.xlsx')).toBe('file excel spreadsheet');
    expect(entityWords('export the table as people.csv')).toBe('file write');
    expect(entityWords('open C:\\Users\\me\\notes.txt')).toBe('file');
    expect(entityWords('store ~/notes/today.txt')).toBe('file write');
    expect(entityWords('save it to /root/ppt/deck.pptx and /root/figs/a.png')).toBe(
      'file write presentation powerpoint image',
    );
  });

  it('a URL adds "url fetch"; plain text and prose slashes add nothing', () => {
    expect(entityWords('summarize https://example.com/post/1')).toBe('url fetch');
    expect(entityWords('what does www.apple.com/iphone say')).toBe('url fetch');
    expect(entityWords('create a GitHub issue about the login bug')).toBe('');
    expect(entityWords('read and/or write the value')).toBe('');
    expect(entityWords('version 1.2 of node.js')).toBe('');
    expect(withEntityWords('find the weather')).toBe('find the weather');
    expect(withEntityWords('save to /tmp/a/b.md')).toBe('save to /tmp/a/b.md file write markdown');
    expect(entityWords('version 3.5 costs 2.50 at example.com')).toBe('');
  });

  it('a 10,000-character query is scanned only at its start and still answered', () => {
    const long = `${'word '.repeat(2000)}/root/markdown/x.md`;
    expect(entityWords(long)).toBe('');
    expect(entityWords(`save to /root/a/x.md ${'word '.repeat(2000)}`)).toBe('file write markdown');
  });
});

describe('entity words in the ranking (through searchTools)', () => {
  it('a save path brings the file writer into the results; without the path it is not there', () => {
    const withPath = searchTools(
      POOL,
      'Generate a research summary and save it as Markdown to /root/markdown/summary.md',
      3,
    );
    expect(withPath.matches).toContain('mcp__filesystem__write_file');
    const without = searchTools(POOL, 'Generate a research summary and save it as Markdown', 3);
    expect(without.matches).not.toContain('mcp__filesystem__write_file');
  });

  it('a path to read ranks the file reader, not the writer, first among file tools', () => {
    const got = searchTools(POOL, 'Read the customer list in /root/csv/customers.csv', 3).matches;
    expect(got[0]).toBe('mcp__filesystem__read_file');
  });

  it('a URL brings the fetcher into the results', () => {
    const q = 'Analyze the visual marketing of the page';
    expect(searchTools(POOL, q, 2).matches).not.toContain('mcp__fetch__fetch');
    expect(searchTools(POOL, `${q} https://www.apple.com/iphone-16/`, 2).matches).toContain(
      'mcp__fetch__fetch',
    );
  });
});
