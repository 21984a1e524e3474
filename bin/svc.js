#!/usr/bin/env node
// The `svc` command: loads the TypeScript CLI through tsx (a dependency), no build step.
import { register } from 'tsx/esm/api';

register();
const { endQuietlyOnClosedPipe, runSvc } = await import(new URL('../cli/main.ts', import.meta.url).href);
endQuietlyOnClosedPipe();
await runSvc(process.argv.slice(2));
