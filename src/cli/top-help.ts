/**
 * The text `aide --help` prints, as yargs renders it at the default width (100 columns: stdout is
 * not a terminal, or one at least that wide). main.ts prints it without loading yargs, which costs
 * more CPU than all the rest of a start (cliui alone is ~60 ms). top-help.test.ts fails when it
 * drifts from what yargs renders; paste yargs' text from the failure here.
 */
export const TOP_HELP_WIDTH = 100;

export const TOP_HELP = [
  'aide <command> [options]',
  '',
  'aide applies, verifies and checkpoints code changes written by a local model.',
  '',
  'Commands:',
  '  aide init              Write .aide/config.json and .aide/sandbox.json with the detected verify',
  '                         commands',
  '  aide plan <task>       Turn a task written in markdown into a plan document: the model reads the',
  '                         repository, writes nothing',
  '  aide act [plan]        Carry out a plan step by step: edit and verify in a scratch copy, then',
  '                         write what passed',
  '  aide apply [file]      Apply SEARCH/REPLACE blocks or a unified diff from a model response',
  "  aide verify            Run the project's checks from .aide/sandbox.json on a scratch copy: the",
  '                         working tree, the staged changes or a commit',
  '  aide review            Check a change before it lands (what a git hook or CI runs): secrets,',
  '                         invisible Unicode, conflict markers, protected paths, large files, then the',
  '                         verify commands on a scratch copy and a model review',
  '  aide checkpoints       List checkpoints (newest first); show, diff, save and prune them',
  "  aide restore <id>      Put the workspace's files back as a checkpoint had them (undoable)",
  '  aide status [session]  Show the recent `aide act` sessions and one in full: its plan, what each',
  '                         step did, how to undo it, how to carry it on',
  '  aide config            Show every setting in effect and where each value comes from',
  '  aide doctor            Check what works on this machine: node, git, the workspace, scratch copies,',
  '                         network isolation, the model server',
  '  aide hooks             Install, remove and inspect the git hooks that run aide before each commit',
  '                         or push',
  '',
  'Options:',
  '      --version  Show version number                                                       [boolean]',
  '      --json     Print machine-readable JSON instead of text              [boolean] [default: false]',
  '      --cwd      Run as if aide was started in this directory                               [string]',
  '  -h, --help     Show help                                                                 [boolean]',
  '',
  'Exit codes:',
  '  0    ok',
  '  1    failed: verification failed, review blocked, an edit did not apply',
  '  2    usage or configuration error (an unknown checkpoint or session too)',
  '  3    model unavailable or unusable',
  '  4    approval needed, but no terminal to ask on and no --yes',
  '  5    aborted: you said no',
  '  6    workspace conflict: another aide holds it, or files changed under aide',
  '  70   internal error: a bug in aide, please report it',
  '  130  interrupted (Ctrl-C; 143 for SIGTERM)',
].join('\n');
