/**
 * The one rule of `aide review`'s secrets check without a vendor prefix: a value that looks
 * random, assigned to a name that says it is a credential (`api_key = "…"`, `SECRET: …`,
 * `"client_secret": "…"`). Precision first, as for the prefix rules: the name must say secret,
 * the value must be long, mix letters and digits and be close to random (Shannon entropy), and the
 * usual non-secrets are let through by name: UUIDs, placeholders (`xxxx`, `<token>`, `${VAR}`,
 * `changeme`), reads of the environment (`process.env.X`, `os.environ[...]`), and lockfiles, whose
 * hex checksums and commit ids are random by design.
 */

/** The rule's id, as findings, `--json` and `.aide/review-ignore` name it. */
export const ENTROPY_RULE_ID = 'generic-secret-assignment';

/** Shorter values are too often words, ids or test data; the prefix rules catch short real tokens. */
export const MIN_SECRET_LENGTH = 16;
/**
 * Bits per character. Random base62 of 16+ characters measures about 3.7 to 5; English words,
 * identifiers and repeated placeholders stay under 3.2. The same threshold as gitleaks'
 * generic-api-key rule, which was tuned on real repositories.
 */
export const MIN_ENTROPY_BITS = 3.5;

/**
 * A name that says its value is a credential, at the end of the key (`GITHUB_TOKEN`,
 * `stripe.secretKey`, `db_password`). Not bare `key` (`const key = "user:42:name"`) nor `auth`
 * (`author`).
 */
const SECRET_NAME =
  /(?:api[_.-]?key|apikey|secret(?:[_.-]?key)?|token|passw(?:or)?d|passwd|pwd|credentials?|private[_.-]?key|access[_.-]?key|auth[_.-]?(?:key|token)|signing[_.-]?key|client[_.-]?secret)$/i;

/**
 * `name = value`, `name: value`, `name := value`, `name => value`, the name optionally quoted, the
 * value quoted or bare. `==` is a comparison, not an assignment. Found from the operator outward,
 * every repetition bounded: one regex over the whole line took seconds on a 600 KiB line of one
 * letter (each start position ran the name to its limit and backtracked).
 */
const OPERATOR = /[ \t]{0,8}(?::=|=>|(?<![=!<>])=(?![=>])|:)[ \t]{0,8}/g;
const NAME_BEFORE = /(["']?)([A-Za-z_$][\w.$-]{0,80})\1$/;
const VALUE_AFTER = /^(?:(["'`])([^"'`\s]{0,512})\1|([^\s"'`,;)}\]]{1,512}))/;

/** What a random token is made of: base64, base64url, hex, and the separators vendors use. */
const TOKEN_CHARS = /^[A-Za-z0-9+/=_.~-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLACEHOLDER =
  /x{4}|\*{4}|\.{3}|example|placeholder|changeme|change[_-]me|your[_-]|dummy|redacted|sample|fake|<[^>]*>|\$\{|\{\{/i;
/** Reads of the environment or a secret store: the value is code, not the secret. */
const INDIRECTION = /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\.|ENV\.|secrets\.|vars\.)/;

/** Files whose random-looking values are checksums and commit ids, never credentials. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'uv.lock',
  'Gemfile.lock',
  'composer.lock',
  'Pipfile.lock',
  'flake.lock',
]);

/** Shannon entropy of a string, in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let length = 0;
  for (const count of counts.values()) length += count;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Whether a value assigned to a secret-sounding name looks like a real credential. */
export function looksLikeSecret(value: string): boolean {
  return (
    value.length >= MIN_SECRET_LENGTH &&
    TOKEN_CHARS.test(value) &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !UUID.test(value) &&
    !PLACEHOLDER.test(value) &&
    !INDIRECTION.test(value) &&
    shannonEntropy(value) >= MIN_ENTROPY_BITS
  );
}

/** A random-looking value assigned to a secret-sounding name. */
export interface EntropyMatch {
  /** The name it is assigned to (not secret; shown). */
  name: string;
  /** 1-based column (UTF-16 units) where the value starts. */
  column: number;
  /** The value's length; the value itself is never kept. */
  length: number;
}

/** Whether the entropy rule reads this file at all (lockfiles are skipped). */
export function entropyApplies(path: string): boolean {
  return !LOCKFILES.has(path.slice(path.lastIndexOf('/') + 1));
}

/** Every secret-looking assignment in one line. */
export function findEntropySecrets(line: string): EntropyMatch[] {
  const found: EntropyMatch[] = [];
  for (const op of line.matchAll(OPERATOR)) {
    const name = NAME_BEFORE.exec(line.slice(Math.max(0, op.index - 90), op.index))?.[2];
    if (name === undefined || !SECRET_NAME.test(name)) continue;
    const after = op.index + op[0].length;
    const value = VALUE_AFTER.exec(line.slice(after, after + 520));
    const text = value?.[2] ?? value?.[3];
    if (value === null || text === undefined || !looksLikeSecret(text)) continue;
    const at = after + (value[1] === undefined ? 0 : 1);
    found.push({ name, column: at + 1, length: text.length });
  }
  return found;
}
