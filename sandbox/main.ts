// `tsx sandbox/main.ts`: serve every provider of $SVC_DIST_DIR/catalog/runtime.json (with examples.json) on SVC_SANDBOX_PORT.
// It reads its settings itself: the sandbox stands apart from the service it imitates providers for.
import { createSandbox, loadSandboxCatalog, sandboxOptionsFromEnv, settingOrExit, startSandbox, type SandboxCatalog } from './index.ts';

const dist = process.env.SVC_DIST_DIR || 'dist';
const port = Number(process.env.SVC_SANDBOX_PORT || 8788);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`sandbox: SVC_SANDBOX_PORT must be a port number (0-65535), got '${process.env.SVC_SANDBOX_PORT}'`);
  process.exit(2);
}
let runtime: SandboxCatalog;
try {
  runtime = loadSandboxCatalog(dist);
} catch {
  console.error(`sandbox: cannot read ${dist}/catalog/runtime.json and examples.json; run \`npm run build\` first`);
  process.exit(1);
}
const opts = settingOrExit('sandbox', () => sandboxOptionsFromEnv(runtime));
const running = await startSandbox(createSandbox(runtime, opts), port);
console.log(`sandbox: ${Object.keys(runtime.providers).length} providers on ${running.url}/<service>`);
if (opts.madeUp.length) console.log(`sandbox: made-up keys (their SVC_KEY_… variable unset) for: ${opts.madeUp.join(', ')}`);
if (opts.faultRate) console.log(`sandbox: random faults at rate ${opts.faultRate} (seed ${opts.seed})`);
console.log(`sandbox: billing at ${running.url}/_sandbox/billing; POST ${running.url}/_sandbox/reset clears it`);
const stop = (): void => {
  void running.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
