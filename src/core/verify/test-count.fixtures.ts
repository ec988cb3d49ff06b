/**
 * Real and faithful outputs of the supported test runners, for the counter's tests.
 *
 * node:test: captured from Node 20.20 (`node --test --test-reporter=tap|spec`) on a small file
 * with a passing, failing, skipped and todo test, a subtest, and a test that logs "1 passed" and
 * "tests 3" (which the TAP reporter turns into "# tests 3", a decoy summary line).
 * The others were written from each runner's reporter source (jest's getSummary, vitest's
 * getStateString/padSummaryTitle, mocha's Base#epilogue, pytest's build_summary_stats_line, go's
 * testing package with -v, libtest's summary line); genuine captures of jest 30, vitest 4, mocha
 * 12, cargo 1.95 and pytest 9 are in test-count-{js,tap,native}.fixtures.ts and count the same.
 */

export const nodeTap = `TAP version 13
# 1 passed
# tests 3
# Subtest: math
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.928062
      ...
    # Subtest: subtracts
    not ok 2 - subtracts
      ---
      duration_ms: 4.556521
      location: '/tmp/demo/test/math.test.mjs:5:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
        
        2 !== 1
        
      code: 'ERR_ASSERTION'
      name: 'AssertionError'
      expected: 1
      actual: 2
      operator: 'strictEqual'
      stack: |-
        TestContext.<anonymous> (file:///tmp/demo/test/math.test.mjs:5:85)
        Test.runInAsyncScope (node:async_hooks:206:9)
        Test.run (node:internal/test_runner/test:796:25)
        Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
        Test.postRun (node:internal/test_runner/test:889:19)
        Test.run (node:internal/test_runner/test:835:12)
        async Promise.all (index 0)
        async Suite.run (node:internal/test_runner/test:1135:7)
        async Test.processPendingSubtests (node:internal/test_runner/test:526:7)
      ...
    # Subtest: divides
    ok 3 - divides # SKIP not yet
      ---
      duration_ms: 0.229745
      ...
    # Subtest: rounds
    ok 4 - rounds # TODO
      ---
      duration_ms: 0.177717
      ...
    1..4
not ok 1 - math
  ---
  duration_ms: 7.834143
  type: 'suite'
  location: '/tmp/demo/test/math.test.mjs:3:1'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: parses
    # Subtest: numbers
    ok 1 - numbers
      ---
      duration_ms: 0.213015
      ...
    1..1
ok 2 - parses
  ---
  duration_ms: 5.830169
  ...
1..2
# tests 6
# suites 1
# pass 3
# fail 1
# cancelled 0
# skipped 1
# todo 1
# duration_ms 206.415254`;

export const nodeSpec = `1 passed
tests 3
▶ math
  ✔ adds (0.931419ms)
  ✖ subtracts (2.618331ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    2 !== 1
    
        at TestContext.<anonymous> (file:///tmp/demo/test/math.test.mjs:5:85)
        at Test.runInAsyncScope (node:async_hooks:206:9)
        at Test.run (node:internal/test_runner/test:796:25)
        at Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
        at Test.postRun (node:internal/test_runner/test:889:19)
        at Test.run (node:internal/test_runner/test:835:12)
        at async Promise.all (index 0)
        at async Suite.run (node:internal/test_runner/test:1135:7)
        at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {
      generatedMessage: true,
      code: 'ERR_ASSERTION',
      actual: 2,
      expected: 1,
      operator: 'strictEqual'
    }

  ﹣ divides (0.202654ms) # not yet
  ✔ rounds (0.170223ms) # TODO
✖ math (5.742613ms)
▶ parses
  ✔ numbers (0.200411ms)
✔ parses (4.278283ms)
ℹ tests 6
ℹ suites 1
ℹ pass 3
ℹ fail 1
ℹ cancelled 0
ℹ skipped 1
ℹ todo 1
ℹ duration_ms 188.551888

✖ failing tests:

test at test/math.test.mjs:5:3
✖ subtracts (2.618331ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 1
  
      at TestContext.<anonymous> (file:///tmp/demo/test/math.test.mjs:5:85)
      at Test.runInAsyncScope (node:async_hooks:206:9)
      at Test.run (node:internal/test_runner/test:796:25)
      at Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
      at Test.postRun (node:internal/test_runner/test:889:19)
      at Test.run (node:internal/test_runner/test:835:12)
      at async Promise.all (index 0)
      at async Suite.run (node:internal/test_runner/test:1135:7)
      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: 2,
    expected: 1,
    operator: 'strictEqual'
  }`;

