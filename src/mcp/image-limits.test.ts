/**
 * Image dimensions against the API's limits. The images in test-images/ are real files: the JPEG,
 * PNG and WebP ones drawn on a canvas in Chromium and encoded by it (toDataURL; the VP8 and VP8L files
 * are the image chunk of such a WebP without its ICC profile), the GIF written by hand; each one's size
 * was checked by decoding it in Chromium (naturalWidth × naturalHeight) and, where it can, by file(1).
 * The limits are checked through a real MCP server on loopback and the tool-call path.
 */
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import type { ToolResultBlockParam } from '../core/messages.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import {
  API_IMAGE_MAX_SIDE_PX,
  API_MANY_IMAGES_MAX_SIDE_PX,
  API_MANY_IMAGES_THRESHOLD,
  API_MAX_IMAGES_PER_REQUEST,
  imageDimensions,
} from './image-dimensions.ts';
import { createMcpManager, type McpManager } from './manager.ts';
import type { ApiImageType } from './results.ts';
import { callMcpTool } from './test-tool-call.ts';

const image = (name: string) =>
  readFileSync(new URL(`./test-images/${name}`, import.meta.url)).toString('base64');
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('imageDimensions reads the header of real images', () => {
  it.each([
    ['wide.jpg', 'image/jpeg', 9001, 3],
    ['many.jpg', 'image/jpeg', 2001, 7],
    ['tall.png', 'image/png', 3, 8001],
    ['tall.gif', 'image/gif', 300, 8001],
    ['vp8-lossy.webp', 'image/webp', 2100, 5],
    ['vp8l-lossless.webp', 'image/webp', 33, 8002],
    ['vp8x-alpha.webp', 'image/webp', 8100, 2],
  ] as const)('%s is %s %i×%i', (name, type, width, height) => {
    expect(imageDimensions(image(name), type)).toEqual({ width, height });
  });

  it('a header cut short or of another format gives null, never a guess', () => {
    const cut = (name: string, chars: number, type: ApiImageType) =>
      imageDimensions(image(name).slice(0, chars), type);
    expect(cut('tall.png', 20, 'image/png')).toBeNull();
    expect(cut('wide.jpg', 40, 'image/jpeg')).toBeNull();
    expect(imageDimensions(image('tall.gif'), 'image/png')).toBeNull();
    expect(imageDimensions('%%%', 'image/webp')).toBeNull();
  });
});

/** Tools answering with images: one too wide, a result of many images, and one of more than the cap. */
function createImageServer(): McpServer {
  const server = new McpServer({ name: 'images', version: '1.0.0' });
  const reply = (content: Array<Record<string, string>>) => async () => ({ content }) as never;
  const img = (data: string, mimeType: string) => ({ type: 'image', data, mimeType });
  server.registerTool(
    'too_wide',
    { description: 'A 9001 px wide JPEG and some text' },
    reply([
      { type: 'text', text: 'before' },
      img(image('wide.jpg'), 'image/jpeg'),
      { type: 'text', text: 'after' },
    ]),
  );
  server.registerTool(
    'few',
    { description: 'A 2001 px JPEG among few images' },
    reply([img(image('many.jpg'), 'image/jpeg'), img(TINY_PNG, 'image/png')]),
  );
  server.registerTool(
    'many',
    { description: 'A 2001 px JPEG among more than 20 images' },
    reply([
      img(image('many.jpg'), 'image/jpeg'),
      ...Array.from({ length: API_MANY_IMAGES_THRESHOLD }, () => img(TINY_PNG, 'image/png')),
    ]),
  );
  server.registerTool(
    'too_many',
    { description: 'More images than a request takes' },
    reply(Array.from({ length: API_MAX_IMAGES_PER_REQUEST + 2 }, () => img(TINY_PNG, 'image/png'))),
  );
  return server;
}

let ctx: ToolUseContext;
let host: McpHttpHost;
let manager: McpManager;

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  host = await startMcpHttpHost({ createServer: createImageServer });
  manager = createMcpManager({});
  expect((await manager.addServer({ type: 'http', name: 'img', url: host.url })).status).toBe('connected');
});
afterAll(async () => {
  await manager?.dispose();
  await host?.close();
});

const run = (tool: string) => callMcpTool(manager, ctx, `mcp__img__${tool}`);

const blocks = (b: ToolResultBlockParam) => (typeof b.content === 'string' ? [] : (b.content ?? []));
const images = (b: ToolResultBlockParam) => blocks(b).filter((c) => c.type === 'image');
const notes = (b: ToolResultBlockParam) =>
  typeof b.content === 'string'
    ? [b.content]
    : blocks(b).flatMap((c) => (c.type === 'text' && c.text.startsWith('[') ? [c.text] : []));

describe('image limits through a real server', () => {
  it(`an image wider than ${API_IMAGE_MAX_SIDE_PX} px is refused with a note; the text around it stays`, async () => {
    const block = await run('too_wide');
    expect(block.is_error).toBeFalsy();
    expect(block.content).toBe(
      'before\n[Image (image/jpeg, 9001×3 px, 1.6 KB) omitted: larger than the 8000 × 8000 px the API takes (it could not be downscaled here)]\nafter',
    );
  });

  it(`a ${API_MANY_IMAGES_MAX_SIDE_PX + 1} px image passes among few images, not among more than ${API_MANY_IMAGES_THRESHOLD}`, async () => {
    const few = await run('few');
    expect(images(few)).toHaveLength(2);
    const many = await run('many');
    expect(images(many)).toHaveLength(API_MANY_IMAGES_THRESHOLD);
    expect(notes(many)).toEqual([
      '[Image (image/jpeg, 2001×7 px, 950 B) omitted: larger than the 2000 × 2000 px the API takes when a request carries more than 20 images (this result has more) (it could not be downscaled here)]',
    ]);
  });

  it(`images past ${API_MAX_IMAGES_PER_REQUEST} in one result become notes`, async () => {
    const block = await run('too_many');
    expect(images(block)).toHaveLength(API_MAX_IMAGES_PER_REQUEST);
    expect(notes(block)).toEqual(
      Array(2).fill(
        `[Image (image/png) omitted: the API takes at most ${API_MAX_IMAGES_PER_REQUEST} images in a request, and this result has ${API_MAX_IMAGES_PER_REQUEST + 2}]`,
      ),
    );
  });
});
