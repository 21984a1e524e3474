// `npm start`: build what is stale, load the catalog, serve on PORT.
import { describeStorage, readConfigOrExit } from '../config/config.ts';
import { createRuntime } from './create-runtime.ts';
import { orRefuse, stopOnSignals } from './lifecycle.ts';

const config = readConfigOrExit();
const svc = await orRefuse(createRuntime(config, { build: true }));
const { state, catalog } = svc.ctx;
const server = await orRefuse(svc.listen(config.port));
stopOnSignals(server, config.drainMs, [() => state.close()]);
process.stderr.write(`svc listening on ${server.url}\n`);
process.stderr.write(`svc state: ${describeStorage(config)}${config.adminToken ? '; admin API enabled' : ''}\n`);
process.stderr.write(`svc ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers; catalog ${catalog.manifest.hash}\n`);
