/**
 * `aide verify`'s argv turned into typed options, apart from the command spec: what runs the
 * command imports these types without importing the spec that loads it lazily.
 */
import { z } from 'zod';
import { AideError } from '../../shared/errors.js';
import type { RawArgv } from './spec.js';

export const verifyOptionsSchema = z
  .object({
    staged: z.boolean().default(false),
    ref: z.string().min(1, { error: '--ref needs a revision, e.g. --ref HEAD~1' }).optional(),
    /** `--commands a,b` (also repeated: `--commands a --commands b`). */
    commands: z
      .array(z.string())
      .optional()
      .transform((values) => {
        if (values === undefined) return undefined;
        const names = values
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter((v) => v !== '');
        return names.length === 0 ? undefined : [...new Set(names)];
      }),
    junit: z.string().min(1, { error: '--junit needs a file name, e.g. --junit verify.xml' }).optional(),
    /** false with --no-isolation. */
    isolation: z.boolean().default(true),
  })
  .refine((o) => !(o.staged && o.ref !== undefined), {
    error: '--staged and --ref name different things to verify; give one of them',
  });
export type VerifyOptions = z.infer<typeof verifyOptionsSchema>;

function asList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function verifyOptions(argv: RawArgv): VerifyOptions {
  const parsed = verifyOptionsSchema.safeParse({
    staged: argv['staged'],
    ref: typeof argv['ref'] === 'number' ? String(argv['ref']) : argv['ref'],
    commands: asList(argv['commands']),
    junit: argv['junit'],
    isolation: argv['isolation'],
  });
  if (!parsed.success) {
    throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', {
      hint: 'See `aide verify --help`.',
    });
  }
  return parsed.data;
}
