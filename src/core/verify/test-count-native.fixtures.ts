/**
 * Outputs of other languages' test runners for the counter's tests.
 *
 * Captured on this machine: Maven Surefire 3.2.5 with JUnit Jupiter 5.11 (`mvn -o -B test`, and
 * with `-Dstyle.color=always`), CTest 3.25 (add_test with a SKIP_RETURN_CODE and a DISABLED
 * test). Stack frames from java.base are cut.
 *
 * Not installable here; each is written from the runner's own source or test fixtures, found
 * with the code search: RSpec (rspec-core Summary#totals_line and formatter features), minitest
 * (Minitest::SummaryReporter#summary), PHPUnit (the expected output of result-printer .phpt
 * tests: "Tests: 5, Assertions: 2, Errors: 1, Failures: 1, Skipped: 1, Incomplete: 1."), Gradle
 * (TestCountLogger#summary), dotnet test (VSTest's console logger line and Microsoft.Testing
 * .Platform's summary block, as projects' READMEs and test logs quote them), zig
 * (lib/compiler/test_runner.zig and build_runner.zig).
 */

/** `mvn -B test`: one failure, one error, one disabled test, over two classes. */
export const maven = `[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ demo ---
[WARNING] The POM for org.apache.maven:maven-core:jar:3.2.5 is missing, no dependency information available
[INFO] Using auto detected provider org.apache.maven.surefire.junitplatform.JUnitPlatformProvider
[INFO] 
[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running demo.MathTest
[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.210 s <<< FAILURE! -- in demo.MathTest
[ERROR] demo.MathTest.subtracts -- Time elapsed: 0.013 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <2> but was: <1>
\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
\tat org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)
\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)
\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)
\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:145)
\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:531)
\tat demo.MathTest.subtracts(MathTest.java:6)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)

[ERROR] demo.MathTest.throwsError -- Time elapsed: 0.006 s <<< ERROR!
java.lang.IllegalStateException: boom
\tat demo.MathTest.throwsError(MathTest.java:8)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)

[INFO] Running demo.OkTest
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.009 s -- in demo.OkTest
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   MathTest.subtracts:6 expected: <2> but was: <1>
[ERROR] Errors: 
[ERROR]   MathTest.throwsError:8 IllegalState boom
[INFO] 
[ERROR] Tests run: 5, Failures: 1, Errors: 1, Skipped: 1
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project demo: There are test failures.
[ERROR] 
[ERROR] Please refer to /tmp/detect-runners/mvn-t/target/surefire-reports for the individual test results.
[ERROR] Please refer to dump files (if any exist) [date].dump, [date]-jvmRun[N].dump and [date].dumpstream.
[ERROR] -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException`;

/** `mvn -B test` after the fixes: the totals are a WARNING line because one test is skipped. */
export const mavenPassing = `[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running demo.MathTest
[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.052 s -- in demo.MathTest
[INFO] Running demo.OkTest
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.004 s -- in demo.OkTest
[INFO] 
[INFO] Results:
[INFO] 
[WARNING] Tests run: 4, Failures: 0, Errors: 0, Skipped: 1
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS`;

/** The same with `-Dstyle.color=always`. */
export const mavenColor = `[\u001b[1;34mINFO\u001b[m]  T E S T S
[\u001b[1;34mINFO\u001b[m] -------------------------------------------------------
[\u001b[1;34mINFO\u001b[m] Running demo.\u001b[1mMathTest\u001b[m
[\u001b[1;33mWARNING\u001b[m] \u001b[1;33mTests \u001b[0;1mrun: \u001b[0;1m3\u001b[m, Failures: 0, Errors: 0, \u001b[1;33mSkipped: \u001b[0;1;33m1\u001b[m, Time elapsed: 0.199 s -- in demo.\u001b[1mMathTest\u001b[m
[\u001b[1;34mINFO\u001b[m] Running demo.\u001b[1mOkTest\u001b[m
[\u001b[1;34mINFO\u001b[m] \u001b[1;32mTests run: \u001b[0;1;32m1\u001b[m, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.003 s -- in demo.\u001b[1mOkTest\u001b[m
[\u001b[1;34mINFO\u001b[m] 
[\u001b[1;34mINFO\u001b[m] Results:
[\u001b[1;34mINFO\u001b[m] 
[\u001b[1;33mWARNING\u001b[m] \u001b[1;33mTests run: 4, Failures: 0, Errors: 0, Skipped: 1\u001b[m
[\u001b[1;34mINFO\u001b[m] 
[\u001b[1;34mINFO\u001b[m] \u001b[1m------------------------------------------------------------------------\u001b[m
[\u001b[1;34mINFO\u001b[m] \u001b[1;32mBUILD SUCCESS\u001b[m`;

