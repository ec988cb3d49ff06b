/**
 * listr2's default renderer, with a way to hand the terminal to something else for a while (a
 * pager, a diff printed in full) and take it back. listr2 9 has no public pause (its maintainer
 * in listr2/listr2#450: "not easily possible"), and while the live area is on screen it redraws
 * every 100 ms and owns process.stdout and stderr (writes to them are held back until it ends).
 *
 * Its own public end() and render() do the work: end() erases the live area and gives stdout
 * and stderr back; render() starts a fresh live area below whatever was printed meanwhile. Two
 * overrides make that a pause: the list is created with clearOutput, so end() leaves nothing
 * behind while suspended (the final tree is printed here when the list really ends), and no
 * redraw happens while suspended (update() is what every redraw goes through).
 */
import { DefaultRenderer } from 'listr2';
import type { OutputStream } from '../io.js';

export class SuspendableRenderer extends DefaultRenderer {
  private suspended = false;
  /** Where the final tree is printed (the terminal listr2 draws on). */
  protected out: OutputStream | null = null;

  override update(): void {
    if (!this.suspended) super.update();
  }

  /** With clearOutput set, super.end() erases the live area; the tree stays on screen only at the real end. */
  override end(): void {
    super.end();
    if (!this.suspended) this.out?.write(`${this.create({ prompt: false })}\n`);
  }

  /**
   * Runs `use` with the live area erased and the terminal released, then draws the tree again
   * below. (Each render() adds its redraw listener once more; a second redraw of the same frame
   * writes nothing: log-update skips an unchanged frame.)
   */
  async suspend<T>(use: () => Promise<T>): Promise<T> {
    if (this.suspended) return use();
    this.suspended = true;
    this.end();
    try {
      return await use();
    } finally {
      this.suspended = false;
      await this.render();
    }
  }
}

/** The renderer class to give Listr: it prints the final tree on `out` and reports each instance it makes. */
export function suspendableRenderer(
  out: OutputStream,
  created: (renderer: SuspendableRenderer) => void,
): typeof SuspendableRenderer {
  return class extends SuspendableRenderer {
    constructor(...args: ConstructorParameters<typeof DefaultRenderer>) {
      super(...args);
      this.out = out;
      created(this);
    }
  };
}

/** listr2's options the pause relies on: see the module comment. */
export const SUSPENDABLE_OPTIONS = { clearOutput: true } as const;