/** One test cancelled by --test-timeout=200: cancelled counts as failed. */
export const nodeTapTimeout = `TAP version 13
# Subtest: /tmp/demo/test/c.test.mjs
not ok 1 - /tmp/demo/test/c.test.mjs
  ---
  duration_ms: 204.601941
  location: '/tmp/demo/test/c.test.mjs:1:1'
  failureType: 'testTimeoutFailure'
  error: 'test timed out after 200ms'
  code: 'ERR_TEST_FAILURE'
  ...
1..1
# tests 1
# suites 0
# pass 0
# fail 0
# cancelled 1
# skipped 0
# todo 0
# duration_ms 210.883328`;

/** Jest writes its summary to stderr; here after a failure, with skipped and todo tests. */
export const jest = `
 PASS  src/sum.test.js
 FAIL  src/api.test.js
  ● api › returns 404 for a missing user

    expect(received).toBe(expected) // Object.is equality

    Expected: 404
    Received: 200

      12 |     const res = await get('/users/nobody');
    > 13 |     expect(res.status).toBe(404);
         |                        ^
      14 |   });

      at Object.toBe (src/api.test.js:13:24)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 2 skipped, 1 todo, 40 passed, 44 total
Snapshots:   0 total
Time:        1.873 s
Ran all test suites.`;

export const jestPassing = `
 PASS  src/sum.test.js
  sum
    ✓ adds (2 ms)
    ✓ subtracts

Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
Snapshots:   0 total
Time:        0.412 s, estimated 1 s
Ran all test suites.`;

export const vitest = `
 RUN  v3.2.4 /home/dev/project

 ✓ src/sum.test.ts (3 tests) 2ms
 ❯ src/api.test.ts (39 tests | 1 failed | 2 skipped) 35ms
   × api > returns 404 for a missing user 12ms
     → expected 200 to be 404

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/api.test.ts > api > returns 404 for a missing user
AssertionError: expected 200 to be 404 // Object.is equality

- Expected
+ Received

- 404
+ 200

 ❯ src/api.test.ts:13:24
     11|   it('returns 404 for a missing user', async () => {
     12|     const res = await get('/users/nobody');
     13|     expect(res.status).toBe(404);
       |                        ^
     14|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯


 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 39 passed | 2 skipped (42)
   Start at  10:15:02
   Duration  1.02s (transform 40ms, setup 0ms, collect 60ms, tests 37ms, environment 0ms, prepare 120ms)
`;

export const vitestPassing = `
 RUN  v3.2.4 /home/dev/project

 ✓ src/sum.test.ts (40 tests) 4ms

 Test Files  1 passed (1)
      Tests  40 passed (40)
   Start at  10:16:40
   Duration  310ms (transform 25ms, setup 0ms, collect 18ms, tests 4ms, environment 0ms, prepare 61ms)
`;

/** Mocha's spec reporter: passing, then pending and failing when non-zero, then the failures. */
export const mocha = `

  Array
    #indexOf()
      ✔ should return -1 when the value is not present
      ✔ should return the index when present
    #push()
      1) appends
      - keeps order

  40 passing (2s)
  2 pending
  1 failing

  1) Array
       #push()
         appends:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

3 !== 4

      + expected - actual

      -3
      +4

      at Context.<anonymous> (test/array.spec.js:17:14)
      at process.processImmediate (node:internal/timers:483:21)

`;

export const mochaPassing = `

  sum
    ✔ adds
    ✔ subtracts (55ms)


  2 passing (61ms)

`;

export const pytest = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
rootdir: /home/dev/project
collected 44 items

tests/test_api.py ..F.........s.sx.......                                [ 52%]
tests/test_sum.py .....................                                  [100%]

=================================== FAILURES ===================================
_________________________________ test_missing _________________________________

    def test_missing():
>       assert get("/users/nobody").status == 404
E       assert 200 == 404
E        +  where 200 = <Response 200>.status

