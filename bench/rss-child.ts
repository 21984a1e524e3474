// Loaded in a fresh process by bench/catalog.ts: the runtime with a catalog, then its resident memory.
import { testRuntime } from '../test/helpers/server.ts';

const { app } = await testRuntime(process.argv[2]);
await app.fetch(new Request('http://l/catalog/search?q=email'));
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss }));
