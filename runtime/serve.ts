// The server of `npm start` (runtime/start.ts loads it): build what is stale, load the catalog, serve on PORT.
import '../build/plain-output.ts'; // first: before vite (a dashboard build) reads the environment
import { describeStorage, readConfigOrExit } from './config.ts';
import { createRuntime } from './create-runtime.ts';
import { orRefuse, stopOnSignals } from './lifecycle.ts';
import { releaseYoungGeneration, YOUNG_GENERATION_CALLS, YOUNG_GENERATION_CROWD } from './young-generation.ts';

const config = readConfigOrExit();
const svc = await orRefuse(createRuntime(config, { build: true }));
const { state, catalog } = svc.ctx;
// paid calls (routed, batch, pass-through) all come under the proxy prefix
const paid = `${config.proxyPrefix}/`;
const crowd = { inFlight: YOUNG_GENERATION_CROWD, total: YOUNG_GENERATION_CALLS, counts: (req: { url?: string }) => req.url?.startsWith(paid) === true, call: releaseYoungGeneration };
const server = await orRefuse(svc.listen(config.port, crowd));
stopOnSignals(server, config.drainMs, [() => state.close()]);
process.stderr.write(`svc listening on ${server.url}\n`);
process.stderr.write(`svc state: ${describeStorage(config)}${config.adminToken ? '; admin API enabled' : ''}\n`);
process.stderr.write(`svc ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers; catalog ${catalog.manifest.hash}\n`);
