#!/usr/bin/env node
// The `svc` command: loads the TypeScript CLI through tsx (a dependency), no build step.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../cli/main.ts', import.meta.url).href);
