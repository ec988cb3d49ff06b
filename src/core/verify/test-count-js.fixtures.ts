/**
 * Genuine outputs of JavaScript test runners, captured on this project's machine (Node 20) from
 * tiny projects with a passing, a failing, a skipped and (where the runner has one) a todo
 * test, written to a pipe as aide runs commands (no TTY). ANSI escapes are kept where the
 * runner printed them; the tests strip them as the command runner does. Versions: bun 1.4.5 and deno 2.9.6
 * (both installed from their npm packages).
 */

/** `bun test`: skip and todo lines only when non-zero. */
export const bun = `bun test v1.4.5 (a7733435c)

math.test.ts:
(pass) math > adds [0.05ms]
1 | import { test, expect, describe } from 'bun:test';
2 | describe('math', () => {
3 |   test('adds', () => { expect(1 + 1).toBe(2); });
4 |   test('subtracts', () => { expect(2 - 1).toBe(2); });
                                              ^
error: expect(received).toBe(expected)

Expected: 2
Received: 1

      at <anonymous> (/tmp/detect-runners/bun-t/math.test.ts:4:43)
(fail) math > subtracts [0.13ms]
(skip) math > divides
(todo) math > rounds

ok.test.ts:
(pass) one [0.02ms]

 2 pass
 1 skip
 1 todo
 1 fail
 3 expect() calls
Ran 5 tests across 2 files. [4.00ms]`;

/** `bun test ./bun-t/ok.test.ts`. */
export const bunPassing = `bun test v1.4.5 (a7733435c)

bun-t/ok.test.ts:
(pass) one [0.05ms]

 1 pass
 0 fail
 1 expect() calls
Ran 1 test across 1 file. [3.00ms]`;

/** `FORCE_COLOR=1 bun test`. */
export const bunColor = `\u001b[0m\u001b[1mbun test \u001b[0m\u001b[2mv1.4.5 (a7733435c)\u001b[0m
\u001b[0m
bun-t/math.test.ts:
\u001b[0m\u001b[32m✓\u001b[0m \u001b[0mmath\u001b[2m >\u001b[0m\u001b[1m adds\u001b[0m \u001b[0m\u001b[2m[0.02ms\u001b[0m\u001b[2m]\u001b[0m
\u001b[0m\u001b[1m1 |\u001b[0m \u001b[0m\u001b[35mimport\u001b[0m { test, expect, describe } \u001b[0m\u001b[35mfrom\u001b[0m \u001b[0m\u001b[32m'bun:test'\u001b[0m\u001b[0m\u001b[2m;\u001b[0m
\u001b[0m\u001b[1m2 |\u001b[0m describe(\u001b[0m\u001b[32m'math'\u001b[0m, () => {
\u001b[0m\u001b[1m3 |\u001b[0m   test(\u001b[0m\u001b[32m'adds'\u001b[0m, () => { expect(\u001b[0m\u001b[33m1\u001b[0m + \u001b[0m\u001b[33m1\u001b[0m)\u001b[0m\u001b[3m\u001b[1m.toBe\u001b[0m(\u001b[0m\u001b[33m2\u001b[0m)\u001b[0m\u001b[2m;\u001b[0m })\u001b[0m\u001b[2m;\u001b[0m
\u001b[0m\u001b[1m4 |\u001b[0m   test(\u001b[0m\u001b[32m'subtracts'\u001b[0m, () => { expect(\u001b[0m\u001b[33m2\u001b[0m - \u001b[0m\u001b[33m1\u001b[0m)\u001b[0m\u001b[3m\u001b[1m.toBe\u001b[0m(\u001b[0m\u001b[33m2\u001b[0m)\u001b[0m\u001b[2m;\u001b[0m })\u001b[0m\u001b[2m;\u001b[0m
                                              \u001b[31m\u001b[1m^\u001b[0m
\u001b[0m\u001b[31merror\u001b[0m\u001b[2m:\u001b[0m \u001b[1m\u001b[2mexpect(\u001b[0m\u001b[31mreceived\u001b[0m\u001b[2m).\u001b[0mtoBe\u001b[2m(\u001b[0m\u001b[32mexpected\u001b[0m\u001b[2m)\u001b[0m

Expected: \u001b[32m2\u001b[0m
Received: \u001b[31m1\u001b[0m
\u001b[0m
\u001b[0m      \u001b[2mat \u001b[0m\u001b[0m\u001b[2m<anonymous>\u001b[0m\u001b[2m (\u001b[0m\u001b[0m\u001b[36m\u001b[2m/tmp/detect-runners/\u001b[0m\u001b[36mbun-t/math.test.ts\u001b[0m\u001b[2m:\u001b[0m\u001b[33m4\u001b[0m\u001b[2m:\u001b[33m43\u001b[0m\u001b[2m)\u001b[0m
\u001b[0m\u001b[31m✗\u001b[0m \u001b[0mmath\u001b[2m >\u001b[0m\u001b[1m subtracts\u001b[0m \u001b[0m\u001b[2m[0.15ms\u001b[0m\u001b[2m]\u001b[0m
\u001b[0m\u001b[33m»\u001b[2m \u001b[0m\u001b[2mmath\u001b[2m >\u001b[0m\u001b[2m divides\u001b[0m
\u001b[0m\u001b[35m✎\u001b[0m \u001b[0m\u001b[2mmath\u001b[2m >\u001b[0m\u001b[2m rounds\u001b[0m
\u001b[0m
bun-t/ok.test.ts:
\u001b[0m\u001b[32m✓\u001b[0m\u001b[0m\u001b[1m one\u001b[0m \u001b[0m\u001b[2m[0.02ms\u001b[0m\u001b[2m]\u001b[0m

\u001b[0m\u001b[32m 2 pass\u001b[0m
 \u001b[0m\u001b[33m1 skip\u001b[0m
 \u001b[0m\u001b[35m1 todo\u001b[0m
\u001b[0m\u001b[31m 1 fail\u001b[0m
 3 expect() calls
Ran 5 tests across 2 files. \u001b[0m\u001b[2m[\u001b[1m3.00ms\u001b[0m\u001b[2m]\u001b[0m`;

