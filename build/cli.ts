// `npm run build [-- --check] [-- --only hunter,serper] [-- --src DIR --out DIR]`
// One command on purpose: npm appends the arguments to the script's last command, so the dashboard's
// vite build runs from here, and only when the catalog is written.
import './plain-output.ts'; // first: before citty and vite read the environment
import { dirname } from 'node:path';
import { defineCommand, runMain } from 'citty';
import { buildCatalog } from './pipeline.ts';
import { buildDashboard } from './dashboard.ts';

const main = defineCommand({
  meta: { name: 'build', description: 'Validate catalog-src/ and write dist/catalog/ and the dashboard' },
  args: {
    src: { type: 'string', default: 'catalog-src', description: 'catalog source folder' },
    out: { type: 'string', default: 'dist/catalog', description: 'output folder (the dashboard goes to its parent)' },
    check: { type: 'boolean', default: false, description: 'validate only, write nothing' },
    only: { type: 'string', description: 'comma list of provider keys to validate (while writing one provider); writes nothing' },
    quiet: { type: 'boolean', default: false },
  },
  async run({ args }) {
    const only = args.only ? new Set(String(args.only).split(',').map((s) => s.trim()).filter(Boolean)) : undefined;
    const log = args.quiet ? () => {} : (m: string) => process.stderr.write(`${m}\n`);
    const validateOnly = args.check || only !== undefined;
    const result = await buildCatalog({ src: args.src, out: validateOnly ? null : args.out, only, log });
    if (result.errors.length) {
      for (const line of result.errors) process.stderr.write(`${line}\n`);
      process.stderr.write(`build failed: ${result.errors.length} error(s)\n`);
      process.exit(1);
    }
    if (only && result.providers < only.size) {
      process.stderr.write(`build failed: --only ${[...only].join(',')}: ${only.size - result.providers} of these is not a provider file in ${args.src}/providers\n`);
      process.exit(1);
    }
    if (validateOnly) return log(`build: valid (${result.providers} providers, ${result.operations} operations); nothing written`);
    log('build: dashboard (web/)');
    await buildDashboard(dirname(args.out));
  },
});

void runMain(main);
