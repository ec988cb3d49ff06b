/** Driving a flow: every event handed on in order, and the flow's result once it is done. */

/** Runs `flow` to its end, giving each event to `onEvent` (awaited) before asking for the next. */
export async function drive<E, R>(
  flow: AsyncGenerator<E, R>,
  onEvent: (event: E) => void | Promise<void>,
): Promise<R> {
  let next = await flow.next();
  while (next.done !== true) {
    await onEvent(next.value);
    next = await flow.next();
  }
  return next.value;
}
