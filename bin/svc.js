#!/usr/bin/env node
// The `svc` command: the compiled CLI (dist-cli/, written by `npm run build`) when it is newer than
// every source, else the TypeScript CLI loaded through tsx (a dependency), no build step.
import { cliFresh } from './compile-cli.js';

if (cliFresh()) await import(new URL('../dist-cli/svc.js', import.meta.url).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../cli/main.ts', import.meta.url).href);
}
