/**
 * Where workspace hooks are configured, on its own: the page names the file (the Permissions panel)
 * without importing the hook runner.
 */

/** Where workspace hooks are configured (Claude Code's project settings file). */
export const HOOKS_SETTINGS_FILE = '.claude/settings.json';
