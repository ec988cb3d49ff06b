/**
 * write_file in a step's scratch: a whole file, created or replaced, through the checked write
 * (act-write.ts).
 */
import { HEAD, TAIL } from '../edit/markers.js';
import { invisibleFailure } from '../edit/result-checks.js';
import { parseText, renderText, type TextFile } from '../edit/text-file.js';
import { writeTarget } from './act-paths.js';
import { commitWrite, failure, readInput, type WriteContext } from './act-write.js';
import type { ToolResult } from './loop-types.js';

/**
 * write_file: the whole file. An existing file keeps its own conventions whatever line ends the
 * model wrote: its majority line end (a CRLF file stays CRLF), its byte-order mark, and whether
 * it ends with a newline. A new file gets LF line ends and a final newline (unless empty).
 * A binary or non-UTF-8 file is never replaced.
 */
export async function writeFile(ctx: WriteContext, path: string, content: string): Promise<ToolResult> {
  const where = await writeTarget(ctx.root, path, ctx.fs, 'write_file');
  if (!where.ok) return where.result;
  const target = where.target;
  const { bytes, input } = await readInput(ctx.fs, target.target);
  if (input.state === 'unreadable')
    return failure(
      `write_file refused: ${target.path} is not a text file aide can rewrite (${input.reason}). Leave it as it is.`,
      `refused write_file ${target.path}: ${input.reason}`,
    );
  const before = input.state === 'text' ? input.file : null;
  const after = conformed(parseText(content), before);
  if (newMarkers(after, before))
    return failure(
      `write_file refused: the content holds SEARCH/REPLACE markers (\`<<<<<<< SEARCH\` … \`>>>>>>> REPLACE\`), which would be written into ${target.path} as text. To edit part of a file, call replace_in_file with those blocks; to write the whole file, send only its new content.`,
      `refused write_file ${target.path}: the content is edit blocks`,
    );
  const added = after.lines.flatMap((line, i) => (before?.lines.includes(line) === true ? [] : [i]));
  const invisible = invisibleFailure(target.path, (i) => after.lines[i], added);
  if (invisible !== undefined)
    return failure(
      `write_file refused: ${invisible.message}. ${invisible.hint}`,
      `refused write_file ${target.path}: invisible characters`,
    );
  if (before !== null && renderText(before) === renderText(after))
    return {
      ok: true,
      forModel: `${target.path} already has this content: nothing changed.`,
      forUser: `${target.path} unchanged`,
    };
  return commitWrite(ctx, target, bytes, before, after, before === null ? 'created' : 'rewritten');
}

/** The model's text in the file's own conventions (see writeFile). */
function conformed(file: TextFile, before: TextFile | null): TextFile {
  if (file.lines.length === 0) return { ...file, bom: before?.bom ?? false };
  const eol = before?.eol ?? '\n';
  const finalNewline = before === null || before.lines.length === 0 || before.eols.at(-1) !== '';
  const eols = file.lines.map((_, i) => (i < file.lines.length - 1 || finalNewline ? eol : ''));
  return { lines: file.lines, eols, eol, bom: before?.bom ?? false };
}

/**
 * Whether the content holds a SEARCH and a REPLACE marker line the file did not have: edit
 * blocks sent to the wrong tool. A file that already holds such lines (a test fixture of an edit
 * tool, this project's own docs) may still be rewritten with them.
 */
function newMarkers(after: TextFile, before: TextFile | null): boolean {
  const has = (file: TextFile | null, marker: RegExp) =>
    file?.lines.some((line) => marker.test(line)) === true;
  return has(after, HEAD) && has(after, TAIL) && !(has(before, HEAD) && has(before, TAIL));
}
