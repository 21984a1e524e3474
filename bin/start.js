#!/usr/bin/env node
// `npm start`: the compiled server in this one process, compiled first when missing or older than its sources.
import { runCompiled } from './compile-server.js';

await runCompiled('start');
