/**
 * The harness's event loop against Node's: the same scripts (timers with distinct delays, immediates,
 * nextTick before promise jobs, 'beforeExit' that schedules more work, unref'd timers) print the
 * same in Node and in the guest.
 */
import { describe, expect, it } from 'vitest';
import { runScriptInGuest, runScriptInNode } from './script-differential.ts';

const SCRIPTS: Record<string, string> = {
  'nextTick runs before promise jobs, also when queued from them': `
    const log = [];
    Promise.resolve().then(() => { log.push('p1'); process.nextTick(() => log.push('tick from p1')); });
    process.nextTick(() => { log.push('t1'); Promise.resolve().then(() => log.push('p from t1')); process.nextTick(() => log.push('t2')); });
    Promise.resolve().then(() => log.push('p2'));
    setTimeout(() => console.log(log.join(' ')), 1);`,
  // Two logs, so the result does not depend on how a loaded machine interleaves the interval with the
  // timeouts (Node fires everything that is due in expiry order after a stall).
  'timers fire in due order; intervals repeat; clear* cancels': `
    const log = [];
    const ticks = [];
    let waiting = 3;
    const done = () => { if (--waiting === 0) console.log(log.join(' ') + ' | ' + ticks.join(' ')); };
    setTimeout(() => { log.push('30'); done(); }, 30);
    setTimeout(() => log.push('10'), 10);
    const gone = setTimeout(() => log.push('never'), 5);
    clearTimeout(gone);
    let n = 0;
    const iv = setInterval(() => { ticks.push('iv' + ++n); if (n === 3) { clearInterval(iv); done(); } }, 7);
    setImmediate(() => { log.push('immediate'); done(); });`,
  "'beforeExit' may schedule more work; 'exit' comes once with the exit code": `
    let rounds = 0;
    process.on('beforeExit', (code) => { console.log('beforeExit', code, rounds); if (rounds++ < 2) setTimeout(() => console.log('more work', rounds), 1); });
    process.on('exit', (code) => console.log('exit', code));
    process.exitCode = 3;`,
  "an unref'd timer does not keep the process alive": `
    setTimeout(() => console.log('never runs'), 1000).unref();
    setTimeout(() => console.log('runs'), 5);
    process.on('exit', () => console.log('exit'));`,
  'an error thrown from a timer goes to uncaughtException listeners': `
    process.on('uncaughtException', (err, origin) => console.log('caught', err.message, origin));
    setTimeout(() => { throw new Error('boom'); }, 1);
    setTimeout(() => console.log('still running'), 5);`,
};

describe('the harness event loop matches Node', () => {
  for (const [name, code] of Object.entries(SCRIPTS)) {
    it(name, async () => {
      const node = runScriptInNode(code);
      const guest = await runScriptInGuest(code);
      expect(guest.output).toBe(node.output);
      expect(guest.exitCode).toBe(node.exitCode);
    });
  }
});