/** `deno test` (colors on without a TTY); the stack backtrace after it is deno's own. */
export const deno = `\u001b[0m\u001b[32mCheck\u001b[0m math_test.ts
\u001b[0m\u001b[32mCheck\u001b[0m ok_test.ts
\u001b[0m\u001b[38;5;245mrunning 4 tests from ./math_test.ts\u001b[0m
adds ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(47ms)\u001b[0m
subtracts ... \u001b[0m\u001b[31mFAILED\u001b[0m \u001b[0m\u001b[38;5;245m(2ms)\u001b[0m
divides ... \u001b[0m\u001b[33mignored\u001b[0m \u001b[0m\u001b[38;5;245m(0ms)\u001b[0m
steps ...
  one ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(0ms)\u001b[0m
  two ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(0ms)\u001b[0m
steps ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(877µs)\u001b[0m
\u001b[0m\u001b[38;5;245mrunning 1 test from ./ok_test.ts\u001b[0m
one ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(25ms)\u001b[0m

\u001b[0m\u001b[1m\u001b[37m\u001b[41m ERRORS \u001b[0m

subtracts \u001b[0m\u001b[38;5;245m=> ./math_test.ts:3:6\u001b[0m
\u001b[0m\u001b[1m\u001b[31merror\u001b[0m: Error: 1 !== 2
function eq(a: unknown, b: unknown) { if (a !== b) throw new Error(\`\${a} !== \${b}\`); }
\u001b[0m\u001b[31m                                                         ^\u001b[0m
    at \u001b[0m\u001b[1m\u001b[3meq\u001b[0m (\u001b[0m\u001b[2m\u001b[38;5;245mfile:///tmp/detect-runners/deno-t/\u001b[0m\u001b[0m\u001b[36mmath_test.ts\u001b[0m:\u001b[0m\u001b[33m1\u001b[0m:\u001b[0m\u001b[33m58\u001b[0m)
    at \u001b[0m\u001b[2m\u001b[38;5;245mfile:///tmp/detect-runners/deno-t/\u001b[0m\u001b[0m\u001b[36mmath_test.ts\u001b[0m:\u001b[0m\u001b[33m3\u001b[0m:\u001b[0m\u001b[33m32\u001b[0m

\u001b[0m\u001b[1m\u001b[37m\u001b[41m FAILURES \u001b[0m

subtracts \u001b[0m\u001b[38;5;245m=> ./math_test.ts:3:6\u001b[0m

\u001b[0m\u001b[31mFAILED\u001b[0m | 3 passed (2 steps) | 1 failed | 1 ignored \u001b[0m\u001b[38;5;245m(221ms)\u001b[0m

\u001b[0m\u001b[1m\u001b[31merror\u001b[0m: Test failed

Stack backtrace:
   0: <unknown>`;

