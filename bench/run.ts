// `npm run bench -- <name>`: runs bench/<name>.ts. Each prints ratios against a baseline measured in the same run.
const names = ['catalog', 'routed', 'routed-trivial', 'routed-phases', 'routed-heap', 'find', 'state', 'batch', 'start', 'hub-search'];
const name = process.argv[2];
if (!name || !names.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${names.join('|')}>\n`);
  process.exit(2);
}
await import(`./${name}.ts`);
