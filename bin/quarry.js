#!/usr/bin/env node
// Runs the compiled CLI (npm install builds it); falls back to the sources through tsx in a checkout
// that has not been built yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (existsSync(dist)) {
  await import(dist);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
