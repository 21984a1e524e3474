#!/usr/bin/env node
// `npm start`: the compiled server in this one process, compiled first when missing or older than its sources.
import { compileServer, serverFresh } from './compile-server.js';

if (!serverFresh()) {
  process.stderr.write('compiling the server (runtime/ into dist-server/)\n');
  await compileServer();
}
await import(new URL('../dist-server/start.js', import.meta.url).href);
