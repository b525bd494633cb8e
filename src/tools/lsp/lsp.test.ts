/**
 * The LSP tool on the real TypeScript language service (the `typescript-5` package, JavaScript
 * TypeScript 5) over the real just-bash sandbox: diagnostics, definitions, references, hover, symbols,
 * and Edit/Write results that carry the new diagnostics. The service runs in-process here (the page runs
 * the same module in a worker). Skipped, saying why, when `typescript-5` is not installed; set
 * TABCODE_TYPESCRIPT_5 to a typescript.js of 5.x to run it against another copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { EditTool } from '../edit/edit.ts';
import { ReadTool } from '../read/read.ts';
import { WriteTool } from '../write/write.ts';
import { createWorkspaceService, type WorkspaceService } from './language-service.ts';
import { LspTool, setLspConnector, withDiagnostics } from './lsp.ts';
import type { LspConnection } from './lsp-client.ts';
import type { TsApi } from './ts-api.ts';

/** Where TypeScript 5's compiler is, or undefined when it is not installed. */
function typescriptPath(): string | undefined {
  if (process.env.TABCODE_TYPESCRIPT_5) return process.env.TABCODE_TYPESCRIPT_5;
  try {
    return createRequire(import.meta.url).resolve('typescript-5');
  } catch {
    return undefined;
  }
}

const tsPath = typescriptPath();
if (!tsPath)
  console.warn('lsp.test: typescript-5 (npm:typescript@5.9.3) is not installed; the LSP tests are skipped.');

let ts: TsApi;
let libs: Map<string, string>;
let sandbox: Sandbox;
let ctx: ToolUseContext;

/** An in-process connection to the same language service the worker runs. */
function inProcess(root: string): LspConnection {
  let service: WorkspaceService | undefined;
  const known = new Map<string, string>();
  return {
    async sync(delta) {
      service ??= createWorkspaceService(ts, libs, delta.root || root);
      for (const f of delta.files) known.set(f.path, f.text);
      for (const p of delta.removed) known.delete(p);
      service.setFiles([...known].map(([path, text]) => ({ path, text })));
    },
    async run(request) {
      if (!service) throw new Error('no files');
      return service.run(request);
    },
    dispose() {},
  };
}

describe.skipIf(!tsPath)('LSP (TypeScript language service)', () => {
  beforeAll(async () => {
    const mod = (await import(tsPath as string)) as { default?: TsApi } & TsApi;
    ts = mod.default ?? mod;
    const libDir = dirname(tsPath as string);
    libs = new Map(
      readdirSync(libDir)
        .filter((n) => /^lib\..*\.d\.ts$/.test(n))
        .map((n) => [n, readFileSync(join(libDir, n), 'utf8')]),
    );
  });

  beforeEach(async () => {
    sandbox = await createJustBashSandbox({
      files: {
        'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
        'src/main.ts':
          "import { add } from './math.ts';\n\nconst total: number = add(1, 2);\nconsole.log(total);\n",
        'src/broken.ts': "const n: number = 'text';\n",
      },
    });
    ctx = createToolUseContext({ sandbox });
    setLspConnector((s) => inProcess(s.root));
  });

  const lsp = async (operation: string, file: string, line = 1, character = 1) => {
    const input = { operation, filePath: `${sandbox.root}/${file}`, line, character } as never;
    expect(await LspTool.validateInput?.(input, ctx)).toBeNull();
    const { data } = await LspTool.call(input, ctx);
    return LspTool.mapToolResultToToolResultBlockParam(data, 't').content as string;
  };

  it('diagnostics, definition, references, hover and symbols', async () => {
    expect(await lsp('diagnostics', 'src/broken.ts')).toContain(
      "src/broken.ts:1:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    expect(await lsp('diagnostics', 'src/main.ts')).toBe('No diagnostics in src/main.ts.');
    expect(await lsp('goToDefinition', 'src/main.ts', 3, 23)).toContain('src/math.ts:1:17');
    const refs = await lsp('findReferences', 'src/math.ts', 1, 17);
    expect(refs).toMatch(/^3 references:/);
    expect(refs).toContain('src/main.ts:3:23');
    expect(await lsp('hover', 'src/main.ts', 3, 23)).toContain('add(a: number, b: number): number');
    expect(await lsp('documentSymbol', 'src/math.ts')).toContain('function add (line 1)');
  }, 60_000);

  it('an Edit or Write of a TypeScript file reports its new diagnostics; other files are left alone', async () => {
    const edit = withDiagnostics(EditTool);
    const write = withDiagnostics(WriteTool);
    await ReadTool.call({ file_path: `${sandbox.root}/src/math.ts` }, ctx);
    const input = {
      file_path: `${sandbox.root}/src/math.ts`,
      old_string: 'return a + b;',
      new_string: 'return `${a}${b}`;',
    };
    const edited = await edit.call(input, ctx);
    const text = edit.mapToolResultToToolResultBlockParam(edited.data, 't').content as string;
    expect(text).toContain('has been updated');
    expect(text).toContain('<new-diagnostics>');
    expect(text).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(edit.renderToolResultMessage?.(edited.data, input)).toMatchObject({ kind: 'diff' });
    const md = await write.call({ file_path: `${sandbox.root}/notes.md`, content: '# hi\n' }, ctx);
    expect(write.mapToolResultToToolResultBlockParam(md.data, 't').content).not.toContain('diagnostics');
  }, 60_000);

  it('refuses files it cannot check, and keeps its input JSON schema stable', async () => {
    expect(
      await LspTool.validateInput?.(
        { operation: 'hover', filePath: `${sandbox.root}/README.md`, line: 1, character: 1 },
        ctx,
      ),
    ).toMatch(/not a TypeScript or JavaScript file/);
    expect(
      LspTool.inputSchema.safeParse({ operation: 'hover', filePath: 'a.ts', line: 0, character: 1 }).success,
    ).toBe(false);
    await expect(JSON.stringify(LspTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/lsp.schema.json',
    );
  });
});
