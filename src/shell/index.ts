/**
 * The one shell module: parsing and analysis of command lines on just-bash's parser (a leaf: it imports
 * nothing of core, tools, sandbox or ui). Used by the Bash tool and the permission engine.
 */
export { analyzeShellOffPage } from './analysis-host.ts';
export { analyzeShell, analyzeWith } from './analyze.ts';
export { gitStartDir, isReadOnlyGit, type PathProbe, untrustedGitRepository } from './git.ts';
export { foldLookalikes, foldName, hasNonAscii } from './lookalike.ts';
export { loadShellParser, shellParserIfLoaded, shellParserRuns } from './parser.ts';
export {
  cdpathSearched,
  inSession,
  programName,
  type SessionOptions,
  type SessionView,
  type ShellSessionState,
  TRUSTED_PATH_DIRS,
  withOpaqueCommands,
} from './session.ts';
export type {
  PathAccess,
  ShellAnalysis,
  ShellCommand,
  ShellForm,
  ShellPathRef,
  ShellWord,
} from './types.ts';
export { GLOB_CHARS } from './words.ts';
