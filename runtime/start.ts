// `npm start`: build what is stale, load the catalog, serve on PORT.
import './util/plain-output.ts'; // first: before vite (a dashboard build) reads the environment
import { readConfigOrExit } from './config.ts';
import { ensureBuilt } from './ensure-built.ts';
import { loadDist } from './catalog/dist.ts';
import { createApp } from './app.ts';
import { startServer } from './server.ts';
import { fastPath } from './fast-path.ts';
import { createState } from './state/index.ts';
import { createContext } from './context.ts';
import { orRefuse, stopOnSignals } from './lifecycle.ts';

const config = readConfigOrExit();
// the data directory's lock first: a second instance stops before any build work
const state = await orRefuse(createState(config));
await ensureBuilt(config.distDir);
const catalog = loadDist(config.distDir, `${config.publicUrl}${config.proxyPrefix}`);
const ctx = createContext(config, catalog, state);
const server = await orRefuse(startServer(createApp(ctx), { port: config.port, hostname: config.host, fast: fastPath(ctx) }));
stopOnSignals(server, config.drainMs, [() => state.close()]);
process.stderr.write(`svc listening on ${server.url}\n`);
process.stderr.write(`svc state: ${state.kind === 'fs' ? `embedded storage in ${config.dataDir}` : state.kind === 'redis' ? 'shared on Redis' : 'in memory (nothing survives a restart)'}${config.adminToken ? '; admin API enabled' : ''}\n`);
process.stderr.write(`svc ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers; catalog ${catalog.manifest.hash}\n`);
