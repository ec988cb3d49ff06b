/**
 * What the call parser (parse-calls.ts) reads out of a reply: calls as written, before the
 * contract is checked (check-call.ts), and the problems that keep part of a reply from being a call.
 */

/** A parameter as written: its name, its text (see ParameterKind) and the line of its tag. */
export interface RawParameter {
  name: string;
  value: string;
  line: number;
}

/** A call as written, before it is checked against the contract. */
export interface RawCall {
  /** The tool name as the model wrote it. */
  tool: string;
  /** 1-based line of the opening tag. */
  line: number;
  parameters: RawParameter[];
  /**
   * The call's text when it holds no parameter tags (a bare `<run_command>npm test</run_command>`,
   * `<write_file path="a.ts">…</write_file>`): the value of the one required parameter not given.
   */
  bare?: string;
}

/** Why (part of) a reply is not a call. */
export type ProtocolProblem =
  | {
      /** The reply ended inside a call; `parameter` is the one left open, if any. */
      kind: 'unclosed_call';
      tool: string;
      line: number;
      parameter?: { name: string; line: number };
      endLine: number;
    }
  | {
      /** Another call opened (on `next.line`) before this one closed; the other one is read on. */
      kind: 'interrupted_call';
      tool: string;
      line: number;
      next: { tool: string; line: number };
    }
  | {
      /** The call closed but one of its parameters never did. */
      kind: 'unclosed_parameter';
      tool: string;
      line: number;
      parameter: { name: string; line: number };
    }
  | {
      /** A `<think>` that never closes: the reply is all reasoning. */
      kind: 'unclosed_reasoning';
      line: number;
    }
  | {
      /** No call in the reply at all (the "use a tool" nudge). */
      kind: 'no_call';
    };

/** The calls of a reply in order, and what could not be read. */
export interface ParsedReply {
  calls: RawCall[];
  problems: ProtocolProblem[];
}
