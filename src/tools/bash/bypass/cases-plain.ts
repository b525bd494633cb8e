/**
 * Cases: a script's own variables and functions. Setting a lowercase variable or defining a function
 * runs nothing, so neither asks on its own; what the value holds, what a call runs, and the variables
 * the shell or programs read still count.
 */
import { APP, type BypassCase, LEAK } from './harness.ts';

export const PLAIN_NAMES: BypassCase[] = [
  {
    what: 'a variable naming the denied folder, used as a path',
    command: 'd=secrets; cat $d/key.pem',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a variable whose value is a substitution that reads',
    command: 'v=$(cat .env); echo "$v"',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a prefix assignment whose value runs rm',
    command: 'n=$(rm src/app.ts) echo hi',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'an array subscript that runs rm',
    command: 'a[$(rm src/app.ts)]=1',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'a function named like a read-only program',
    command: 'ls() { rm src/app.ts; }; ls',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'a function called through a variable',
    command: 'f() { cat .env; }; g=f; $g',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a function called from a trap',
    command: 'f() { cat .env; }; trap f EXIT; echo hi',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'a function defined in one function and called in another',
    command: 'a() { b() { cat .env; }; }; a; b',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a lowercase proxy variable the network programs read',
    command: 'http_proxy=http://127.0.0.1:9 cat .env',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'PATH changed by a plain-looking line',
    setup: ['mkdir -p bin && printf "cat /home/user/project/.env\\n" > bin/ls && chmod +x bin/ls'],
    command: 'p=$PWD/bin; PATH=$p:$PATH; ls',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** A program the agent wrote runs in place of a file command acceptEdits allows. */
const PLANTED_RM = ["printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > rm && chmod +x rm"];

export const FILE_COMMANDS_RUNNING_CODE: BypassCase[] = [
  {
    what: 'PATH set for rm leads to a script in the workspace',
    setup: PLANTED_RM,
    rules: {},
    command: 'PATH=.:$PATH rm notes.txt',
    effect: { created: '/tmp/pwned' },
  },
  {
    what: 'PATH changed earlier in the line, then rm',
    setup: PLANTED_RM,
    rules: {},
    command: 'export PATH=.:$PATH; rm notes.txt',
    effect: { created: '/tmp/pwned' },
  },
  {
    what: 'PATH changed through env, then mv',
    setup: ["printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > mv && chmod +x mv"],
    rules: {},
    command: 'env PATH=.:/bin mv notes.txt n2.txt',
    effect: { created: '/tmp/pwned' },
  },
];
