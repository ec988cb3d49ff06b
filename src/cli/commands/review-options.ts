/**
 * `aide review`'s argv (and AIDE_SKIP) turned into typed options, apart from the command spec:
 * what runs the command imports these types without importing the spec that loads it lazily.
 */
import { z } from 'zod';
import { CHECK_NAMES } from '../../core/review/checks.js';
import { AideError } from '../../shared/errors.js';
import { modelFlagsShape } from './model-flags.js';
import type { RawArgv } from './spec.js';

const names = (values: readonly string[]): string[] =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

export const reviewOptionsSchema = z
  .object({
    staged: z.boolean().default(false),
    fromRef: z
      .string()
      .min(1, { error: '--from-ref needs a revision, e.g. --from-ref origin/main' })
      .optional(),
    toRef: z.string().min(1, { error: '--to-ref needs a revision, e.g. --to-ref HEAD' }).optional(),
    /** `--pre-push REMOTE`: review each range git's pre-push lines on stdin name (what the pre-push hook runs). */
    prePush: z.string().min(1, { error: '--pre-push needs the remote name git gives the hook' }).optional(),
    /** The checks to report as Skipped, from --skip and AIDE_SKIP together. */
    skip: z.array(z.string()).transform((values, ctx) => {
      const unknown = values.filter((v) => !(CHECK_NAMES as readonly string[]).includes(v));
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `no check named ${unknown.map((u) => `"${u}"`).join(', ')}; the checks are ${CHECK_NAMES.join(', ')}`,
        });
      return [...new Set(values)];
    }),
    /** false with --no-isolation. */
    isolation: z.boolean().default(true),
    /** Also write a JUnit XML report here. */
    junit: z.string().min(1, { error: '--junit needs a file name, e.g. --junit review.xml' }).optional(),
    /** `--model`/`--endpoint`: the model check's model for this run (config overrides). */
    ...modelFlagsShape,
  })
  .refine((o) => !(o.staged && (o.fromRef !== undefined || o.toRef !== undefined)), {
    error: '--staged and --from-ref/--to-ref name different changes to review; give one of them',
  })
  .refine((o) => o.prePush === undefined || (!o.staged && o.fromRef === undefined && o.toRef === undefined), {
    error: '--pre-push reviews the ranges git pushes; give it alone, without --staged or --from-ref/--to-ref',
  })
  .refine((o) => o.staged || o.fromRef !== undefined || o.prePush !== undefined, {
    error: 'say what to review: --staged (the next commit) or --from-ref A [--to-ref B] (a range)',
  });
export type ReviewOptions = z.infer<typeof reviewOptionsSchema>;

/** AIDE_SKIP: `1` (or `all`) skips every check, a comma-separated list the ones named. */
function envSkip(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '' || value.trim() === '0') return [];
  if (['1', 'all', 'true'].includes(value.trim().toLowerCase())) return [...CHECK_NAMES];
  return names([value]);
}

export function reviewOptions(
  argv: RawArgv,
  env: Readonly<Record<string, string | undefined>>,
): ReviewOptions {
  const rev = (value: unknown) => (typeof value === 'number' ? String(value) : value);
  const flagged =
    argv['skip'] === undefined
      ? []
      : (Array.isArray(argv['skip']) ? argv['skip'] : [argv['skip']]).map(String);
  const parsed = reviewOptionsSchema.safeParse({
    staged: argv['staged'],
    fromRef: rev(argv['fromRef']),
    toRef: rev(argv['toRef']),
    prePush: rev(argv['prePush']),
    skip: [...names(flagged), ...envSkip(env['AIDE_SKIP'])],
    isolation: argv['isolation'],
    junit: argv['junit'],
    model: argv['model'],
    endpoint: argv['endpoint'],
  });
  if (!parsed.success) {
    throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', {
      hint: 'See `aide review --help`.',
    });
  }
  return parsed.data;
}
