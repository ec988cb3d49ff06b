/** Where aide's files live, relative to the workspace root (DESIGN.md, "Files in the user's repository"). */

export const AIDE_DIR = '.aide';
export const CONFIG_FILE = '.aide/config.json';
export const SANDBOX_FILE = '.aide/sandbox.json';
export const GITIGNORE_FILE = '.aide/.gitignore';
/** Plan documents: `aide act` alone carries out the newest. */
export const PLANS_DIR = '.aide/plans';
/** aide's runtime state (the shadow repository, sessions, locks, journals): never a file of the workspace. */
export const STATE_DIR = '.aide/state';

/** The JSON Schemas aide ships, in `schemas/` of its package. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';
export const SANDBOX_SCHEMA_FILE = 'sandbox.schema.json';

/** Where the schemas are when aide is installed in the project: relative to the workspace root. */
export const INSTALLED_SCHEMA_DIR = 'node_modules/aide/schemas';
