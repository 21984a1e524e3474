// `svc serve`, `svc demo`, `svc build`: the package scripts (npm start, npm run demo, npm run build)
// as commands, run in this process from the same entry files, so they behave exactly alike.
import { defineCommand, runCommand } from 'citty';

/** a command that starts a server from its entry file, PORT set from --port */
function server(name: string, description: string, entry: () => Promise<unknown>) {
  return defineCommand({
    meta: { name, description },
    args: { port: { type: 'string', description: 'port to listen on (sets PORT; default 8787)' } },
    async run({ args }) {
      if (args.port !== undefined) process.env.PORT = args.port;
      await entry();
    },
  });
}

export const serve = server('serve', 'Run the service (as npm start): PORT, SVC_DATA_DIR, SVC_STORAGE, … from the environment', () => import('../runtime/start.ts'));
export const demo = server('demo', 'Run the service with the provider sandbox and a funded demo team (as npm run demo)', () => import('../demo/demo.ts'));

export const build = defineCommand({
  meta: { name: 'build', description: 'Validate catalog-src/ and write dist/catalog/ and the dashboard (as npm run build)' },
  args: {
    src: { type: 'string', description: 'catalog source folder (default catalog-src)' },
    out: { type: 'string', description: 'output folder (default dist/catalog)' },
    check: { type: 'boolean', description: 'validate only, write nothing' },
    only: { type: 'string', description: 'comma list of provider keys to validate; writes nothing' },
    quiet: { type: 'boolean', description: 'no progress lines' },
  },
  async run({ rawArgs }) {
    // the build's own command, given what followed `svc build`; loaded only here, with vite behind it
    const { buildCommand } = await import('../build/cli.ts');
    await runCommand(buildCommand(), { rawArgs });
  },
});
