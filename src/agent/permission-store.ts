/**
 * Where a project's "allow always" rules persist: IndexedDB (database `tabcode-permissions`, the same
 * one as the settings rules), under a key per project, so the rules a user approved for one project
 * survive a reload and never apply to another.
 */
import { createIdbPermissionStorage, type PermissionSettingsStorage } from '../core/permissions/store.ts';

/** The project of the stand-alone page (it has one saved project). */
export const DEFAULT_PROJECT_ID = 'default';

/** The key prefix of a project's rules in the permissions database. */
export const projectRulesKey = (projectId: string, key: string): string => `project:${projectId}:${key}`;

/**
 * A project's rule storage inside `base` (default: the permissions database in IndexedDB), or null
 * where IndexedDB does not exist (the rules then last for the session).
 */
export function projectPermissionStorage(
  projectId: string = DEFAULT_PROJECT_ID,
  base?: PermissionSettingsStorage,
): PermissionSettingsStorage | null {
  const store = base ?? (typeof indexedDB !== 'undefined' ? createIdbPermissionStorage() : null);
  if (!store) return null;
  return {
    get: (key) => store.get(projectRulesKey(projectId, key)),
    set: (key, value) => store.set(projectRulesKey(projectId, key), value),
  };
}

/**
 * Where a session keeps its "allow always" rules: the given project storage, none when nothing may
 * persist (`storage: null`, as in an embedded page), else this project's in IndexedDB.
 */
export function allowAlwaysStorage(
  options: {
    storage?: PermissionSettingsStorage | null;
    projectStorage?: PermissionSettingsStorage | null;
  } = {},
): PermissionSettingsStorage | null {
  if (options.projectStorage !== undefined) return options.projectStorage;
  return options.storage === null ? null : projectPermissionStorage();
}
