// `tsx runtime/sandbox/main.ts`: serve every provider of dist/catalog/runtime.json on SVC_SANDBOX_PORT.
import type { RuntimeCatalog } from '../../language/types.ts';
import { loadRuntime } from '../catalog/dist.ts';
import { createSandbox, sandboxOptionsFromEnv, startSandbox } from './index.ts';
import { readConfigOrExit } from '../config.ts';

const config = readConfigOrExit();
const dist = config.distDir;
let runtime: RuntimeCatalog;
try {
  runtime = loadRuntime(dist);
} catch {
  console.error(`sandbox: cannot read ${dist}/catalog/runtime.json; run \`npm run build\` first`);
  process.exit(1);
}
const opts = sandboxOptionsFromEnv(runtime);
const running = await startSandbox(createSandbox(runtime, opts), config.sandboxPort);
console.log(`sandbox: ${Object.keys(runtime.providers).length} providers on ${running.url}/<service>`);
if (opts.madeUp.length) console.log(`sandbox: made-up keys (their SVC_KEY_… variable unset) for: ${opts.madeUp.join(', ')}`);
if (opts.faultRate) console.log(`sandbox: random faults at rate ${opts.faultRate} (seed ${opts.seed})`);
console.log(`sandbox: billing at ${running.url}/_sandbox/billing; POST ${running.url}/_sandbox/reset clears it`);
const stop = (): void => { void running.close().then(() => process.exit(0)); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
