// `npm start`: build what is stale, load the catalog, serve on PORT.
import { readConfigOrExit } from './config.ts';
import { ensureBuilt } from './ensure-built.ts';
import { loadDist } from './catalog/dist.ts';
import { createApp } from './app.ts';
import { startServer } from './server.ts';
import { fastPath } from './fast-path.ts';
import { createState } from './state/index.ts';
import { createContext } from './context.ts';

const config = readConfigOrExit();
await ensureBuilt(config.distDir);
const catalog = loadDist(config.distDir, `${config.publicUrl}${config.proxyPrefix}`);
const state = await createState(config);
const ctx = createContext(config, catalog, state);
const app = createApp(ctx);
await startServer(app, { port: config.port, hostname: config.host, fast: fastPath(ctx) });
process.stderr.write(`svc state: ${state.kind === 'fs' ? `embedded storage in ${config.dataDir}` : 'in memory (nothing survives a restart)'}${config.adminToken ? '; admin API enabled' : ''}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void state.close().finally(() => process.exit(0)));
process.stderr.write(`svc ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers; catalog ${catalog.manifest.hash}\n`);