/** `ctest` in the build folder: 2 passed, 1 failed, 1 skipped (exit 77), 1 disabled. */
export const ctest = `Test project /tmp/detect-runners/ctest-t/build
    Start 1: adds
1/5 Test #1: adds .............................   Passed    0.00 sec
    Start 2: subtracts
2/5 Test #2: subtracts ........................***Failed    0.00 sec
    Start 3: divides
3/5 Test #3: divides ..........................***Skipped   0.00 sec
    Start 4: rounds
4/5 Test #4: rounds ...........................***Not Run (Disabled)   0.00 sec
    Start 5: parses
5/5 Test #5: parses ...........................   Passed    0.00 sec

75% tests passed, 1 tests failed out of 4

Total Test time (real) =   0.01 sec

The following tests did not run:
\t  3 - divides (Skipped)
\t  4 - rounds (Disabled)

The following tests FAILED:
\t  2 - subtracts (Failed)
Errors while running CTest
Output from these tests are in: /tmp/detect-runners/ctest-t/build/Testing/Temporary/LastTest.log
Use "--rerun-failed --output-on-failure" to re-run the failed cases verbosely.`;

export const ctestPassing = `Test project /home/dev/calc/build
    Start 1: adds
1/1 Test #1: adds .............................   Passed    0.00 sec

100% tests passed, 0 tests failed out of 1

Total Test time (real) =   0.00 sec`;

/** rspec's progress formatter: a failure and a pending example. */
export const rspec = `..F*

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Calculator divides
     # Not yet implemented
     # ./spec/calculator_spec.rb:12

Failures:

  1) Calculator subtracts
     Failure/Error: expect(2 - 1).to eq(2)

       expected: 2
            got: 1

       (compared using ==)
     # ./spec/calculator_spec.rb:8:in \`block (2 levels) in <top (required)>'

Finished in 0.01234 seconds (files took 0.09876 seconds to load)
4 examples, 1 failure, 1 pending

Failed examples:

rspec ./spec/calculator_spec.rb:7 # Calculator subtracts`;

/** A spec file that does not load: no example ran. */
export const rspecLoadError = `An error occurred while loading ./spec/broken_spec.rb.
Failure/Error: require 'missing_helper'

LoadError:
  cannot load such file -- missing_helper
No examples found.

Finished in 0.00003 seconds (files took 0.1 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples`;

export const minitest = `Run options: --seed 4242

# Running:

..F.S

Finished in 0.001234s, 4051.8639 runs/s, 7293.3549 assertions/s.

  1) Failure:
CalculatorTest#test_subtracts [test/calculator_test.rb:9]:
Expected: 2
  Actual: 1

5 runs, 9 assertions, 1 failures, 0 errors, 1 skips

You have skipped tests. Run with --verbose for details.`;

export const phpunit = `PHPUnit 9.6.19 by Sebastian Bergmann and contributors.

.FESI                                                               5 / 5 (100%)

Time: 00:00.012, Memory: 6.00 MB

There was 1 error:

1) ResultPrinterTest::testError
Exception: boom

/home/dev/app/tests/ResultPrinterTest.php:18

--

There was 1 failure:

1) ResultPrinterTest::testFailure
Failed asserting that false is true.

/home/dev/app/tests/ResultPrinterTest.php:13

ERRORS!
Tests: 5, Assertions: 2, Errors: 1, Failures: 1, Skipped: 1, Incomplete: 1.`;

export const phpunitPassing = `PHPUnit 10.5.20 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.6

.....                                                               5 / 5 (100%)

Time: 00:00.010, Memory: 8.00 MB

OK (5 tests, 10 assertions)`;

/** A failing Gradle test task: the count is logged once, at error level, after the failures. */
export const gradle = `> Task :app:test FAILED

CalculatorTest > subtracts() FAILED
    org.opentest4j.AssertionFailedError at CalculatorTest.java:14

12 tests completed, 1 failed, 2 skipped

FAILURE: Build failed with an exception.`;

/** Two test projects in one solution. */
export const dotnet = `  Determining projects to restore...
  All projects are up-to-date for restore.
  Calc -> /home/dev/calc/src/Calc/bin/Debug/net8.0/Calc.dll
  Calc.Tests -> /home/dev/calc/tests/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll
Test run for /home/dev/calc/tests/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll (.NETCoreApp,Version=v8.0)
VSTest version 17.11.1 (x64)

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
  Failed Calc.Tests.CalculatorTests.Subtracts [4 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 2
Actual:   1

Failed!  - Failed:     1, Passed:     9, Skipped:     1, Total:    11, Duration: 31 ms - Calc.Tests.dll (net8.0)
Passed!  - Failed:     0, Passed:    31, Skipped:     0, Total:    31, Duration: 369 ms - Calc.Api.Tests.dll (net8.0)`;

