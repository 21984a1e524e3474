// `npm run demo`: the service with the provider sandbox standing in for every provider, and a demo
// team with credit and no own keys. Prints the team's token and three commands that work as pasted.
// Its state is a fresh directory, removed when it stops, unless SVC_DATA_DIR or SVC_STORAGE names one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStorage, readConfigOrExit } from '../runtime/config/config.ts';
import { ensureBuilt } from '../runtime/serve/ensure-built.ts';
import { listenError } from '../runtime/http/server.ts';
import { createRuntime } from '../runtime/serve/create-runtime.ts';
import { createSandbox, loadSandboxCatalog, sandboxFaults, sandboxKeys, settingOrExit, startSandbox } from '../sandbox/index.ts';
import { sandboxEnv } from '../sandbox/svc-env.ts';
import { parseRouteOptions } from '../runtime/router/options.ts';
import { orRefuse, stopOnSignals } from '../runtime/serve/lifecycle.ts';

const DEMO_TEAM = 'demo';
const DEMO_CREDIT_MICRO = 25_000_000;

const base = readConfigOrExit();
// the sandbox's own settings stop the demo as the service's do: at once, with exit code 2
const faults = settingOrExit('svc', () => sandboxFaults(base.env));
const fresh = base.env.SVC_DATA_DIR || base.env.SVC_STORAGE ? null : mkdtempSync(join(tmpdir(), 'svc-demo-'));
if (fresh) process.once('exit', () => rmSync(fresh, { recursive: true, force: true }));
await ensureBuilt(base.distDir);
const runtime = loadSandboxCatalog(base.distDir);
const sandboxOpts = { ...sandboxKeys(runtime), ...faults };
const sandbox = await orRefuse(
  startSandbox(createSandbox(runtime, sandboxOpts), base.sandboxPort).catch((e: NodeJS.ErrnoException) => {
    throw listenError(e, base.sandboxPort, '127.0.0.1', 'SVC_SANDBOX_PORT');
  }),
);
// The sandbox finishes a job by the second poll, so async children need not wait their real
// providers' intervals (up to 10 s) here.
const config = readConfigOrExit({
  SVC_POLL_INTERVAL_MAX_MS: '250',
  ...process.env,
  ...sandboxEnv(runtime, sandbox.url, sandboxOpts.keys),
  ...(fresh ? { SVC_DATA_DIR: fresh } : {}),
});
const svc = await orRefuse(createRuntime(config));
const { ctx } = svc;
const { catalog, state } = ctx;
const existing = await state.teamBySlug(DEMO_TEAM);
// a kept data directory holds the team already: a new token for it, the earlier ones still valid
const { token } = existing ? await state.issueToken(existing.id, { name: 'demo restart' }) : (await state.createTeam(DEMO_TEAM, DEMO_CREDIT_MICRO))!;
const server = await orRefuse(svc.listen());
stopOnSignals(server, config.drainMs, [() => state.close(), () => sandbox.close()]);

const proxy = `http://localhost:${server.port}${config.proxyPrefix}`;
// Ask the planner which child a team without own keys tries first, so the example's miss lands on it.
const demoTeam = (await state.teamBySlug(DEMO_TEAM))!;
const dry = await ctx.router.call(demoTeam, 'people.enrich', { email: 'jane@stripe.com' }, parseRouteOptions(new Headers({ 'x-svc-route-dry-run': '1' })));
const firstEnricher = catalog.runtime.operations[(JSON.parse(dry.text) as { plan: Array<{ endpoint_id: string }> }).plan[0].endpoint_id].provider;
const curl = (path: string, body: object, extra = '') =>
  `curl -sS -X POST ${proxy}/${path} -H 'x-svc-token: ${token}' -H 'content-type: application/json'${extra} -d '${JSON.stringify(body)}'`;
process.stdout.write(
  [
    `svc demo: ${catalog.manifest.operations} operations from ${catalog.manifest.providers} providers, all answered by the sandbox on ${sandbox.url}`,
    `dashboard: http://localhost:${server.port}/   catalog: http://localhost:${server.port}/catalog/platforms`,
    `demo team '${DEMO_TEAM}' (balance ${(await state.balance(demoTeam.id)) / 1e6} USD, no own keys)`,
    `state: ${fresh ? `${fresh} (fresh, removed when the demo stops; set SVC_DATA_DIR to keep one)` : describeStorage(config)}`,
    `token: ${token}`,
    '',
    '# verify an email (cheapest verifier first, falls through on a miss):',
    curl('people.email.verify', { email: 'jane.doe@stripe.com' }),
    '# enrich a person; the first child misses ("nohit-<provider>" steers the sandbox), the next one serves:',
    curl('people.enrich', { email: `nohit-${firstEnricher}.jane@stripe.com` }),
    '# see the plan and worst cost of a search without calling anyone:',
    curl('google.serp.organic', { q: 'coffee roasters berlin', limit: 10 }, " -H 'X-Svc-Route-Dry-Run: 1'"),
    '',
  ].join('\n'),
);
