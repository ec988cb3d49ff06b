/** A promise with its resolve at hand: how the event stream hands results to the listr2 tasks waiting for them. */
export class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => {
    this.resolve = resolve;
  });
}
