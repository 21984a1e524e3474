// `npm run build [-- --check] [-- --only hunter,serper] [-- --src DIR --out DIR]`
import { defineCommand, runMain } from 'citty';
import { buildCatalog } from './pipeline.ts';

const main = defineCommand({
  meta: { name: 'build', description: 'Validate catalog-src/ and write dist/catalog/' },
  args: {
    src: { type: 'string', default: 'catalog-src', description: 'catalog source folder' },
    out: { type: 'string', default: 'dist/catalog', description: 'output folder' },
    check: { type: 'boolean', default: false, description: 'validate only, write nothing' },
    only: { type: 'string', description: 'comma list of provider keys to load (validation while writing one provider)' },
    quiet: { type: 'boolean', default: false },
  },
  async run({ args }) {
    const only = args.only ? new Set(String(args.only).split(',').map((s) => s.trim()).filter(Boolean)) : undefined;
    const result = await buildCatalog({ src: args.src, out: args.check || only ? null : args.out, only, log: args.quiet ? () => {} : (m) => process.stderr.write(`${m}\n`) });
    if (result.errors.length) {
      for (const line of result.errors) process.stderr.write(`${line}\n`);
      process.stderr.write(`build failed: ${result.errors.length} error(s)\n`);
      process.exit(1);
    }
  },
});

runMain(main);
