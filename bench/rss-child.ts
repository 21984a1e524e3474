// Loaded in a fresh process by bench/catalog.ts: the runtime with a catalog, then its resident memory.
import { readConfig } from '../runtime/config.ts';
import { loadDist } from '../runtime/catalog/dist.ts';
import { createApp } from '../runtime/app.ts';
import { noLiveData } from '../runtime/live.ts';

const dist = process.argv[2];
const config = readConfig({ SVC_DIST_DIR: dist });
const app = createApp({ config, catalog: loadDist(dist, 'http://localhost:8787/proxy'), live: noLiveData } as Parameters<typeof createApp>[0]);
await app.fetch(new Request('http://l/catalog/search?q=email'));
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss }));
