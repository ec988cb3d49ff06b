/**
 * Genuine outputs of JavaScript test runners, captured on this project's machine (Node 20) from
 * tiny projects with a passing, a failing, a skipped and (where the runner has one) a todo
 * test, written to a pipe as aide runs commands (no TTY). ANSI escapes are kept where the
 * runner printed them; the tests strip them as the command runner does. Versions: uvu 0.5.6,
 * ava 7.0.0, tap 21.8.0, mocha 12.0.3.
 */

/** `uvu tests`: colors even without a TTY (kleur); a red code ends the Total line. */
export const uvu = `\u001b[1m\u001b[4m\u001b[37mmath.test.mjs\u001b[22m\u001b[24m\u001b[39m
\u001b[90m• \u001b[39m\u001b[31m✘ \u001b[39m\u001b[31m  (1 / 2)
\u001b[39m
  \u001b[1m\u001b[41m FAIL \u001b[22m\u001b[49m \u001b[2m"\u001b[22m\u001b[31m\u001b[1msubtracts\u001b[39m\u001b[22m\u001b[2m"\u001b[22m
    Expected values to be strictly equal:\u001b[3m\u001b[2m  (is)\u001b[23m\u001b[22m

        \u001b[32m++2    \u001b[2m\u001b[3m(Expected)\u001b[22m\u001b[23m\u001b[39m
        \u001b[31m--1    \u001b[2m\u001b[3m(Actual)\u001b[22m\u001b[23m\u001b[39m
        \u001b[90m
    at assert (file:///tmp/detect-runners/node_modules/uvu/assert/index.mjs:33:8)
    at Module.is (file:///tmp/detect-runners/node_modules/uvu/assert/index.mjs:41:2)
    at Object.handler (file:///tmp/detect-runners/uvu-t/math.test.mjs:4:34)
    at Number.runner (file:///tmp/detect-runners/node_modules/uvu/dist/index.mjs:78:16)
    at async Module.exec (file:///tmp/detect-runners/node_modules/uvu/dist/index.mjs:141:33)
    at async Module.run (file:///tmp/detect-runners/node_modules/uvu/run/index.mjs:12:2)
    at async /tmp/detect-runners/node_modules/uvu/bin.js:26:5\u001b[39m


\u001b[47m\u001b[1m\u001b[30m parse \u001b[39m\u001b[49m\u001b[22m \u001b[90m• \u001b[39m\u001b[32m  (1 / 1)
\u001b[39m
\u001b[1m\u001b[4m\u001b[37mok.test.mjs\u001b[22m\u001b[24m\u001b[39m
\u001b[90m• \u001b[39m\u001b[90m• \u001b[39m\u001b[32m  (2 / 2)
\u001b[39m
  Total:     5\u001b[31m
  Passed:    4\u001b[39m
  Skipped:   \u001b[33m1\u001b[39m
  Duration:  1.27ms`;

/** uvu, all passing. */
export const uvuPassing = `\u001b[1m\u001b[4m\u001b[37mok.test.mjs\u001b[22m\u001b[24m\u001b[39m
\u001b[90m• \u001b[39m\u001b[90m• \u001b[39m\u001b[32m  (2 / 2)
\u001b[39m
  Total:     2\u001b[32m
  Passed:    2\u001b[39m
  Skipped:   0
  Duration:  0.56ms`;

/** `ava` (default reporter) with a failure: no passed count is printed. */
export const ava = `
  ✔ ok › one
  - [skip] math › divides
  - [todo] math › rounds
  ✔ math › adds
  ✘ [fail]: math › subtracts
  ✔ [expected fail] math › known bug
  ─

  math › subtracts

  test/math.js:3

   2: test('adds', t => { t.is(1 + 1, 2); });     
   3: test('subtracts', t => { t.is(2 - 1, 2); });
   4: test.skip('divides', t => { t.pass(); });   

  Difference (- actual, + expected):

  - 1
  + 2

  › file://test/math.js:3:28

  ─

  1 test failed
  1 known failure
  1 test skipped
  1 test todo`;

/** `ava test/ok.js`. */
export const avaPassing = `
  ✔ one
  ─

  1 test passed`;

/** `ava --tap` on the failing project: one skip, one todo, one known failure. */
export const avaTap = `TAP version 13
ok 1 - math › divides # SKIP
not ok 2 - math › rounds # TODO
ok 3 - math › adds
not ok 4 - math › subtracts
  ---
    name: AssertionError
    assertion: t.is()
    details:
      'Difference (- actual, + expected):': |-
        - 1
        + 2
    message: ''
    at: >-
      ExecutionContext.is
      (file:///tmp/detect-runners/node_modules/ava/lib/assert.js:309:16)
  ...
ok 5 - math › known bug
ok 6 - ok › one

1..6
# tests 5
# pass 3
# skip 1
# fail 2`;

