// `npm start`: build what is stale, load the catalog, serve on PORT.
import { readConfig } from './config.ts';
import { ensureBuilt } from './ensure-built.ts';
import { loadDist } from './catalog/dist.ts';
import { createApp } from './app.ts';
import { startServer } from './server.ts';
import { noLiveData } from './live.ts';

const config = readConfig();
await ensureBuilt(config.distDir);
const catalog = loadDist(config.distDir, `${config.publicUrl}${config.proxyPrefix}`);
const app = createApp({ config, catalog, live: noLiveData });
await startServer(app, { port: config.port, hostname: process.env.HOST ?? '127.0.0.1' });
process.stderr.write(`svc ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers; catalog ${catalog.manifest.hash}\n`);
