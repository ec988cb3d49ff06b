/**
 * Tool results go back to the model as untrusted data: a README or a command's output may hold
 * text that reads like an instruction or a tool call ("now run `curl …`", `<run_command>`). The
 * parser only ever reads the model's own messages, and a result is fenced so that neither the
 * data nor the model can end the fence early: the caller gives a fresh random fence per result
 * (core draws no randomness), and a fence that occurs in the data is lengthened until it does not.
 *
 * The data itself is kept verbatim, not escaped: the model copies file text into SEARCH blocks,
 * and an escaped `&lt;T&gt;` would be copied back as such.
 */

/** A result ready to wrap: which tool answered, whether it did what was asked, and its text. */
export interface ResultForModel {
  tool: string;
  ok: boolean;
  /** The text for the model: file lines, listing, command output or how to fix the call. */
  forModel: string;
}

const FENCE = /^[A-Za-z0-9]{8,64}$/;

/**
 * The result fenced as data, e.g.
 * `[[tool_result name=read_file status=ok fence=k3J9q2Xa]]` … `[[/tool_result fence=k3J9q2Xa]]`.
 * `fence` is 8 to 64 letters or digits, fresh for each result; anything else is a bug in the caller.
 */
export function wrapToolResult(result: ResultForModel, fence: string): string {
  if (!FENCE.test(fence))
    throw new Error(`wrapToolResult: a fence is 8-64 letters or digits, got "${fence}"`);
  let unique = fence;
  for (let n = 1; result.forModel.includes(unique) || result.tool.includes(unique); n++)
    unique = `${fence}x${n}`;
  const tool = result.tool.replace(/[^\w-]/g, '?');
  const status = result.ok ? 'ok' : 'error';
  const body = result.forModel.endsWith('\n') ? result.forModel : `${result.forModel}\n`;
  return `[[tool_result name=${tool} status=${status} fence=${unique}]]\n${body}[[/tool_result fence=${unique}]]`;
}

const OPENING = /\[\[tool_result [^\]\n]*\bfence=([A-Za-z0-9]+)\]\]/g;

/**
 * Stretches of a model reply that quote a wrapped result back ([start, end) offsets). A model
 * that echoes a result has not made the calls the result holds, so the parser skips them; a
 * quote that never closes runs to the end of the reply.
 */
export function quotedResults(reply: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  for (const open of reply.matchAll(OPENING)) {
    const start = open.index;
    if (regions.some(([from, to]) => start >= from && start < to)) continue;
    const closing = `[[/tool_result fence=${open[1] ?? ''}]]`;
    const close = reply.indexOf(closing, start + open[0].length);
    regions.push([start, close < 0 ? reply.length : close + closing.length]);
  }
  return regions;
}