/** `zig build test --summary all` with a failing test, then `zig test` on one file. */
export const zigBuild = `test
+- run test 10/12 passed, 1 failed, 1 skipped
error: 'main.test.subtracts' failed: expected 2, found 1
Build Summary: 3/5 steps succeeded; 1 failed; 10/12 tests passed; 1 skipped; 1 failed`;

export const zigTest = `1/3 main.test.adds...OK
2/3 main.test.subtracts...FAIL (TestExpectedEqual)
3/3 main.test.divides...SKIP
1 passed; 1 skipped; 1 failed.`;

/** Captured on this machine with cargo 1.95.0 (`cargo test --offline`, a failing then a fixed crate with a doc-test) and pytest 9.0 on Python 3.11.7 (a failure, a skip, an xfail and a fixture error; then -q). */
export const cargoReal = `   Compiling cargo-t v0.1.0 (/tmp/detect-runners/cargo-t)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 1.96s
     Running unittests src/lib.rs (target/debug/deps/cargo_t-9f641402bec135b1)

running 3 tests
test tests::slow ... ignored
test tests::adds ... ok
test tests::subtracts ... FAILED

failures:

---- tests::subtracts stdout ----

thread 'tests::subtracts' (16762) panicked at src/lib.rs:12:30:
assertion \`left == right\` failed
  left: 1
 right: 2
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
   2: core::panicking::assert_failed_inner
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:439:17
   3: core::panicking::assert_failed::<i32, i32>
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:394:5
   4: cargo_t::tests::subtracts
             at ./src/lib.rs:12:30
   5: cargo_t::tests::subtracts::{{closure}}
             at ./src/lib.rs:12:27
   6: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
   7: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.


failures:
    tests::subtracts

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.44s

error: test failed, to rerun pass \`--lib\``;

export const cargoRealPassing = `   Compiling cargo-t v0.1.0 (/tmp/detect-runners/cargo-t)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.74s
     Running unittests src/lib.rs (target/debug/deps/cargo_t-9f641402bec135b1)

running 3 tests
test tests::adds ... ok
test tests::slow ... ignored
test tests::subtracts ... ok

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests cargo_t

running 1 test
test src/lib.rs - add (line 3) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.04s

all doctests ran in 1.31s; merged doctests compilation took 1.27s`;

export const pytestReal = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
benchmark: 5.2.3 (defaults: timer=time.perf_counter disable_gc=False min_rounds=5 min_time=0.000005 max_time=1.0 calibration_precision=10 warmup=False warmup_iterations=100000)
rootdir: /tmp/detect-runners/py-t
plugins: hypothesis-6.155.2, benchmark-5.2.3
collected 5 items

tests/test_math.py .FsxE                                                 [100%]

==================================== ERRORS ====================================
__________________________ ERROR at setup of test_db ___________________________

    @pytest.fixture
    def broken():
>       raise RuntimeError("no database")
E       RuntimeError: no database

tests/test_math.py:19: RuntimeError
=================================== FAILURES ===================================
________________________________ test_subtracts ________________________________

    def test_subtracts():
>       assert 2 - 1 == 2
E       assert (2 - 1) == 2

tests/test_math.py:7: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_subtracts - assert (2 - 1) == 2
ERROR tests/test_math.py::test_db - RuntimeError: no database
========== 1 failed, 1 passed, 1 skipped, 1 xfailed, 1 error in 3.19s ==========`;

export const pytestRealQuiet = `.FsxE                                                                    [100%]
==================================== ERRORS ====================================
__________________________ ERROR at setup of test_db ___________________________

    @pytest.fixture
    def broken():
>       raise RuntimeError("no database")
E       RuntimeError: no database

tests/test_math.py:19: RuntimeError
=================================== FAILURES ===================================
________________________________ test_subtracts ________________________________

    def test_subtracts():
>       assert 2 - 1 == 2
E       assert (2 - 1) == 2

tests/test_math.py:7: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_subtracts - assert (2 - 1) == 2
ERROR tests/test_math.py::test_db - RuntimeError: no database
1 failed, 1 passed, 1 skipped, 1 xfailed, 1 error in 3.64s`;

/** dotnet test on Microsoft.Testing.Platform, shaped as projects' READMEs and test logs quote it. */
export const dotnetMtp = `Running tests from /home/dev/calc/tests/Calc.Tests/bin/Debug/net10.0/Calc.Tests.dll (net10.0|x64)
failed Subtracts (4ms)
  Assert.AreEqual failed. Expected:<2>. Actual:<1>.
/home/dev/calc/tests/Calc.Tests/bin/Debug/net10.0/Calc.Tests.dll (net10.0|x64) failed with 1 error(s) (812ms)

Test run summary: Failed! - /home/dev/calc/tests/Calc.Tests/bin/Debug/net10.0/Calc.Tests.dll (net10.0|x64)
  total: 415
  failed: 1
  succeeded: 411
  skipped: 3
  duration: 4s 282ms`;
