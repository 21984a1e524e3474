#!/usr/bin/env node
// `npm run build`: the build's command (build/cli.ts, TypeScript through tsx) with the own routes'
// validators, the server's and the CLI's compiles as the step after the catalog is written, so `--check` and `--only` compile nothing.
import { register } from 'tsx/esm/api';
import { compileServer } from './compile-server.js';
import { compileCli } from './compile-cli.js';
import { writeRequestChecks } from './compile-request-checks.js';

register();
// build/cli.ts first: it turns colours off for a pipe before citty loads
const { buildCommand } = await import(new URL('../build/cli.ts', import.meta.url).href);
const { runMain } = await import('citty');
await runMain(buildCommand(async () => {
  await writeRequestChecks();
  await compileServer();
  await compileCli();
}));