/** `deno test ok_test.ts`. */
export const denoPassing = `\u001b[0m\u001b[32mCheck\u001b[0m ok_test.ts
\u001b[0m\u001b[38;5;245mrunning 1 test from ./ok_test.ts\u001b[0m
one ... \u001b[0m\u001b[32mok\u001b[0m \u001b[0m\u001b[38;5;245m(32ms)\u001b[0m

\u001b[0m\u001b[32mok\u001b[0m | 1 passed | 0 failed \u001b[0m\u001b[38;5;245m(47ms)\u001b[0m`;

/** `NO_COLOR=1 deno test`. */
export const denoPlain = `Check math_test.ts
Check ok_test.ts
running 4 tests from ./math_test.ts
adds ... ok (22ms)
subtracts ... FAILED (2ms)
divides ... ignored (0ms)
steps ...
  one ... ok (0ms)
  two ... ok (0ms)
steps ... ok (1ms)
running 1 test from ./ok_test.ts
one ... ok (52ms)

 ERRORS 

subtracts => ./math_test.ts:3:6
error: Error: 1 !== 2
function eq(a: unknown, b: unknown) { if (a !== b) throw new Error(\`\${a} !== \${b}\`); }
                                                         ^
    at eq (file:///tmp/detect-runners/deno-t/math_test.ts:1:58)
    at file:///tmp/detect-runners/deno-t/math_test.ts:3:32

 FAILURES 

subtracts => ./math_test.ts:3:6

FAILED | 3 passed (2 steps) | 1 failed | 1 ignored (355ms)

error: Test failed

Stack backtrace:
   0: <unknown>`;

/** Captured too, to check the older detectors on genuine output: `jest` 30.5 (summary on stderr) and `vitest run` 4.1 (colored without a TTY), each with a failing, a skipped and a todo test (and a `test.fails` for vitest). */
export const jestReal = `FAIL ./math.test.js
  ● subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 2
    Received: 1

      1 | test('adds', () => { expect(1 + 1).toBe(2); });
    > 2 | test('subtracts', () => { expect(2 - 1).toBe(2); });
        |                                         ^
      3 | test.skip('divides', () => {});
      4 | test.todo('rounds');
      5 |

      at Object.toBe (math.test.js:2:41)

PASS ./ok.test.js

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 1 skipped, 1 todo, 2 passed, 5 total
Snapshots:   0 total
Time:        2.097 s
Ran all test suites.`;

