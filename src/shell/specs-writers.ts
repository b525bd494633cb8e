/**
 * Specs of the programs that change files (rm, cp, mv, chmod, gzip, patch...) or reach the network
 * (curl, wget): never read-only, and the paths they are given are surely used.
 */
import { flagsOf, optionalOf, RECURSIVE_FLAGS, type Spec, short } from './specs.ts';

export const WRITER_SPECS: Record<string, Spec> = {
  // Line-ending converters rewrite their files in place.
  dos2unix: { options: {}, operands: 'modify', readOnly: 'dos2unix rewrites files' },
  unix2dos: { options: {}, operands: 'modify', readOnly: 'unix2dos rewrites files' },
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
    // `--context[=CTX]`: a next word is a directory made.
    options: { short: short('m'), long: { ...flagsOf('--mode'), ...optionalOf('--context') } },
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
  // `--output-error[=MODE]`: its value only glued with `=`; a next word is a file tee writes.
  tee: { options: { long: { '--output-error': 'value?' } }, operands: 'write', readOnly: 'tee writes files' },
  cp: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: {
        ...flagsOf('--suffix --no-preserve --sparse'),
        // `--backup[=CONTROL]`, `--preserve[=LIST]`...: a next word is a file copied.
        ...optionalOf('--backup --preserve --reflink --update'),
        '--target-directory': 'write-dir',
      },
    },
    operands: 'copy',
    readOnly: 'cp writes files',
    recursive: [...RECURSIVE_FLAGS, '-a', '--archive'],
  },
  install: {
    options: {
      short: short('gmoS', { t: 'write-dir' }),
      long: {
        ...flagsOf('--group --mode --owner --suffix'),
        ...optionalOf('--backup --context'),
        '--target-directory': 'write-dir',
      },
    },
    operands: 'copy',
    readOnly: 'install writes files',
  },
  mv: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: {
        ...flagsOf('--suffix'),
        ...optionalOf('--backup --update'),
        '--target-directory': 'write-dir',
      },
    },
    // A moved directory takes everything below it (a .git too), and shows it under the new name: each
    // operand that is a directory when the line is checked counts as its whole tree (programs.ts).
    operands: 'move',
    readOnly: 'mv moves files',
    destructive: true,
  },
  ln: {
    options: {
      short: short('S', { t: 'write-dir' }),
      long: { ...flagsOf('--suffix'), ...optionalOf('--backup'), '--target-directory': 'write-dir' },
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
      // -d and -e are flags (numeric suffixes, no empty files).
      short: short('abCln'),
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
