/**
 * Secret files (threat T5, what a model may read): files that by their name hold credentials —
 * environment files, private keys and certificates, package-registry and netrc tokens, cloud
 * credentials. Plan mode's read tools never show their content: read_file refuses them,
 * search_files leaves them out of its results. list_files still names them (marked as secret),
 * so a model planning "add a setting to .env.example" sees what exists without reading it.
 *
 * Judged by the file's name alone, case-insensitively (a file system that ignores case opens
 * `.ENV` as `.env`), never by content: a name is all a refusal may depend on to be predictable.
 * Samples meant to be committed (`.env.example`, `.env.sample`, `.env.template`, `.env.dist`)
 * are ordinary files.
 */

/** A rule: a test on the lower-cased name (the last path segment) or the whole path, and why. */
interface SecretRule {
  matches: (name: string, path: string) => boolean;
  reason: string;
}

/** Suffixes of environment files that are committed on purpose, without real values. */
const ENV_SAMPLES = new Set(['example', 'sample', 'template', 'dist', 'defaults', 'schema']);

/** `.env`, `.env.local`, `.env.production.local`, `prod.env`; not `.env.example` or `.envrc.sample`. */
function isEnvFile(name: string): boolean {
  if (name === '.env' || name === '.envrc') return true;
  const parts = name.split('.');
  const last = parts.at(-1) ?? '';
  if (ENV_SAMPLES.has(last) || parts.some((part) => ENV_SAMPLES.has(part))) return false;
  return name.startsWith('.env.') || name.startsWith('.envrc.') || (name.endsWith('.env') && name !== '.env');
}

const SECRET_NAMES: ReadonlyMap<string, string> = new Map([
  ['.npmrc', 'an npm config file (it may hold registry tokens)'],
  ['.pypirc', 'a PyPI config file (it holds upload tokens)'],
  ['.netrc', 'a netrc file (it holds passwords)'],
  ['_netrc', 'a netrc file (it holds passwords)'],
  ['.git-credentials', 'a git credentials file'],
  ['.htpasswd', 'a password file'],
  ['.pgpass', 'a PostgreSQL password file'],
  ['.my.cnf', 'a MySQL client config (it may hold a password)'],
  ['credentials', 'a credentials file'],
  ['credentials.json', 'a credentials file'],
  ['credentials.yml', 'a credentials file'],
  ['credentials.yaml', 'a credentials file'],
  ['.dockercfg', 'a Docker registry credentials file'],
  ['secrets.json', 'a secrets file'],
  ['secrets.yml', 'a secrets file'],
  ['secrets.yaml', 'a secrets file'],
  ['secrets.toml', 'a secrets file'],
]);

/** Extensions of private keys, certificates with keys, and key stores. */
const KEY_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['pem', 'a PEM key or certificate'],
  ['key', 'a private key'],
  ['p12', 'a PKCS#12 key store'],
  ['pfx', 'a PKCS#12 key store'],
  ['jks', 'a Java key store'],
  ['keystore', 'a key store'],
  ['kdbx', 'a KeePass password database'],
  ['gpg', 'an encrypted or key file'],
  ['asc', 'a PGP key or signature'],
]);

const RULES: readonly SecretRule[] = [
  { matches: (name) => isEnvFile(name), reason: 'an environment file (it holds secrets)' },
  // id_rsa, id_ed25519, id_ecdsa_sk and their .pub halves: the pair is kept together.
  { matches: (name) => /^id_(?:rsa|dsa|ecdsa|ed25519)/.test(name), reason: 'an SSH key' },
  { matches: (_, path) => /(?:^|\/)\.ssh\//.test(path), reason: 'a file of an .ssh folder' },
  { matches: (_, path) => /(?:^|\/)\.aws\/(?:credentials|config)$/.test(path), reason: 'AWS credentials' },
  { matches: (_, path) => /(?:^|\/)\.docker\/config\.json$/.test(path), reason: 'Docker credentials' },
  { matches: (_, path) => /(?:^|\/)\.kube\/config$/.test(path), reason: 'a Kubernetes config' },
];

/**
 * Why `path` (workspace-relative, '/'-separated) is a secret file, as a phrase ("an
 * environment file (it holds secrets)"), or undefined when it is an ordinary file.
 */
export function secretFileReason(path: string): string | undefined {
  const lower = path.toLowerCase();
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  const named = SECRET_NAMES.get(name);
  if (named !== undefined) return named;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? KEY_EXTENSIONS.get(name.slice(dot + 1)) : undefined;
  if (extension !== undefined) return extension;
  return RULES.find((rule) => rule.matches(name, lower))?.reason;
}
