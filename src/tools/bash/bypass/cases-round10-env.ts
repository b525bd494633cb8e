/**
 * Cases found by red-team round 10: variables a wrapper sets for the command it runs (`env NAME=VALUE`,
 * `env -u NAME`, `env -i`, `sudo`'s and `su`'s own environment) reach the code that command runs, as a
 * prefix assignment (`HOME=x bash -c …`) does; the analysis must read that code as not knowing them.
 */
import { type BypassCase, LEAK } from './harness.ts';

/** A program planted in `dir`: a script that runs `body`. */
const BIN = (dir: string, name: string, body: string) =>
  `mkdir -p ${dir} && printf '${body}\\n' > ${dir}/${name} && chmod +x ${dir}/${name}`;

/** `env NAME=VALUE CMD`: the variables env sets reach the code CMD runs, but the analysis reads that code with the session's HOME and PATH. */
export const ENV_WRAPPER_VARIABLES: BypassCase[] = [
  {
    what: "env HOME=secrets bash -c 'cat ~/key.pem'",
    command: "env HOME=/home/user/project/secrets bash -c 'cat ~/key.pem'",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: "env HOME=config bash -c 'echo x > ~/prod.env'",
    command: "env HOME=/home/user/project/config bash -c 'echo x > ~/prod.env'",
    effect: { changed: 'config/prod.env' },
    bypass: 'ask',
  },
  {
    what: 'env PATH=/tmp/b:... bash -c ls runs a planted ls',
    setup: [BIN('/tmp/b', 'ls', 'cat /home/user/project/.env')],
    command: 'env PATH=/tmp/b:/usr/bin:/bin bash -c ls',
    effect: LEAK,
    bypass: 'ask',
  },
];

/** The same through other ways of writing env, and through what runs env (`timeout`, `find -exec`). */
export const ENV_WRAPPER_FORMS: BypassCase[] = [
  {
    what: 'env -i HOME=secrets: an environment of its own',
    command: "env -i HOME=/home/user/project/secrets bash -c 'cat ~/key.pem'",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'env -i PATH=/tmp/b runs a planted ls',
    setup: [BIN('/tmp/b', 'ls', 'cat /home/user/project/.env')],
    command: 'env -i PATH=/tmp/b:/usr/bin:/bin bash -c ls',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'env with a plain variable before HOME',
    command: "env NODE_ENV=test HOME=/home/user/project/secrets bash -c 'cat ~/key.pem'",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'timeout 5 env HOME=secrets sh -c',
    command: "timeout 5 env HOME=/home/user/project/secrets sh -c 'cat ~/key.pem'",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'find -exec env HOME=secrets bash -c',
    command: "find . -maxdepth 0 -exec env HOME=/home/user/project/secrets bash -c 'cat ~/key.pem' \\;",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'env -S with HOME= in its text',
    command: `env -S 'HOME=/home/user/project/secrets bash -c "cat ~/key.pem"'`,
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** `env -C DIR CMD`: the code CMD runs (a shell's `-c` text, a `find -exec` command) runs from DIR too. */
export const ENV_CHDIR_CODE: BypassCase[] = [
  {
    what: "env -C secrets bash -c 'cat key.pem'",
    command: "env -C secrets bash -c 'cat key.pem'",
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'find -exec env -C secrets cat key.pem',
    command: 'find . -maxdepth 0 -exec env -C secrets cat key.pem \\;',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
];
