/**
 * The one shell module: parsing and analysis of command lines on just-bash's parser (a leaf: it imports
 * nothing of core, tools, sandbox or ui). Used by the Bash tool and the permission engine.
 */
export { analyzeShellOffPage } from './analysis-host.ts';
export { analyzeShell, analyzeWith } from './analyze.ts';
export { gitStartDir, isReadOnlyGit, type PathProbe, untrustedGitRepository } from './git.ts';
export { foldLookalikes, foldName, hasNonAscii } from './lookalike.ts';
export {
  NPM_COMMANDS,
  NPM_IMPLICIT_SCRIPTS,
  NPM_SERVER_START,
  parseArgs as parseNpmArgs,
  ROOT_INSTALL_EVENTS,
  runsRootInstallScripts,
} from './npm-args.ts';
export { loadShellParser, shellParserIfLoaded, shellParserRuns } from './parser.ts';
export { isKnownProgram } from './programs.ts';
export {
  cdpathSearched,
  inSession,
  isCodeVariable,
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
