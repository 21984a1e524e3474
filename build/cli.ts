// `npm run build [-- --check] [-- --only hunter,serper] [-- --src DIR --out DIR]` (bin/build.js) and
// `svc build`. One command on purpose: npm appends the arguments to the script's last command, so the
// server's compile and the dashboard's vite build run from here, and only when the catalog is written.
import './plain-output.ts'; // first: before citty and vite read the environment
import { dirname } from 'node:path';
import { defineCommand } from 'citty';
import { buildCatalog } from './pipeline.ts';
import { buildDashboard } from './dashboard.ts';

/**
 * the build as a command: a failure is its sentences on stderr and exit code 1, never process.exit.
 * compileServer, when given, compiles the server once the catalog is written (bin/build.js gives it:
 * the compiler is plain JavaScript in bin/, below every layer).
 */
export const buildCommand = (compileServer?: () => Promise<void>) =>
  defineCommand({
    meta: { name: 'build', description: 'Validate catalog-src/ and write dist/catalog/, the compiled server and the dashboard' },
    args: {
      src: { type: 'string', default: 'catalog-src', description: 'catalog source folder' },
      out: { type: 'string', default: 'dist/catalog', description: 'output folder (the dashboard goes to its parent)' },
      check: { type: 'boolean', default: false, description: 'validate only, write and compile nothing' },
      only: { type: 'string', description: 'comma list of provider keys to validate (while writing one provider); writes nothing' },
      quiet: { type: 'boolean', default: false },
    },
    async run({ args }) {
      const only = args.only
        ? new Set(
            String(args.only)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          )
        : undefined;
      const log = args.quiet ? () => {} : (m: string) => process.stderr.write(`${m}\n`);
      const validateOnly = args.check || only !== undefined;
      const result = await buildCatalog({ src: args.src, out: validateOnly ? null : args.out, only, log });
      if (result.errors.length) {
        for (const line of result.errors) process.stderr.write(`${line}\n`);
        process.stderr.write(`build failed: ${result.errors.length} error(s)\n`);
        process.exitCode = 1;
        return;
      }
      if (only && result.providers < only.size) {
        process.stderr.write(
          `build failed: --only ${[...only].join(',')}: ${only.size - result.providers} of these is not a provider file in ${args.src}/providers\n`,
        );
        process.exitCode = 1;
        return;
      }
      if (validateOnly) return log(`build: valid (${result.providers} providers, ${result.operations} operations); nothing written`);
      if (compileServer) {
        log('build: server (runtime/ into dist-server/)');
        await compileServer();
      }
      log('build: dashboard (web/)');
      await buildDashboard(dirname(args.out));
    },
  });
