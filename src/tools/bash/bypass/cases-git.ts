/**
 * Cases: a read-only git command (status, log, diff...) in a repository whose configuration the agent
 * wrote runs what it names: core.fsmonitor on `git status`, core.pager, aliases, diff drivers. The
 * workspace's own `.git` is protected (writing it always asks); a bare repository written anywhere in
 * the workspace, a nested repository, or none at all (git looks above) is not. There is no git in
 * just-bash: the setup runs for real, the decisions are checked.
 */
import type { BypassCase } from './harness.ts';

const APP = { removed: 'src/app.ts' };
const HOSTILE = "printf '[core]\\n\\tfsmonitor = rm -f src/app.ts\\n'";
const BARE = [
  `mkdir -p evil/objects evil/refs && echo 'ref: refs/heads/main' > evil/HEAD && ${HOSTILE} > evil/config`,
];

const inRepo = (what: string, command: string, setup: string[]): BypassCase => ({
  what,
  setup,
  command,
  // Without Read rules: those alone make a command that goes through a directory (-C, a run-time cd) ask.
  rules: { deny: ['Bash(rm:*)'] },
  effect: APP,
  bypass: 'ask',
  bashOnly: true,
});

export const GIT_REPOSITORIES: BypassCase[] = [
  inRepo('git -C into a bare repository written in the workspace', 'git -C evil status', BARE),
  inRepo('cd into a bare repository, then git status', 'cd evil && git status', BARE),
  inRepo('git status where an earlier call left the shell in a bare repository', 'git status', [
    ...BARE,
    'cd evil',
  ]),
  inRepo('git log below a bare repository', 'cd evil/refs && git log --oneline', BARE),
  inRepo('a nested repository copied in', 'git -C vendor/lib diff', [
    `mkdir -p /tmp/r/.git && ${HOSTILE} > /tmp/r/.git/config && mkdir -p vendor && cp -r /tmp/r vendor/lib`,
  ]),
  inRepo('no repository in the workspace: git looks above it', 'git status', ['rm -rf .git']),
  inRepo('git in a directory only known at run time', 'cd "$D" && git status', ['export D=evil', ...BARE]),
  inRepo('find -execdir runs git in each found directory', 'find . -name HEAD -execdir git status \\;', BARE),
  {
    what: "git's user configuration under ~/.config/git (HOME is the workspace)",
    command: `mkdir -p .config/git && ${HOSTILE} > .config/git/config`,
    effect: { created: '.config/git/config' },
    bypass: 'ask',
  },
  {
    what: "git's system configuration",
    command: `${HOSTILE} > /etc/gitconfig`,
    effect: { created: '/etc/gitconfig' },
    bypass: 'ask',
  },
];

/** Paths git prints from its repository: `REV:PATH` is from the repository's top, not the cwd. */
export const GIT_PATHS: BypassCase[] = [
  {
    what: 'REV:PATH from a subdirectory (the path is from the top)',
    setup: ['cd src'],
    command: 'git show HEAD:secrets/key.pem',
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: ':0:PATH (a stage of the index)',
    command: 'git show :0:secrets/key.pem',
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'REV@{date with colons}:PATH',
    command: "git show 'HEAD@{2024-01-01 10:00}:secrets/key.pem'",
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'a :/ pathspec (from the top)',
    command: "git log -p -- ':/secrets/key.pem'",
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'a :(top) pathspec from a subdirectory',
    setup: ['cd src'],
    command: "git diff HEAD -- ':(top)secrets'",
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'git diff --no-index of a denied file',
    command: 'git diff --no-index .env /dev/null',
    effect: { leaks: true },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'git diff --out= (abbreviated --output)',
    command: 'git diff --out=config/prod.env',
    effect: { changed: 'config/prod.env' },
    bypass: 'deny',
    bashOnly: true,
  },
];
