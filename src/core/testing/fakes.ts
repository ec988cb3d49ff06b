/**
 * In-memory stand-ins for the ports the act flows run on, for unit tests of the flows' decisions
 * (the real adapters are tested against real git and processes in infra/ and test/e2e/).
 */
export * from './fake-files.js';
export * from './fake-runner.js';
export * from './fake-session.js';
