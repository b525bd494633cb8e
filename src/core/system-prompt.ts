/**
 * The system prompt: a fixed .md text plus an environment section (sandbox kind and its commands,
 * cwd, date). The environment changes only when the sandbox or the day changes, so the system block
 * stays byte-stable across the turns of a session.
 */
import type { SandboxInfo } from '../sandbox/sandbox.ts';
import basePrompt from './system-prompt.md?raw';

export interface EnvironmentInfo {
  sandbox: SandboxInfo;
  root: string;
  cwd: string;
  /** YYYY-MM-DD */
  date: string;
}

export function environmentSection(env: EnvironmentInfo): string {
  const { sandbox } = env;
  const lines = [
    '# Environment',
    `- Working directory: ${env.cwd}`,
    `- Project root: ${env.root}`,
    `- Today's date: ${env.date}`,
    `- Sandbox: ${sandbox.kind}${sandbox.reason ? ` (${sandbox.reason})` : ''}`,
  ];
  if (sandbox.kind === 'just-bash') {
    lines.push(
      '- The shell is just-bash, a simulated bash with an in-memory file system. Pipes, redirections, variables, loops and functions work. There is no git.',
    );
    if (sandbox.hasNode) {
      lines.push(
        '- `node` runs JavaScript and TypeScript (types stripped) on a Node.js 22-compatible runtime in a worker: CommonJS and ES modules, node_modules, and the core built-ins (fs, path, events, util, assert, crypto hashes, timers, child_process.exec, node:test). It has no network, no http/net servers, no worker_threads, no native addons, and child_process.execSync is not available (use exec).',
        '- `npm run <script>`, `npm test`, `npm start` and `npx <bin>` work; `npm install` fetches from the package registry when the page can reach it (it says so when it cannot).',
      );
    } else {
      lines.push('- There is no Node.js here: do not try to run node or install packages.');
    }
    if (sandbox.commands.includes('python3')) {
      lines.push('- `python3` runs Python (the standard library only; no pip packages, no network).');
    }
    lines.push(`- Commands available: ${sandbox.commands.join(', ')}`);
  } else {
    lines.push(
      '- The shell is a WebContainer: a real Node.js runtime in the browser with npm. Native binaries (other than Node) do not run.',
      '- Each Bash call runs in a fresh `jsh` shell on a pseudo-terminal: stdout and stderr come back interleaved; the working directory and exported variables carry over between calls.',
      '- A server listening on a port is shown to the user in a preview. A command that never exits (a dev server) runs until its timeout, so give it a short one.',
      '- `node_modules` is not kept when the page reloads: run `npm install` again if it is missing.',
    );
    if (sandbox.commands.length) lines.push(`- Commands available: ${sandbox.commands.join(', ')}`);
  }
  return lines.join('\n');
}

export function buildSystemPrompt(env: EnvironmentInfo): string {
  return `${basePrompt.trim()}\n\n${environmentSection(env)}\n`;
}

/** Today's date as YYYY-MM-DD (UTC). */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
