/**
 * The programs the analysis knows: which options take values and which values are files, what the
 * operands are, and which programs are read-only unless an option writes or runs something. A program
 * not listed is not read-only, and its words are only maybe files (see programs.ts).
 */
import type { OptionSpec, ParsedArgs, ValueKind } from './options.ts';

export type OperandRule =
  /** Files read / written; none: not files. */
  | 'read'
  | 'write'
  | 'none'
  /** Files read and rewritten in place (gzip, gunzip, patch): a Read rule and an Edit rule both meet them. */
  | 'modify'
  /** zip: the archive (read and rewritten), then the files it takes in (read). */
  | 'archive'
  /** split: an input file (read), then the prefix of the files it writes (`PREFIX*`, default `x` here). */
  | 'split'
  /** A pattern or program first (unless given by an option), then files read. */
  | 'pattern'
  /** cp/mv/ln/install: sources, then the destination (or `-t DIR`). */
  | 'copy'
  | 'move'
  /** chmod/chown: a mode or owner first (unless --reference), then files written. */
  | 'mode';

export interface Spec {
  options: OptionSpec;
  operands: OperandRule;
  /** True: read-only unless a flag or option value writes or runs something. A string: never, and why. */
  readOnly: true | string;
  /** Options that give the pattern (then every operand is a file). */
  patternOptions?: readonly string[];
  /** Recursive always, or with one of these flags. */
  recursive?: true | readonly string[];
  destructive?: boolean;
  /** Flags that make it rewrite its file operands in place (`yq -i`): they are read and written. */
  inPlace?: readonly string[];
  /** Its own language may name files it reads (yq's load()): a file only known at run time is read. */
  readsNamed?: (args: ParsedArgs) => boolean;
  /** More reasons it is not read-only (operands that write, options that set things). */
  check?: (args: ParsedArgs) => string | null;
}

const flagsOf = (list: string): Record<string, ValueKind> =>
  Object.fromEntries(
    list
      .split(' ')
      .filter(Boolean)
      .map((f) => [f, 'value']),
  );

/** Short options taking a plain value, then overrides. */
const short = (letters: string, extra: Record<string, ValueKind | `${ValueKind}?`> = {}) => ({
  ...Object.fromEntries([...letters].map((l) => [l, 'value' as ValueKind])),
  ...extra,
});

export const RECURSIVE_FLAGS = ['-r', '-R', '--recursive', '--dereference-recursive'];

const GREP: Spec = {
  options: {
    short: short('mABCdD', { e: 'value', f: 'read' }),
    long: {
      ...flagsOf(
        '--regexp --max-count --after-context --before-context --context --include --exclude --exclude-dir ' +
          '--label --color --colour --binary-files --devices --directories --group-separator',
      ),
      '--file': 'read',
      '--exclude-from': 'read',
    },
  },
  operands: 'pattern',
  readOnly: true,
  patternOptions: ['-e', '-f', '--regexp', '--file'],
  recursive: RECURSIVE_FLAGS,
};

/** bat (batcat on Debian): prints files, highlighted, through a pager it can be told to run. */
const BAT: Spec = {
  options: {
    short: short('lpHmrL'),
    long: {
      ...flagsOf(
        '--language --highlight-line --map-syntax --line-range --theme --style --tabs --wrap --terminal-width',
      ),
      '--pager': 'exec',
    },
  },
  operands: 'read',
  readOnly: 'bat runs a pager',
};

