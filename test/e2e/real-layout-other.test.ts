/** The act pipeline and verify on Python, Rust, Go and PHP projects as they are laid out in the wild (see test/helpers/real-layout.ts). */
import { test } from 'node:test';
import { LAYOUTS, exerciseLayout } from '../helpers/real-layout.js';

for (const layout of LAYOUTS.filter((l) => !l.name.startsWith('npm'))) {
  test(`${layout.name}: aide verify, aide act --dry-run and aide act --yes`, (t) =>
    exerciseLayout(t, layout));
}