export const vitestReal = `
\u001b[1m\u001b[30m\u001b[46m RUN \u001b[49m\u001b[39m\u001b[22m \u001b[36mv4.1.12 \u001b[39m\u001b[90m/tmp/detect-runners/vt-t\u001b[39m

 \u001b[31m❯\u001b[39m math.test.js \u001b[2m(\u001b[22m\u001b[2m5 tests\u001b[22m\u001b[2m | \u001b[22m\u001b[31m1 failed\u001b[39m\u001b[2m | \u001b[22m\u001b[33m1 skipped\u001b[39m\u001b[2m | \u001b[22m\u001b[90m1 todo\u001b[39m\u001b[2m)\u001b[22m\u001b[32m 8\u001b[2mms\u001b[22m\u001b[39m
   \u001b[32m✓\u001b[39m adds\u001b[32m 1\u001b[2mms\u001b[22m\u001b[39m
\u001b[31m   \u001b[31m×\u001b[31m subtracts\u001b[39m\u001b[32m 4\u001b[2mms\u001b[22m\u001b[39m
   \u001b[2m\u001b[90m↓\u001b[39m\u001b[22m divides
   \u001b[2m\u001b[90m□\u001b[39m\u001b[22m rounds
   \u001b[32m✓\u001b[39m known bug\u001b[32m 1\u001b[2mms\u001b[22m\u001b[39m

\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m\u001b[1m\u001b[41m Failed Tests 1 \u001b[49m\u001b[22m\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m

\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m math.test.js\u001b[2m > \u001b[22msubtracts
\u001b[31m\u001b[1mAssertionError\u001b[22m: expected 1 to be 2 // Object.is equality\u001b[39m

\u001b[32m- Expected\u001b[39m
\u001b[31m+ Received\u001b[39m

\u001b[32m- 2\u001b[39m
\u001b[31m+ 1\u001b[39m

\u001b[36m \u001b[2m❯\u001b[22m math.test.js:\u001b[2m3:41\u001b[22m\u001b[39m
    \u001b[90m  1|\u001b[39m \u001b[35mimport\u001b[39m { test\u001b[33m,\u001b[39m expect } \u001b[35mfrom\u001b[39m \u001b[32m'vitest'\u001b[39m\u001b[33m;\u001b[39m
    \u001b[90m  2|\u001b[39m \u001b[34mtest\u001b[39m(\u001b[32m'adds'\u001b[39m\u001b[33m,\u001b[39m () \u001b[33m=>\u001b[39m { \u001b[34mexpect\u001b[39m(\u001b[34m1\u001b[39m \u001b[33m+\u001b[39m \u001b[34m1\u001b[39m)\u001b[33m.\u001b[39m\u001b[34mtoBe\u001b[39m(\u001b[34m2\u001b[39m)\u001b[33m;\u001b[39m })\u001b[33m;\u001b[39m
    \u001b[90m  3|\u001b[39m \u001b[34mtest\u001b[39m(\u001b[32m'subtracts'\u001b[39m\u001b[33m,\u001b[39m () \u001b[33m=>\u001b[39m { \u001b[34mexpect\u001b[39m(\u001b[34m2\u001b[39m \u001b[33m-\u001b[39m \u001b[34m1\u001b[39m)\u001b[33m.\u001b[39m\u001b[34mtoBe\u001b[39m(\u001b[34m2\u001b[39m)\u001b[33m;\u001b[39m })\u001b[33m;\u001b[39m
    \u001b[90m   |\u001b[39m                                         \u001b[31m^\u001b[39m
    \u001b[90m  4|\u001b[39m test\u001b[33m.\u001b[39m\u001b[34mskip\u001b[39m(\u001b[32m'divides'\u001b[39m\u001b[33m,\u001b[39m () \u001b[33m=>\u001b[39m {})\u001b[33m;\u001b[39m
    \u001b[90m  5|\u001b[39m test\u001b[33m.\u001b[39m\u001b[34mtodo\u001b[39m(\u001b[32m'rounds'\u001b[39m)\u001b[33m;\u001b[39m

\u001b[31m\u001b[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\u001b[22m\u001b[39m


\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[90m (1)\u001b[39m
\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m1 passed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[36m1 expected fail\u001b[39m\u001b[2m | \u001b[22m\u001b[33m1 skipped\u001b[39m\u001b[2m | \u001b[22m\u001b[90m1 todo\u001b[39m\u001b[90m (5)\u001b[39m
\u001b[2m   Start at \u001b[22m 09:56:54
\u001b[2m   Duration \u001b[22m 931ms\u001b[2m (transform 64ms, setup 0ms, import 89ms, tests 8ms, environment 0ms)\u001b[22m`;
