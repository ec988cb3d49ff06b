/**
 * Holds SIGINT and SIGTERM while a short critical section runs (writing a set of files), then
 * re-raises the first one that arrived, so an interrupt never leaves work half done.
 */
const HELD = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function holdSignals<T>(section: () => Promise<T>): Promise<T> {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    received ??= signal;
  };
  for (const signal of HELD) process.on(signal, onSignal);
  try {
    return await section();
  } finally {
    for (const signal of HELD) process.off(signal, onSignal);
    if (received !== undefined) process.kill(process.pid, received);
  }
}