tests/test_api.py:14: AssertionError
----------------------------- Captured stdout call -----------------------------
1 passed
=========================== short test summary info ============================
FAILED tests/test_api.py::test_missing - assert 200 == 404
============= 1 failed, 40 passed, 2 skipped, 1 xfailed in 0.52s ==============`;

/** Errors at setup, an unexpected pass, deselected tests and warnings, past a minute. */
export const pytestErrors = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
rootdir: /home/dev/project
collected 16 items / 3 deselected / 13 selected

tests/test_db.py EE..........X                                           [100%]

==================================== ERRORS ====================================
__________________________ ERROR at setup of test_read __________________________

    @pytest.fixture
    def db():
>       return connect("postgres://localhost/test")
E       ConnectionRefusedError: [Errno 111] Connection refused

tests/conftest.py:8: ConnectionRefusedError
=============================== warnings summary ===============================
tests/test_db.py::test_write
  /home/dev/project/tests/test_db.py:20: DeprecationWarning: use write_all
    db.write(1)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
ERROR tests/test_db.py::test_read - ConnectionRefusedError: [Errno 111] Connection refused
ERROR tests/test_db.py::test_scan - ConnectionRefusedError: [Errno 111] Connection refused
== 10 passed, 3 deselected, 1 xpassed, 1 warning, 2 errors in 75.10s (0:01:15) ==`;

export const pytestQuiet = `........................................                                 [100%]
40 passed in 0.12s`;

export const pytestNoTests = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
rootdir: /home/dev/project
collected 0 items

============================ no tests ran in 0.01s =============================`;

/** go test -v ./... over two packages: subtests are indented and not counted. */
export const goVerbose = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestParse
=== RUN   TestParse/empty
=== RUN   TestParse/number
    parse_test.go:21: got 3, want 4
--- FAIL: TestParse (0.00s)
    --- PASS: TestParse/empty (0.00s)
    --- FAIL: TestParse/number (0.00s)
=== RUN   TestNetwork
    net_test.go:9: no network in the sandbox
--- SKIP: TestNetwork (0.00s)
FAIL
FAIL	example.com/calc	0.004s
=== RUN   TestFormat
=== PAUSE TestFormat
=== CONT  TestFormat
--- PASS: TestFormat (0.01s)
PASS
ok  	example.com/calc/format	0.012s
FAIL`;

/** go test ./... without -v: only failures are named, so nothing can be counted. */
export const goQuiet = `--- FAIL: TestParse (0.00s)
    --- FAIL: TestParse/number (0.00s)
        parse_test.go:21: got 3, want 4
FAIL
FAIL	example.com/calc	0.004s
ok  	example.com/calc/format	0.002s
FAIL`;

/** cargo test: one summary per test binary, then the doc-tests. */
export const cargo = `   Compiling calc v0.1.0 (/home/dev/calc)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.61s
     Running unittests src/lib.rs (target/debug/deps/calc-1a2b3c4d5e6f7a8b)

running 3 tests
test tests::adds ... ok
test tests::slow ... ignored
test tests::parses ... ok

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/cli.rs (target/debug/deps/cli-0f1e2d3c4b5a6978)

running 2 tests
test prints_help ... ok
test rejects_bad_flag ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

   Doc-tests calc

running 1 test
test src/lib.rs - add (line 3) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s
`;

export const cargoFailing = `     Running tests/cli.rs (target/debug/deps/cli-0f1e2d3c4b5a6978)

running 2 tests
test prints_help ... ok
test rejects_bad_flag ... FAILED

failures:

---- rejects_bad_flag stdout ----

thread 'rejects_bad_flag' panicked at tests/cli.rs:12:5:
assertion \`left == right\` failed
  left: 0
 right: 2
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    rejects_bad_flag

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.01s

error: test failed, to rerun pass \`--test cli\``;

/** npm run check: tsc and eslint print nothing countable, then the node:test run. */
export const npmCheckPrefix = `
> aide@0.1.0 check
> npm run typecheck && npm run lint && npm test


> aide@0.1.0 typecheck
> tsc -p tsconfig.json --noEmit


> aide@0.1.0 lint
> eslint --max-warnings 0 .


> aide@0.1.0 test
> npm run build && node scripts/run-tests.mjs
`;
