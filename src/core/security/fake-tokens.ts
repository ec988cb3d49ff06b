/**
 * Realistic-looking FAKE credentials, one per format secret-patterns.ts knows, for tests (core
 * and end-to-end). Built from pieces at run time so this file itself holds no string a secret
 * scanner (aide's own, GitHub's push protection) would take for a real token.
 */
const alnum = (n: number, seed = 7): string => {
  const chars = 'A1b2C3d4E5f6G7h8J9k0LmNpQrStUvWxYz';
  let out = '';
  for (let i = 0; i < n; i++) out += chars[(i * seed + 3) % chars.length] ?? 'x';
  return out;
};
const upper = (n: number): string => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.repeat(4).slice(3, 3 + n);
const letters = (n: number): string =>
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(2).slice(0, n);
const hex = (n: number, seed = 7): string => {
  let out = '';
  for (let i = 0; i < n; i++) out += '0123456789abcdef'[(i * seed + 5) % 16] ?? '0';
  return out;
};
const bech32 = (n: number): string => 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.repeat(3).slice(0, n);
const P = (...parts: string[]): string => parts.join('');

/**
 * Assignments only the entropy rule (secret-entropy.ts) finds: credentials without a vendor
 * prefix, in the shapes config files and code hold them. [what it is, the line].
 */
export const FAKE_ASSIGNMENTS: ReadonlyArray<readonly [string, string]> = [
  ['a .env line', P('API_', 'KEY=', alnum(32))],
  ['a quoted .env line', P('DATABASE_', 'PASSWORD="', alnum(24, 5), '"')],
  ['YAML', P('  client_', 'secret: ', alnum(40, 11))],
  ['JSON', P('{ "auth_', 'token": "', alnum(36, 13), '" }')],
  ['JS object', P('const config = { secretKey: ', "'", alnum(28), "' };")],
  ['Python', P('AWS_SECRET_', 'ACCESS_KEY = "', alnum(40, 5), '"')],
  ['Go', P('token := "', alnum(30, 11), '"')],
  ['Ruby hash', P('  :api_', 'key => "', alnum(32, 13), '",')],
  ['a Twilio auth token (hex)', P('TWILIO_AUTH_', 'TOKEN=', hex(32, 3))],
  ['an INI file', P('password = ', alnum(20, 5), '9')],
  ['a shell export', P('export GITHUB_', 'TOKEN=', alnum(40, 5))],
  ['a private key in hex', P('signing_', 'key: "', hex(64, 5), '"')],
];

/** [rule id, a fake token it must match]. */
export const FAKE_TOKENS: ReadonlyArray<readonly [string, string]> = [
  ['aws-access-key-id', P('AK', 'IA', upper(16))],
  ['aws-access-key-id', P('AS', 'IA', upper(16))],
  ['github-pat', P('gh', 'p_', alnum(36))],
  ['github-pat', P('gh', 'o_', alnum(36, 5))],
  ['github-pat', P('gh', 'u_', alnum(36, 11))],
  ['github-pat', P('gh', 's_', alnum(36, 13))],
  ['github-pat', P('gh', 'r_', alnum(40))],
  ['github-fine-grained-pat', P('github', '_pat_', alnum(22), '_', alnum(59, 5))],
  ['gitlab-pat', P('gl', 'pat-', alnum(20))],
  ['slack-token', P('xo', 'xb-', '1234567890-', alnum(24))],
  ['slack-token', P('xo', 'xp-', '1234567890-1234567890-', alnum(32))],
  ['slack-token', P('xo', 'xa-', '2-', alnum(30))],
  ['slack-webhook', P('https://hooks.slack', '.com/services/T', upper(8), '/B', upper(8), '/', alnum(24))],
  ['stripe-live-key', P('sk', '_live_', alnum(24))],
  ['stripe-live-key', P('rk', '_live_', alnum(99))],
  ['anthropic-api-key', P('sk', '-ant-', 'api03-', alnum(80, 5), '-', alnum(6), 'AA')],
  ['openai-api-key', P('sk', '-proj-', alnum(60, 11), '_', alnum(20))],
  ['openai-api-key', P('sk', '-', alnum(20), 'T3Blbk', 'FJ', alnum(20, 5))],
  ['openai-api-key', P('sk', '-svcacct-', alnum(64))],
  ['npm-token', P('np', 'm_', alnum(36))],
  ['gcp-service-account', P('"private_key": "-----BEGIN ', 'PRIVATE KEY-----\\nMIIE')],
  ['gcp-api-key', P('AI', 'za', alnum(35))],
  ['huggingface-token', P('h', 'f_', letters(34))],
  ['pypi-token', P('pypi-', 'AgEIcHlwaS5vcmc', alnum(60))],
  ['private-key', P('-----BEGIN ', 'RSA ', 'PRIVATE KEY-----')],
  ['private-key', P('-----BEGIN ', 'OPENSSH ', 'PRIVATE KEY-----')],
  ['private-key', P('-----BEGIN ', 'EC ', 'PRIVATE KEY-----')],
  ['sendgrid-api-key', P('S', 'G.', alnum(22), '.', alnum(43, 5))],
  ['shopify-token', P('shp', 'at_', hex(32))],
  ['shopify-token', P('shp', 'ss_', hex(32, 3))],
  ['digitalocean-token', P('do', 'p_v1_', hex(64))],
  ['databricks-token', P('da', 'pi', hex(32, 5))],
  ['linear-api-key', P('lin', '_api_', alnum(40))],
  ['postman-api-key', P('PM', 'AK-', hex(24), '-', hex(34, 3))],
  ['doppler-token', P('dp', '.pt.', alnum(43))],
  ['grafana-service-account-token', P('gl', 'sa_', alnum(32), '_', hex(8))],
  ['mailchimp-api-key', P(hex(32, 11), '-us', '21')],
  ['age-secret-key', P('AGE-SECRET', '-KEY-1', bech32(58))],
  ['jwt', P('ey', 'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0', '.', alnum(43))],
];