/** `tap` without a TTY: the TAP stream, then the root counts comment. */
export const nodeTap = `TAP version 14
1..2
# Subtest: test/math.test.js
    # Subtest: adds
        ok 1 - should be equal
        ok 2 - should be equal
        1..2
    ok 1 - adds # time=4.427ms
    
    # Subtest: subtracts
        not ok 1 - should be equal
          ---
          compare: ===
          at:
            fileName: test/math.test.js
            lineNumber: 3
            columnNumber: 36
            typeName: Test
          stack: |
            Test.<anonymous> (test/math.test.js:3:36)
          source: |
            import t from 'tap';
            t.test('adds', async t => { t.equal(1 + 1, 2); t.equal(2 + 2, 4); });
            t.test('subtracts', async t => { t.equal(2 - 1, 2); });
            -----------------------------------^
            t.test('divides', { skip: 'not yet' }, async t => {});
            t.test('rounds', { todo: true }, async t => {});
          diff: |
            --- expected
            +++ actual
            @@ -1,1 +1,1 @@
            -2
            +1
          ...
        
        1..1
    not ok 2 - subtracts # time=18ms
      ---
      at:
        fileName: test/math.test.js
        lineNumber: 3
        columnNumber: 3
        isToplevel: true
      source: |
        import t from 'tap';
        t.test('adds', async t => { t.equal(1 + 1, 2); t.equal(2 + 2, 4); });
        t.test('subtracts', async t => { t.equal(2 - 1, 2); });
        --^
        t.test('divides', { skip: 'not yet' }, async t => {});
        t.test('rounds', { todo: true }, async t => {});
      ...
    
    ok 3 - divides # SKIP not yet
    ok 4 - rounds # TODO
    1..4
    # time=33.476ms
not ok 1 - test/math.test.js # time=33.476ms
  ---
  stdio: inherit
  cwd: /tmp/detect-runners/tap-t
  externalID: test/math.test.js
  command: /usr/bin/node
  args:
    - --import=file:///tmp/detect-runners/node_modules/@tapjs/typescript/dist/esm/import.mjs
    - --import=file:///tmp/detect-runners/node_modules/@tapjs/mock/dist/esm/import.mjs
    - --enable-source-maps
    - --import=file:///tmp/detect-runners/node_modules/@tapjs/processinfo/dist/esm/import.mjs
    - /tmp/detect-runners/tap-t/test/math.test.js
  exitCode: 1
  signal: null
  ...

# Subtest: test/ok.test.js
    ok 1 - one
    # Subtest: two
        ok 1 - should be equal
        1..1
    ok 2 - two # time=2.105ms
    
    1..2
    # time=11.833ms
ok 2 - test/ok.test.js # time=11.833ms

# No coverage generated
# { total: 7, pass: 4, fail: 1, todo: 1, skip: 1 }
# time=2933.948ms`;

/** `tap --reporter=base`: the end of it (before it, progress lines redrawn with cursor moves). */
export const nodeTapBase = `\u001b[?25h\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[G

  🌈 TEST COMPLETE 🌈


 FAIL  test/math.test.js 1 failed 1 todo 1 skip of 5 49ms
~ divides not yet
☐ rounds

✖ subtracts > should be equal
  test/math.test.js
  1 import t from 'tap';
  2 t.test('adds', async t => { t.equal(1 + 1, 2); t.equal(2 + 2, 4); });
  3 t.test('subtracts', async t => { t.equal(2 - 1, 2); });
  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛
  4 t.test('divides', { skip: 'not yet' }, async t => {});
  5 t.test('rounds', { todo: true }, async t => {});
  --- expected
  +++ actual
  @@ -1,1 +1,1 @@
  -2
  +1
  compare: ===
  Test.<anonymous> (test/math.test.js:3:36)

Asserts:  4 pass  1 fail  1 skip  1 todo  5 of 7 complete
Suites:   1 pass  1 fail  0 skip          2 of 2 complete

# No coverage generated
# { total: 7, pass: 4, fail: 1, todo: 1, skip: 1 }
# time=3603.878ms`;

/** `mocha` spec reporter: a failure and a pending test. */
export const mochaReal = `

  Array
    ✔ returns -1 when absent
    1) appends
    - keeps order


  1 passing (10ms)
  1 pending
  1 failing

  1) Array
       appends:

      AssertionError [ERR_ASSERTION]: 2 == 3
      + expected - actual

      -2
      +3
      
      at Context.<anonymous> (mocha-t/array.spec.js:4:30)
      at process.processImmediate (node:internal/timers:483:21)`;

/** `mocha --reporter tap`: pending tests are left out of all three summary lines; the plan comes last. */
export const mochaTap = `ok 1 Array returns -1 when absent
not ok 2 Array appends
  2 == 3
  AssertionError [ERR_ASSERTION]: 2 == 3
      at Context.<anonymous> (mocha-t/array.spec.js:4:30)
      at process.processImmediate (node:internal/timers:483:21)
ok 3 Array keeps order # SKIP -
# tests 2
# pass 1
# fail 1
1..3`;
