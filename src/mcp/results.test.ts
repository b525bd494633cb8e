/**
 * tools/call results → tool_result content: every content kind, audience annotations, structured
 * content, empty errors, image checks (sniffed types, the size limit, downscaling), embedded blobs.
 * The raw shapes are what real servers send; the live tools map results with these same functions.
 */
import { describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../e2e/mcp/quirky-server.ts';
import { API_IMAGE_MAX_BASE64_CHARS } from '../core/constants.ts';
import {
  type MapResultOptions,
  mapCallResult,
  outputText,
  sniffImageType,
  toToolResultBlock,
} from './results.ts';

const opts: MapResultOptions = { displayName: 'media (MCP server q)', server: 'q' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0]).toString('base64');

describe('MCP results', () => {
  it('maps every content kind; what cannot be sent says what it was', async () => {
    const out = await mapCallResult(
      {
        content: [
          { type: 'text', text: 'Here is everything:' },
          { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
          { type: 'image', data: JPEG, mimeType: 'image/png' },
          { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
          { type: 'image', data: b64('not an image at all, just text'), mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///todo.md', name: 'todo.md', mimeType: 'text/markdown' },
          { type: 'resource', resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'memo body' } },
          { type: 'resource', resource: { uri: 'memo://2', mimeType: 'text/csv', blob: b64('a,b\n1,2') } },
          {
            type: 'resource',
            resource: { uri: 'memo://3', mimeType: 'application/json', blob: b64('{"ok":true}') },
          },
          { type: 'resource', resource: { uri: 'memo://logo', mimeType: 'image/png', blob: TINY_PNG } },
          { type: 'resource', resource: { uri: 'blob://1', mimeType: 'application/zip', blob: 'UEsDBA==' } },
          { type: 'resource', resource: { uri: 'blob://2', mimeType: 'text/plain', blob: '//79/A==' } },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        ],
      },
      opts,
    );
    expect(out.isError).toBe(false);
    const shown = out.blocks.map((b) =>
      b.type === 'text' ? b.text : `<${b.source.type === 'base64' && b.source.media_type}>`,
    );
    expect(shown).toEqual([
      'Here is everything:',
      '<image/png>',
      // The bytes decide the type: a JPEG labelled PNG is sent as the JPEG it is.
      '<image/jpeg>',
      '[Image of type image/svg+xml (11 B) omitted: the model takes PNG, JPEG, GIF or WebP]',
      '[Image of type image/png (30 B) omitted: its data is not a valid image of that type]',
      '[Resource link: todo.md <file:///todo.md> (text/markdown)]\nRead it with ReadMcpResource {"server": "q", "uri": "file:///todo.md"}.',
      '[Resource memo://1 (text/plain)]\nmemo body',
      '[Resource memo://2 (text/csv)]\na,b\n1,2',
      '[Resource memo://3 (application/json)]\n{"ok":true}',
      '<image/png>',
      '[Binary resource blob://1 (application/zip, 4 B) not shown: its bytes are not text]',
      '[Binary resource blob://2 (text/plain, 4 B) not shown: its bytes are not text]',
      '[Audio (audio/wav, 4 B) omitted: the model does not take audio]',
    ]);
    const block = toToolResultBlock(out, 'toolu_m');
    expect(Array.isArray(block.content)).toBe(true);
    expect(block.is_error).toBeUndefined();
  });

  it('content for the user only is shown in the page, never sent to the model', async () => {
    const out = await mapCallResult(
      {
        content: [
          { type: 'text', text: 'for your eyes', annotations: { audience: ['user'] } },
          { type: 'text', text: 'for the model', annotations: { audience: ['assistant'] } },
          { type: 'text', text: 'for both', annotations: { audience: ['user', 'assistant'], priority: 1 } },
        ],
      },
      opts,
    );
    expect(toToolResultBlock(out, 't').content).toBe('for the model\nfor both');
    expect(outputText(out)).toBe('for your eyes\nfor the model\nfor both');
    const onlyUser = await mapCallResult(
      { content: [{ type: 'text', text: 'secret', annotations: { audience: ['user'] } }] },
      opts,
    );
    expect(toToolResultBlock(onlyUser, 't').content).toBe(
      'media (MCP server q) completed with no content (it showed a message to the user only).',
    );
  });

  it('structuredContent is sent when it adds something, not when a text block already carries it', async () => {
    const adds = await mapCallResult(
      {
        content: [{ type: 'text', text: 'It is 21 degrees.' }],
        structuredContent: { temperature: 21, unit: 'C' },
      },
      opts,
    );
    expect(toToolResultBlock(adds, 't').content).toBe(
      'It is 21 degrees.\nStructured content:\n{\n  "temperature": 21,\n  "unit": "C"\n}',
    );
    const same = await mapCallResult(
      {
        content: [{ type: 'text', text: '{"unit":"C","temperature":21}' }],
        structuredContent: { temperature: 21, unit: 'C' },
      },
      opts,
    );
    expect(toToolResultBlock(same, 't').content).toBe('{"unit":"C","temperature":21}');
    const only = await mapCallResult({ content: [], structuredContent: { temperature: 21 } }, opts);
    expect(toToolResultBlock(only, 't').content).toBe('{\n  "temperature": 21\n}');
    expect(only.structuredContent).toEqual({ temperature: 21 });
  });

  it('errors and empty results read as what they are', async () => {
    expect(
      toToolResultBlock(
        await mapCallResult({ content: [{ type: 'text', text: 'down' }], isError: true }, opts),
        't',
      ),
    ).toEqual({ type: 'tool_result', tool_use_id: 't', content: 'down', is_error: true });
    expect(toToolResultBlock(await mapCallResult({ content: [], isError: true }, opts), 't')).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      content: 'media (MCP server q) failed and gave no details.',
      is_error: true,
    });
    expect(toToolResultBlock(await mapCallResult({}, opts), 't').content).toBe(
      'media (MCP server q) completed with no content.',
    );
    expect(toToolResultBlock(await mapCallResult(null, opts), 't')).toMatchObject({
      is_error: true,
      content:
        'media (MCP server q) sent a malformed result (not valid MCP): the result is null, not an object.',
    });
    expect(toToolResultBlock(await mapCallResult({ toolResult: { legacy: 1 } }, opts), 't').content).toBe(
      '{\n  "legacy": 1\n}',
    );
  });

  it('an image over the size limit is downscaled when the page can, else noted with its size', async () => {
    const huge = Buffer.concat([
      Buffer.from(TINY_PNG, 'base64'),
      // Decoded, 3/4 of the API's base64 limit and a little more: its base64 form is over the limit.
      Buffer.alloc((API_IMAGE_MAX_BASE64_CHARS * 3) / 4 + 10, 1),
    ]).toString('base64');
    const noted = await mapCallResult(
      { content: [{ type: 'image', data: huge, mimeType: 'image/png' }] },
      opts,
    );
    expect(toToolResultBlock(noted, 't').content).toBe(
      '[Image (image/png, 3.8 MB) omitted: larger than the 5.0 MB of base64 the API takes (it could not be downscaled here)]',
    );
    const seen: Array<{ mime: string; max: number }> = [];
    const downscaled = await mapCallResult(
      { content: [{ type: 'image', data: huge, mimeType: 'image/png' }] },
      {
        ...opts,
        downscale: async (_data, mime, max) => {
          seen.push({ mime, max });
          return { data: JPEG, mimeType: 'image/jpeg' };
        },
      },
    );
    expect(seen).toEqual([{ mime: 'image/png', max: (API_IMAGE_MAX_BASE64_CHARS * 3) / 4 }]);
    expect(downscaled.blocks).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG } },
    ]);
    const failed = await mapCallResult(
      { content: [{ type: 'image', data: huge, mimeType: 'image/png' }] },
      { ...opts, downscale: async () => null },
    );
    expect(toToolResultBlock(failed, 't').content).toMatch(/and it could not be downscaled\]$/);
  });

  it('sniffs the image types the API takes from their first bytes', () => {
    expect(sniffImageType(TINY_PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(b64('GIF89a......'))).toBe('image/gif');
    expect(sniffImageType(b64('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(b64('<svg></svg>  '))).toBeNull();
    expect(sniffImageType('%%% not base64 %%%')).toBeNull();
  });
});
