#!/usr/bin/env node
// `npm run demo`: the compiled demo (the server and the provider sandbox) in this one process,
// compiled first when missing or older than its sources.
import { runCompiled } from './compile-server.js';

await runCompiled('demo');
