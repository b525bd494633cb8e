/**
 * Specs of the programs that read and print: readers and filters (cat, grep, sort, jq, diff...), pagers
 * (which run commands they are given, so never read-only), and printers of names and system facts
 * (basename, env, date, hostname...). Read-only unless a flag or option writes or runs something.
 */
import type { ParsedArgs } from './options.ts';
import { flagsOf, optionalOf, RECURSIVE_FLAGS, type Spec, short } from './specs.ts';

const GREP: Spec = {
  options: {
    short: short('mABCdD', { e: 'value', f: 'read' }),
    long: {
      ...flagsOf(
        '--regexp --max-count --after-context --before-context --context --include --exclude --exclude-dir ' +
          '--label --binary-files --devices --directories --group-separator',
      ),
      // `--color[=WHEN]`: a next word is the pattern or a file.
      ...optionalOf('--color --colour'),
      '--file': 'read',
      '--exclude-from': 'read',
    },
  },
  operands: 'pattern',
  readOnly: true,
  patternOptions: ['-e', '-f', '--regexp', '--file'],
  recursive: RECURSIVE_FLAGS,
  // `-d recurse`, `--directories=rec` (an abbreviation, as GNU grep's argmatch takes): the same as -r.
  recursiveValues: ['-d', '--directories'],
};

/** `-c`, `--check` (or an abbreviation): the operands are lists of sums and the names of files to read. */
const checks = (a: ParsedArgs): boolean =>
  [...a.flags].some((f) => f === '-c' || (f.length > 3 && '--check'.startsWith(f)));

/**
 * md5sum and the other sums: with -c each operand lists files it reads and says OK or FAILED of (a guess
 * of a denied file's content is confirmed): files only known at run time are read.
 */
const CHECKSUM: Spec = { options: {}, operands: 'read', readOnly: true, readsNamed: checks };

/** bat (batcat on Debian): prints files, highlighted, through a pager it can be told to run. */
const BAT: Spec = {
  options: {
    short: short('lHmr'),
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

export const READER_SPECS: Record<string, Spec> = {
  cat: { options: {}, operands: 'read', readOnly: true },
  // just-bash's tac takes no options: its first word, whatever it looks like, is its file (GNU's: -s SEP).
  tac: { options: { short: short('s') }, operands: 'read', readOnly: true, wordsAreFiles: true },
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
      long: {
        ...flagsOf(
          '--ignore --hide --width --tabsize --format --sort --time --time-style --block-size ' +
            '--quoting-style --indicator-style',
        ),
        ...optionalOf('--color --hyperlink'),
      },
    },
    operands: 'read',
    readOnly: true,
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    options: {
      short: short('defgtTmABCjMrE', { f: 'read' }),
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
  // `-w[BYTES]`, `-S[BYTES]`... GNU's -w takes its value glued only.
  od: { options: { short: short('AjNSt', { w: 'value?' }) }, operands: 'read', readOnly: true },
  column: { options: { short: short('cosNRETWH') }, operands: 'read', readOnly: true },
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
    // `strings @FILE` reads its arguments from FILE (binutils' response files), which it may print.
    readsNamed: (a) => a.operands.some((w) => w.dynamic || w.text.startsWith('@')),
  },
  base64: { options: { short: short('w'), long: flagsOf('--wrap') }, operands: 'read', readOnly: true },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha512sum: CHECKSUM,
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
        ...flagsOf('--max-depth --block-size --threshold --exclude --time-style'),
        ...optionalOf('--time'),
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
          '--exclude --ignore-matching-lines --show-function-line --label --width --ifdef --line-format --old-line-format --new-line-format --unchanged-line-format --horizon-lines --palette --starting-file',
        ),
        // `--context[=N]`, `--unified[=N]`, `--color[=WHEN]`: a next word is a file compared.
        ...optionalOf('--context --unified --color'),
        '--exclude-from': 'read',
        '--from-file': 'read',
        '--to-file': 'read',
      },
    },
    operands: 'read',
    readOnly: true,
    recursive: RECURSIVE_FLAGS,
    // A directory operand is compared file by file (`diff e .` reads ./.env when e/.env exists).
    directoryOperands: true,
  },
  tree: {
    options: {
      short: short('LPIHT', { o: 'write' }),
      long: {
        // --fromfile is a flag: the operands are files of names, read.
        ...flagsOf('--filelimit --timefmt --charset --sort'),
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
      long: { ...flagsOf('--indent'), '--from-file': 'read' },
      // `--arg NAME VALUE`, `--rawfile NAME FILE`: a name, then the value.
      pairs: { '--arg': 'value', '--argjson': 'value', '--rawfile': 'read', '--slurpfile': 'read' },
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
  // `-s[CHAR]`, `-S[STRING]`: glued only.
  pr: { options: { short: short('hlNowW', { s: 'value?', S: 'value?' }) }, operands: 'read', readOnly: true },
  fmt: {
    options: { short: short('wgp'), long: flagsOf('--width --goal --prefix') },
    operands: 'read',
    readOnly: true,
  },
  sum: { options: {}, operands: 'read', readOnly: true },
  cksum: { ...CHECKSUM, options: { short: short('al'), long: flagsOf('--algorithm --length') } },
  b2sum: { ...CHECKSUM, options: { short: short('l'), long: flagsOf('--length') } },
  sha224sum: CHECKSUM,
  sha384sum: CHECKSUM,
  iconv: {
    options: {
      short: short('ft', { o: 'write' }),
      long: { ...flagsOf('--from-code --to-code'), '--output': 'write' },
    },
    operands: 'read',
    readOnly: true,
  },
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
    // The expression may come after a subcommand (`yq eval EXPR`, `yq e EXPR`).
    readsNamed: (a) =>
      a.operands.slice(0, 2).some((w) => w.dynamic || /\bload(_str|_xml|_props|_base64)?\s*\(/.test(w.text)),
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
      // `-I[FMT]`, `--iso-8601[=FMT]`: glued only.
      short: short('d', { I: 'value?', f: 'read', r: 'read' }),
      long: {
        ...flagsOf('--date --rfc-3339'),
        ...optionalOf('--iso-8601'),
        '--file': 'read',
        '--reference': 'read',
      },
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
};
