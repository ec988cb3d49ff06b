import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aloneTemplateProblem, findTemplates, resolveTemplates, type ResolveResult } from './templates.js';

const outputs = new Map([
  [1, 'dist/gen'],
  [3, '1.4.0'],
]);

function resolved(result: ResolveResult): string {
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.text;
}

function failure(result: ResolveResult): string {
  assert.ok(!result.ok, 'expected a failure');
  return result.message;
}

describe('resolveTemplates', () => {
  test('fills in earlier steps, with or without spaces inside the braces', () => {
    assert.equal(
      resolved(resolveTemplates('gen --out {{ steps.1.output }} --v={{steps.3.output}}', outputs, 4)),
      'gen --out dist/gen --v=1.4.0',
    );
  });

  test('last is the nearest earlier step that has an output', () => {
    assert.equal(resolved(resolveTemplates('v{{ last.output }}', outputs, 4)), 'v1.4.0');
    assert.equal(resolved(resolveTemplates('{{ last.output }}', outputs, 3)), 'dist/gen');
  });

  test('an output is inserted as given, even when it looks like a template', () => {
    assert.equal(
      resolved(resolveTemplates('{{ steps.1.output }}', new Map([[1, '{{ last.output }} $x']]), 2)),
      '{{ last.output }} $x',
    );
  });

  test('text without references, and other {{ }} text, is unchanged', () => {
    const text =
      "docker inspect -f '{{ .State.Running }}' {{ user.name }} ${{ steps.build.outputs.tag }} {{{ raw }}}";
    assert.equal(resolved(resolveTemplates(text, outputs, 2)), text);
  });

  test('a later step', () => {
    assert.equal(
      failure(resolveTemplates('{{ steps.3.output }}', outputs, 2)),
      '{{ steps.3.output }} refers to step 3, which runs after step 2; a step can use only the output of an earlier step',
    );
  });

  test('the current step', () => {
    assert.equal(
      failure(resolveTemplates('{{ steps.3.output }}', outputs, 3)),
      '{{ steps.3.output }} refers to step 3 itself; a step can use only the output of an earlier step',
    );
  });

  test('an earlier step without output, or one that does not exist', () => {
    assert.equal(
      failure(resolveTemplates('{{ steps.2.output }}', outputs, 4)),
      '{{ steps.2.output }} in step 4: step 2 has no output (steps with an output: 1, 3)',
    );
    assert.equal(
      failure(resolveTemplates('x {{ steps.1.output }}', new Map(), 2)),
      '{{ steps.1.output }} in step 2: step 1 has no output (no earlier step has one)',
    );
  });

  test('last in the first step, or with no earlier output', () => {
    assert.equal(
      failure(resolveTemplates('{{ last.output }}', outputs, 1)),
      '{{ last.output }} in step 1: no earlier step has an output',
    );
  });

  test('a malformed reference says what to write', () => {
    assert.equal(
      failure(resolveTemplates('{{ steps.1.stdout }}', outputs, 2)),
      '{{ steps.1.stdout }} is not a template aide knows: write {{ steps.1.output }} (the output of a step) or {{ last.output }} (the output of the nearest earlier step that has one)',
    );
    assert.match(failure(resolveTemplates('{{ last }}', outputs, 2)), /write \{\{ last\.output \}\}/);
    assert.match(
      failure(resolveTemplates('{{ step.1.output }}', outputs, 2)),
      /write \{\{ steps\.1\.output \}\}/,
    );
    assert.match(failure(resolveTemplates('{{ Steps[1] }}', outputs, 2)), /write \{\{ steps\.1\.output \}\}/);
  });
});

describe('findTemplates', () => {
  test('finds references at their offsets and skips foreign ones', () => {
    const uses = findTemplates('a {{ steps.2.output }} {{ x }} {{last.output}} {{ stpes.1.output }}');
    assert.deepEqual(
      uses.map((u) => [u.index, u.text, u.ref.kind]),
      [
        [2, '{{ steps.2.output }}', 'step'],
        [31, '{{last.output}}', 'last'],
        [47, '{{ stpes.1.output }}', 'malformed'],
      ],
    );
  });

  test('a template does not span lines', () => {
    assert.deepEqual(findTemplates('{{ steps.1\n.output }}'), []);
  });
});

describe('aloneTemplateProblem (aide act --step N)', () => {
  test('a step that needs no earlier output can run alone', () => {
    assert.equal(
      aloneTemplateProblem(['npm run gen', 'src/a.js\n${{ steps.build.outputs.x }} {{ name }}'], 2),
      undefined,
    );
  });

  test('a reference to an earlier step says which step does not run, and what to do', () => {
    assert.equal(
      aloneTemplateProblem(['echo hi', 'v{{ steps.1.output }}'], 3),
      "step 3 runs alone (--step 3), so {{ steps.1.output }} cannot be filled in: it needs step 1's output, and step 1 does not run. Run the whole plan (without --step), or write the value in place of the template.",
    );
  });

  test('last.output needs some earlier step', () => {
    assert.match(
      aloneTemplateProblem(['{{ last.output }}'], 2) ?? '',
      /^step 2 runs alone \(--step 2\), so \{\{ last\.output \}\} cannot be filled in: it needs the output of an earlier step, and none runs\./,
    );
  });
});
