/**
 * Starts the mock Messages API with a demo script, for trying the page by hand:
 *   npx tsx e2e/mock-api/cli.ts --port 4010 [--host 127.0.0.1] [--delay 30]
 * The script loops forever: a text reply, then a Read of README.md, then a final text about the result.
 * Point the page at the printed URL with any API key (keys starting with `bad` are rejected).
 */
import { parseArgs } from 'node:util';
import { demoScript } from './demo.ts';
import { startMockApi } from './server.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      delay: { type: 'string', default: '30' },
    },
  });
  const api = await startMockApi({ port: Number(values.port), host: values.host });
  api.script(demoScript(api, Number(values.delay)));
  console.log(`mock Messages API listening on ${api.url}`);
  const stop = (): void => {
    api.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
