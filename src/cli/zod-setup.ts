/**
 * zod's settings for a CLI process. By default zod 4 compiles a fast parser for each object
 * schema with `new Function` the first time it parses one: worth it for a server parsing the same
 * shape millions of times, a loss for a process that parses a config file, a state file and its
 * options once (review --staged: 345 → 325 ms of CPU, status: 275 → 225 ms, measured here). Every
 * command loads zod for its options anyway, so this costs none of them a module.
 */
import { config } from 'zod';

config({ jitless: true });
