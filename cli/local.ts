// `svc serve`, `svc demo`, `svc build`: the package scripts (npm start, npm run demo, npm run build)
// as commands, run in this process from the same entry files, so they behave exactly alike.
import { defineCommand, runCommand } from 'citty';
import { wholeNumber } from './flags.ts';

/** a command that starts a server from its entry file, PORT set from --port (checked here, so a bad one names the flag) */
function server(name: string, entry: () => Promise<unknown>) {
  return defineCommand({
    meta: { name },
    args: { port: { type: 'string', description: 'port to listen on (sets PORT; default 8787)' } },
    async run({ args }) {
      if (args.port !== undefined) process.env.PORT = String(wholeNumber('--port', args.port, 0, 65535));
      await entry();
    },
  });
}

export const serve = server('serve', () => import('../runtime/serve/start.ts'));
export const demo = server('demo', () => import('../demo/demo.ts'));

export const build = defineCommand({
  meta: { name: 'build' },
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
