// The command the conformance runner starts for each scenario: a relay with no dependencies, so
// dozens start at once in milliseconds. It hands the scenario (name, server URL, context) to the
// driver process of run.ts over a local socket, where tabcode's MCP layer runs it, then prints the
// driver's output and exits with its code.
import { connect } from 'node:net';

const socket = process.env.TABCODE_CONFORMANCE_SOCKET;
const url = process.argv[2];
if (!socket || !url) {
  console.error(
    'relay.mjs: TABCODE_CONFORMANCE_SOCKET and a server URL are required (run e2e/mcp/conformance/run.ts)',
  );
  process.exit(2);
}
const conn = connect(socket);
let reply = '';
conn.on('connect', () => {
  const request = {
    scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? '',
    url,
    context: process.env.MCP_CONFORMANCE_CONTEXT ?? '{}',
  };
  conn.write(`${JSON.stringify(request)}\n`);
});
conn.on('data', (d) => {
  reply += d.toString();
});
conn.on('error', (err) => {
  console.error(`relay.mjs: the driver is not reachable (${err.message})`);
  process.exit(2);
});
conn.on('close', () => {
  try {
    const { code, output } = JSON.parse(reply);
    if (output) console.log(output);
    process.exit(typeof code === 'number' ? code : 1);
  } catch {
    console.error('relay.mjs: the driver closed without an answer');
    process.exit(1);
  }
});
