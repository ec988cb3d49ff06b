/**
 * The targets a Makefile defines, read the way make reads rules: `test:` and `test check: deps`
 * are rules, `.PHONY: test` declares one, while `test.o:` is another target, `test := x` and
 * `test ?= x` are variables, `test: CFLAGS += -g` is a target-specific variable (no rule), and
 * tab-indented lines are recipes. Enough for proposing `make test`; not a make parser.
 */

export interface MakeTargets {
  /** Targets that have a rule in this file. */
  rules: ReadonlySet<string>;
  /** Prerequisites of `.PHONY`: declared as commands, their rule possibly in an included file. */
  phony: ReadonlySet<string>;
}

/** A rule line: targets (no `=`, `:` or `#` in them), one or two colons, not `:=` / `::=`. */
const RULE = /^([^:=#\s][^:=#]*?)\s*::?(?![:=])(.*)$/;
/** What follows the colon of a target-specific variable: `VAR = x`, `export VAR := x`, … */
const TARGET_VARIABLE = /^\s*(?:(?:export|override|private)\s+)*[A-Za-z_][\w.-]*\s*(?::{1,3}=|[?+!]?=)/;

/** Logical lines: backslash-newline joined, recipes and define…endef blocks left out. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let inDefine = false;
  for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    if (line.startsWith('\t')) continue;
    const trimmed = line.trim();
    if (/^define\b/.test(trimmed)) inDefine = true;
    else if (/^endef\b/.test(trimmed)) inDefine = false;
    else if (!inDefine) lines.push(line.replace(/(^|\s)#.*$/, ''));
  }
  return lines;
}

export function makeTargets(text: string): MakeTargets {
  const rules = new Set<string>();
  const phony = new Set<string>();
  for (const line of logicalLines(text)) {
    const rule = RULE.exec(line);
    if (!rule) continue;
    const [, targets = '', rest = ''] = rule;
    if (TARGET_VARIABLE.test(rest)) continue;
    const names = targets.trim().split(/\s+/);
    if (names.includes('.PHONY')) {
      for (const name of rest.split(/[\s;]+/)) if (name !== '') phony.add(name);
      continue;
    }
    for (const name of names) if (!/[%$]/.test(name)) rules.add(name);
  }
  return { rules, phony };
}

export function hasTarget(targets: MakeTargets, name: string): boolean {
  return targets.rules.has(name) || targets.phony.has(name);
}
