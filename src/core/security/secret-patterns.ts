/**
 * Credential formats a review refuses in added lines: only formats with a fixed, documented
 * prefix or structure, so a match is almost always a real token (high precision over recall; a
 * generic "looks random" rule would stop commits for test fixtures and hashes). Written for aide
 * from the vendors' published token formats; gitleaks' default rules were the checklist of which
 * vendors matter, not the source of these expressions.
 */

import { ENTROPY_RULE_ID, findEntropySecrets } from './secret-entropy.js';

/** One credential format. */
export interface SecretRule {
  /** Stable id, shown in findings and `--json`. */
  id: string;
  /** What it is, for people. */
  description: string;
  /** Matches the token; must not use the g flag (scanning adds it). */
  pattern: RegExp;
}

export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'aws-access-key-id',
    description: 'AWS access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/,
  },
  { id: 'github-pat', description: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/ },
  {
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained token',
    pattern: /\bgithub_pat_[A-Za-z0-9_]{82}\b/,
  },
  { id: 'gitlab-pat', description: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { id: 'slack-token', description: 'Slack token', pattern: /\bxox[baprs]-[A-Za-z0-9-]{10,250}\b/ },
  {
    id: 'slack-webhook',
    description: 'Slack webhook URL',
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/,
  },
  {
    id: 'stripe-live-key',
    description: 'Stripe live key',
    pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,247}\b/,
  },
  { id: 'anthropic-api-key', description: 'Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{32,}/ },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key',
    // sk-proj-/sk-svcacct-/sk-admin- keys, and the older sk-… keys with their T3BlbkFJ marker.
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})\b/,
  },
  { id: 'npm-token', description: 'npm access token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    id: 'gcp-service-account',
    description: 'Google Cloud service-account key',
    pattern: /"private_key"\s*:\s*"-----BEGIN[A-Z ]*PRIVATE KEY-----/,
  },
  { id: 'gcp-api-key', description: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { id: 'huggingface-token', description: 'Hugging Face token', pattern: /\bhf_[A-Za-z]{34,40}\b/ },
  { id: 'pypi-token', description: 'PyPI upload token', pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/ },
  {
    id: 'private-key',
    description: 'private key block',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  {
    id: 'sendgrid-api-key',
    description: 'SendGrid API key',
    pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/,
  },
  { id: 'shopify-token', description: 'Shopify token', pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/ },
  { id: 'digitalocean-token', description: 'DigitalOcean token', pattern: /\bdo[por]_v1_[a-f0-9]{64}\b/ },
  { id: 'databricks-token', description: 'Databricks token', pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/ },
  { id: 'linear-api-key', description: 'Linear API key', pattern: /\blin_api_[A-Za-z0-9]{40}\b/ },
  { id: 'postman-api-key', description: 'Postman API key', pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/ },
  { id: 'doppler-token', description: 'Doppler token', pattern: /\bdp\.pt\.[A-Za-z0-9]{43}\b/ },
  {
    id: 'grafana-service-account-token',
    description: 'Grafana service account token',
    pattern: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b/,
  },
  { id: 'mailchimp-api-key', description: 'Mailchimp API key', pattern: /\b[0-9a-f]{32}-us\d{1,2}\b/ },
  {
    id: 'age-secret-key',
    description: 'age secret key',
    pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/,
  },
  {
    id: 'jwt',
    description: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
  },
];

/** The inline comment that marks a line's match as a known false positive. */
export const ALLOW_SECRET = 'aide:allow-secret';

/** A credential found in a line. */
export interface SecretMatch {
  /** The rule's id and what it found, for people (a prefix rule's description, or the name a value is assigned to). */
  rule: Pick<SecretRule, 'id' | 'description'>;
  /** 1-based column (in UTF-16 units) where the token starts. */
  column: number;
  /** The token, masked: never the value itself. */
  masked: string;
}

/** What may be shown of a token: its first four characters (a vendor prefix, not the secret). */
export function maskSecret(token: string): string {
  return `${token.slice(0, 4)}…`;
}

/**
 * Every credential in one line; none when the line carries the allow comment. `entropy: false`
 * leaves out the entropy rule (secret-entropy.ts), for files where random values are expected
 * (lockfiles). A value a prefix rule found is not reported again by the entropy rule.
 */
export function findSecrets(line: string, options: { entropy: boolean } = { entropy: true }): SecretMatch[] {
  if (line.includes(ALLOW_SECRET)) return [];
  const found: SecretMatch[] = [];
  const spans: Array<[number, number]> = [];
  const { any, rules } = compiledRules();
  if (any.test(line)) {
    for (const { rule, global } of rules) {
      global.lastIndex = 0;
      for (let match = global.exec(line); match !== null; match = global.exec(line)) {
        found.push({ rule, column: match.index + 1, masked: maskSecret(match[0]) });
        spans.push([match.index + 1, match.index + match[0].length]);
        if (match[0] === '') global.lastIndex++;
      }
    }
  }
  if (!options.entropy) return found;
  for (const hit of findEntropySecrets(line)) {
    const end = hit.column + hit.length - 1;
    if (spans.some(([from, to]) => hit.column <= to && end >= from)) continue;
    found.push({
      rule: {
        id: ENTROPY_RULE_ID,
        description: `random-looking value of ${hit.length} characters assigned to ${hit.name}`,
      },
      column: hit.column,
      // Nothing of it: without a vendor prefix, every character is part of the secret.
      masked: '…',
    });
  }
  return found;
}

interface CompiledRules {
  /** Matches a line where at least one rule matches: most lines hold none, and are done in one test. */
  any: RegExp;
  /** Each rule with a global copy of its pattern, for every match in a line. */
  rules: Array<{ rule: SecretRule; global: RegExp }>;
}

let compiled: CompiledRules | undefined;

/**
 * Made once: a review scans every added line, and building 28 patterns per line (as matchAll
 * does, even given a global one) was most of a static review's own CPU. The union of patterns
 * without flags is exact as a filter (an alternation matches wherever one of them does); a
 * pattern with flags of its own would always be tried.
 */
function compiledRules(): CompiledRules {
  if (compiled !== undefined) return compiled;
  const plain = SECRET_RULES.filter((rule) => rule.pattern.flags === '');
  const flagged = SECRET_RULES.length !== plain.length;
  compiled = {
    any: flagged ? /(?:)/ : new RegExp(plain.map((rule) => `(?:${rule.pattern.source})`).join('|')),
    rules: SECRET_RULES.map((rule) => ({
      rule,
      global: new RegExp(rule.pattern.source, `${rule.pattern.flags}g`),
    })),
  };
  return compiled;
}