export const SPECS: Record<string, Spec> = {
  cat: { options: {}, operands: 'read', readOnly: true },
  tac: { options: { short: short('s') }, operands: 'read', readOnly: true },
  rev: { options: {}, operands: 'read', readOnly: true },
  head: {
    options: { short: short('nc'), long: flagsOf('--lines --bytes') },
    operands: 'read',
    readOnly: true,
  },
  tail: {
    options: {
      short: short('ncs'),
      long: flagsOf('--lines --bytes --pid --sleep-interval --max-unchanged-stats'),
    },
    operands: 'read',
    readOnly: true,
  },
  wc: { options: { long: { '--files0-from': 'list' } }, operands: 'read', readOnly: true },
  ls: {
    options: {
      short: short('IwT'),
      long: flagsOf(
        '--ignore --hide --width --tabsize --color --format --sort --time --time-style --block-size ' +
          '--quoting-style --indicator-style',
      ),
    },
    operands: 'read',
    readOnly: true,
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    options: {
      short: short('efgtTmABCjMrE', { f: 'read' }),
      long: {
        ...flagsOf(
          '--regexp --glob --iglob --type --type-not --type-add --max-count --after-context --before-context ' +
            '--context --threads --max-columns --replace --encoding --max-depth --max-filesize --sort --sortr ' +
            '--color --colors --context-separator --field-match-separator --path-separator --engine --pre-glob',
        ),
        '--file': 'read',
        '--ignore-file': 'read',
        '--pre': 'exec',
        '--hostname-bin': 'exec',
      },
    },
    operands: 'pattern',
    readOnly: true,
    patternOptions: ['-e', '-f', '--regexp', '--file'],
    recursive: true,
  },
  sort: {
    options: {
      short: short('ktS', { o: 'write', T: 'write-dir' }),
      long: {
        ...flagsOf('--key --field-separator --buffer-size --parallel --batch-size'),
        '--output': 'write',
        '--temporary-directory': 'write-dir',
        '--files0-from': 'list',
        '--random-source': 'read',
        '--compress-program': 'exec',
      },
    },
    operands: 'read',
    readOnly: true,
  },
  uniq: {
    options: {
      short: short('fsw'),
      long: flagsOf('--skip-fields --skip-chars --check-chars --group --all-repeated'),
    },
    operands: 'read',
    readOnly: true,
    // `uniq IN OUT` writes OUT (handled in operandPaths).
  },
  cut: {
    options: {
      short: short('bcdf'),
      long: flagsOf('--bytes --characters --delimiter --fields --output-delimiter'),
    },
    operands: 'read',
    readOnly: true,
  },
  tr: { options: {}, operands: 'none', readOnly: true },
  nl: { options: { short: short('bdfhilnsvw') }, operands: 'read', readOnly: true },
  od: { options: { short: short('AjNStw') }, operands: 'read', readOnly: true },
  column: { options: { short: short('cosNRETWHJLd') }, operands: 'read', readOnly: true },
  comm: { options: { long: flagsOf('--output-delimiter') }, operands: 'read', readOnly: true },
  paste: { options: { short: short('d'), long: flagsOf('--delimiters') }, operands: 'read', readOnly: true },
  join: { options: { short: short('aeotv12j') }, operands: 'read', readOnly: true },
  fold: { options: { short: short('w'), long: flagsOf('--width') }, operands: 'read', readOnly: true },
  expand: { options: { short: short('t'), long: flagsOf('--tabs') }, operands: 'read', readOnly: true },
  unexpand: { options: { short: short('t'), long: flagsOf('--tabs') }, operands: 'read', readOnly: true },
  strings: {
    options: { short: short('ntTe'), long: flagsOf('--bytes --radix --encoding --target') },
    operands: 'read',
    readOnly: true,
  },
  base64: { options: { short: short('w'), long: flagsOf('--wrap') }, operands: 'read', readOnly: true },
  md5sum: { options: {}, operands: 'read', readOnly: true },
  sha1sum: { options: {}, operands: 'read', readOnly: true },
  sha256sum: { options: {}, operands: 'read', readOnly: true },
  sha512sum: { options: {}, operands: 'read', readOnly: true },
  zcat: { options: {}, operands: 'read', readOnly: true },
  stat: {
    options: { short: short('c'), long: flagsOf('--format --printf') },
    operands: 'read',
    readOnly: true,
  },
  file: {
    options: {
      short: short('FPe', { m: 'read', f: 'read' }),
      long: {
        ...flagsOf('--separator --parameter --exclude'),
        '--magic-file': 'read',
        '--files-from': 'read',
      },
      effects: { '-C': 'file -C writes a magic file', '--compile': 'file -C writes a magic file' },
    },
    operands: 'read',
    readOnly: true,
  },
  du: {
    options: {
      short: short('dBt', { X: 'read' }),
      long: {
        ...flagsOf('--max-depth --block-size --threshold --exclude --time-style --time'),
        '--exclude-from': 'read',
        '--files0-from': 'list',
      },
    },
    operands: 'read',
    readOnly: true,
    recursive: true,
  },
  diff: {
    options: {
      short: short('CUxIFLWD', { X: 'read', S: 'value' }),
      long: {
        ...flagsOf(
          '--context --unified --exclude --ignore-matching-lines --show-function-line --label --width --ifdef --line-format --old-line-format --new-line-format --unchanged-line-format --horizon-lines --color --palette --starting-file',
        ),
        '--exclude-from': 'read',
        '--from-file': 'read',
        '--to-file': 'read',
      },
    },
    operands: 'read',
    readOnly: true,
    recursive: RECURSIVE_FLAGS,
  },
  tree: {
    options: {
      short: short('LPIHT', { o: 'write' }),
      long: {
        ...flagsOf('--filelimit --timefmt --charset --sort --prune --ignore-case --matchdirs'),
        '--fromfile': 'read',
      },
      effects: { '-R': 'tree -R writes a listing file into each directory' },
    },
    operands: 'read',
    readOnly: true,
    recursive: true,
  },
  jq: {
    options: {
      short: short('L', { f: 'read' }),
      long: { ...flagsOf('--indent --tab --arg --argjson'), '--from-file': 'read' },
    },
    operands: 'pattern',
    readOnly: true,
    patternOptions: ['-f', '--from-file'],
  },
  // Pagers: they read their files, and run commands they are given (`less '+!cmd'`, LESSOPEN, `!` in
  // more), so they are not read-only; a Read rule on a file they show denies.
  less: {
    options: {
      short: short('bhjpPtxyz#', { o: 'write', O: 'write', k: 'read', T: 'read' }),
      long: {
        ...flagsOf(
          '--buffers --max-back-scroll --jump-target --pattern --prompt --tag --tabs --window --shift',
        ),
        '--log-file': 'write',
        '--LOG-FILE': 'write',
        '--lesskey-file': 'read',
        '--tag-file': 'read',
      },
    },
    operands: 'read',
    readOnly: 'less runs commands it is given (+!command, LESSOPEN)',
  },
  more: {
    options: { short: short('n') },
    operands: 'read',
    readOnly: 'more runs shell commands it is given (!)',
  },
  most: { options: {}, operands: 'read', readOnly: 'most runs shell commands it is given' },
  bat: BAT,
  // Debian names the same program batcat.
  batcat: BAT,
  // Readers that print or compare what they read (cmp -l prints the differing bytes; xxd IN OUT writes OUT).
  cmp: {
    options: { short: short('in'), long: flagsOf('--ignore-initial --bytes') },
    operands: 'read',
    readOnly: true,
  },
  xxd: { options: { short: short('cglosn') }, operands: 'read', readOnly: true },
  hexdump: { options: { short: short('ens', { f: 'read' }) }, operands: 'read', readOnly: true },
  hd: { options: { short: short('ens', { f: 'read' }) }, operands: 'read', readOnly: true },
  pr: { options: { short: short('hlNowWSs') }, operands: 'read', readOnly: true },
  fmt: {
    options: { short: short('wgp'), long: flagsOf('--width --goal --prefix') },
    operands: 'read',
    readOnly: true,
  },
  sum: { options: {}, operands: 'read', readOnly: true },
  cksum: {
    options: { short: short('al'), long: flagsOf('--algorithm --length') },
    operands: 'read',
    readOnly: true,
  },
  b2sum: { options: { short: short('l'), long: flagsOf('--length') }, operands: 'read', readOnly: true },
  sha224sum: { options: {}, operands: 'read', readOnly: true },
  sha384sum: { options: {}, operands: 'read', readOnly: true },
  iconv: {
    options: {
      short: short('ft', { o: 'write' }),
      long: { ...flagsOf('--from-code --to-code'), '--output': 'write' },
    },
    operands: 'read',
    readOnly: true,
  },
  dos2unix: { options: {}, operands: 'modify', readOnly: 'dos2unix rewrites files' },
  unix2dos: { options: {}, operands: 'modify', readOnly: 'unix2dos rewrites files' },
  // just-bash's yq (and mikefarah's): an expression, then files; -i rewrites them, load() reads any file.
  yq: {
    options: {
      short: short('poI'),
      long: flagsOf('--input-format --output-format --indent'),
      effects: { '-s': 'yq --split-exp writes files', '--split-exp': 'yq --split-exp writes files' },
    },
    operands: 'pattern',
    readOnly: true,
    patternOptions: ['--from-file'],
    inPlace: ['-i', '--inplace'],
    readsNamed: (a) =>
      /\bload(_str|_xml|_props|_base64)?\s*\(/.test(a.operands[0]?.text ?? '') ||
      a.operands[0]?.dynamic === true,
  },
  basename: { options: { short: short('s'), long: flagsOf('--suffix') }, operands: 'none', readOnly: true },
  dirname: { options: {}, operands: 'none', readOnly: true },
  realpath: { options: { long: flagsOf('--relative-to --relative-base') }, operands: 'read', readOnly: true },
  readlink: { options: {}, operands: 'read', readOnly: true },
  which: { options: {}, operands: 'none', readOnly: true },
  whereis: { options: {}, operands: 'none', readOnly: true },
  printenv: { options: {}, operands: 'none', readOnly: true },
  // `env` with no command prints the environment (with one, it is a wrapper: see wrappers.ts).
  env: { options: { short: short('u'), long: flagsOf('--unset') }, operands: 'none', readOnly: true },
  echo: { options: {}, operands: 'none', readOnly: true },
  true: { options: {}, operands: 'none', readOnly: true },
  false: { options: {}, operands: 'none', readOnly: true },
  ':': { options: {}, operands: 'none', readOnly: true },
  pwd: { options: {}, operands: 'none', readOnly: true },
  seq: {
    options: { short: short('fs'), long: flagsOf('--format --separator') },
    operands: 'none',
    readOnly: true,
  },
  expr: { options: {}, operands: 'none', readOnly: true },
  sleep: { options: {}, operands: 'none', readOnly: true },
  whoami: { options: {}, operands: 'none', readOnly: true },
  id: { options: {}, operands: 'none', readOnly: true },
  uname: { options: {}, operands: 'none', readOnly: true },
  clear: { options: {}, operands: 'none', readOnly: true },
  help: { options: {}, operands: 'none', readOnly: true },
  type: { options: {}, operands: 'none', readOnly: true },
  hostname: {
    options: {},
    operands: 'none',
    readOnly: true,
    check: (a) =>
      a.operands.length > 0 || a.flags.size > 0 ? 'hostname with arguments may set the host name' : null,
  },
  history: {
    options: {},
    operands: 'none',
    readOnly: true,
    check: (a) =>
      a.flags.size > 0 || a.operands.some((w) => !/^\d+$/.test(w.text))
        ? 'history with options clears, reads or writes the history'
        : null,
  },
  date: {
    options: {
      short: short('dI', { f: 'read', r: 'read' }),
      long: { ...flagsOf('--date --iso-8601 --rfc-3339'), '--file': 'read', '--reference': 'read' },
      effects: { '-s': 'date -s sets the clock', '--set': 'date -s sets the clock' },
    },
    operands: 'none',
    readOnly: true,
    check: (a) =>
      a.operands.some((w) => w.dynamic || !w.text.startsWith('+'))
        ? 'date with a time operand sets the clock'
        : null,
  },
  // `printf -v NAME` is handled before the specs.
  printf: { options: {}, operands: 'none', readOnly: true },
  // Commands that change files (paths sure, never read-only).
  rm: {
    options: {},
    operands: 'write',
    readOnly: 'rm deletes files',
    recursive: RECURSIVE_FLAGS,
    destructive: true,
  },
  rmdir: { options: {}, operands: 'write', readOnly: 'rmdir deletes directories', destructive: true },
  unlink: { options: {}, operands: 'write', readOnly: 'unlink deletes a file', destructive: true },
  shred: {
    options: { short: short('ns'), long: flagsOf('--iterations --size --random-source') },
    operands: 'write',
    readOnly: 'shred destroys files',
    destructive: true,
  },
  truncate: {
    options: { short: short('s', { r: 'read' }), long: { '--size': 'value', '--reference': 'read' } },
    operands: 'write',
    readOnly: 'truncate changes files',
    destructive: true,
  },
  mkdir: {
    options: { short: short('m'), long: flagsOf('--mode --context') },
    operands: 'write',
    readOnly: 'mkdir creates directories',
  },
  touch: {
    options: {
      short: short('dt', { r: 'read' }),
      long: { ...flagsOf('--date --time'), '--reference': 'read' },
    },
    operands: 'write',
    readOnly: 'touch changes files',
  },
  tee: { options: { long: flagsOf('--output-error') }, operands: 'write', readOnly: 'tee writes files' },
  cp: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: {
        ...flagsOf('--suffix --backup --preserve --no-preserve --sparse --reflink --update'),
        '--target-directory': 'write-dir',
      },
    },
    operands: 'copy',
    readOnly: 'cp writes files',
    recursive: [...RECURSIVE_FLAGS, '-a', '--archive'],
  },
  install: {
    options: {
      short: short('gmoSZ', { t: 'write-dir' }),
      long: {
        ...flagsOf('--group --mode --owner --suffix --backup --context'),
        '--target-directory': 'write-dir',
      },
    },
    operands: 'copy',
    readOnly: 'install writes files',
  },
  mv: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: { ...flagsOf('--suffix --backup --update'), '--target-directory': 'write-dir' },
    },
    operands: 'move',
    readOnly: 'mv moves files',
  },
  ln: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: { ...flagsOf('--suffix --backup'), '--target-directory': 'write-dir' },
    },
    operands: 'copy',
    readOnly: 'ln creates links',
    // A link to a directory exposes everything below it under another name.
    recursive: true,
  },
  // `link FILE NAME`: a hard link, FILE's content under a second name (written through either).
  link: { options: {}, operands: 'copy', readOnly: 'link creates a hard link' },
  chmod: {
    options: { long: { '--reference': 'read' } },
    operands: 'mode',
    readOnly: 'chmod changes permissions',
    recursive: RECURSIVE_FLAGS,
  },
  chown: {
    options: { long: { '--reference': 'read', '--from': 'value' } },
    operands: 'mode',
    readOnly: 'chown changes owners',
    recursive: RECURSIVE_FLAGS,
  },
  chgrp: {
    options: { long: { '--reference': 'read' } },
    operands: 'mode',
    readOnly: 'chgrp changes groups',
    recursive: RECURSIVE_FLAGS,
  },
  split: {
    options: {
      short: short('abCdeln'),
      long: {
        ...flagsOf('--suffix-length --additional-suffix --bytes --line-bytes --lines --number'),
        // Runs `sh -c COMMAND` for each piece.
        '--filter': 'shell',
      },
    },
    operands: 'split',
    readOnly: 'split writes files',
  },
  gzip: {
    options: { short: short('S'), long: flagsOf('--suffix') },
    operands: 'modify',
    readOnly: 'gzip replaces files',
    destructive: true,
    recursive: RECURSIVE_FLAGS,
  },
  gunzip: {
    options: { short: short('S'), long: flagsOf('--suffix') },
    operands: 'modify',
    readOnly: 'gunzip replaces files',
    destructive: true,
    recursive: RECURSIVE_FLAGS,
  },
  zip: {
    options: { short: short('bnPtx', { i: 'value' }) },
    operands: 'archive',
    readOnly: 'zip writes an archive',
    recursive: RECURSIVE_FLAGS,
  },
  unzip: {
    options: { short: short('xP', { d: 'write-dir' }) },
    operands: 'read',
    readOnly: 'unzip writes files',
  },
  curl: {
    options: {
      short: short('HXAueEmrwxyYz', {
        o: 'write',
        T: 'read',
        K: 'read',
        c: 'write',
        D: 'write',
        b: 'read',
        d: 'value',
        F: 'value',
      }),
      long: {
        ...flagsOf(
          '--header --request --user-agent --user --data --data-raw --data-binary --data-urlencode --form --max-time --retry --proxy --url --write-out',
        ),
        '--output': 'write',
        '--output-dir': 'write-dir',
        '--upload-file': 'read',
        '--config': 'read',
        '--cookie-jar': 'write',
        '--dump-header': 'write',
        '--trace': 'write',
        '--trace-ascii': 'write',
        '--stderr': 'write',
        '--cookie': 'read',
      },
    },
    operands: 'none',
    readOnly: 'curl reaches the network',
  },
  wget: {
    options: {
      short: short('tTUe', { O: 'write', o: 'write', a: 'write', P: 'write-dir', i: 'read' }),
      long: {
        '--output-document': 'write',
        '--output-file': 'write',
        '--directory-prefix': 'write-dir',
        '--input-file': 'read',
        '--post-file': 'read',
      },
    },
    operands: 'none',
    readOnly: 'wget downloads files',
  },
  patch: {
    options: {
      short: short('pFDBzVY', { o: 'write', i: 'read', r: 'write', d: 'write-dir' }),
      long: { '--output': 'write', '--input': 'read', '--reject-file': 'write', '--directory': 'write-dir' },
    },
    operands: 'write',
    readOnly: 'patch changes files',
  },
};

/** Shell builtins: found without PATH; many change the shell session. */
const BUILTINS = new Set(
  (
    'cd pushd popd dirs echo printf test [ true false : pwd export unset alias unalias type command builtin ' +
    'eval source . exec read set shopt declare typeset local readonly let shift return exit break continue ' +
    'trap wait jobs kill umask getopts hash history help mapfile readarray times enable logout disown bg fg ' +
    'suspend compgen complete caller ulimit'
  ).split(' '),
);

/** Builtins that change the shell session (variables, options, functions, fds, the cwd). */
const STATE_BUILTINS = new Set(
  (
    'cd pushd popd export unset alias unalias set shopt declare typeset local readonly let shift read ' +
    'mapfile readarray getopts trap umask hash enable source . eval exec ulimit'
  ).split(' '),
);

/** Builtins whose arguments name variables; a subscript in a name is evaluated (`unset 'a[$(cmd)]'`). */
export const NAME_BUILTINS = new Set(
  'export unset declare typeset local readonly read mapfile readarray getopts let printf'.split(' '),
);

export const isBuiltin = (name: string): boolean => BUILTINS.has(name);
export const changesShellState = (name: string): boolean => STATE_BUILTINS.has(name);
