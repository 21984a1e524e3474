// The runtime catalog as a server holds it: the providers and the capabilities parsed at once, each
// operation parsed from its own bytes of runtime.json when it is first read, then kept (runtime-at.json
// says where each lies). A server that routes a few capabilities never parses the operations it does
// not call: runtime.json is 0.5 MB of JSON for the real catalog, 5.3 MB at 10,000 operations. A
// catalog built without runtime-at.json (an older build) is parsed whole, as before.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ByteRange, OperationRuntime, RuntimeCatalog, RuntimeLayout } from '../../language/types.ts';

/** `dir`: a built catalog (dist/catalog) */
export function openRuntime(dir: string): RuntimeCatalog {
  const bytes = readFileSync(join(dir, 'runtime.json'));
  const layoutFile = join(dir, 'runtime-at.json');
  if (!existsSync(layoutFile)) return JSON.parse(bytes.toString('utf8')) as RuntimeCatalog;
  const layout = JSON.parse(readFileSync(layoutFile, 'utf8')) as RuntimeLayout;
  const part = <T>([start, end]: ByteRange): T => JSON.parse(bytes.toString('utf8', start, end)) as T;
  const operations: Record<string, OperationRuntime> = {};
  for (const [id, range] of Object.entries(layout.operations))
    Object.defineProperty(operations, id, {
      enumerable: true,
      configurable: true,
      get() {
        const op = part<OperationRuntime>(range);
        Object.defineProperty(operations, id, { value: op, enumerable: true, configurable: true, writable: true });
        return op;
      },
    });
  return { providers: part(layout.providers), capabilities: part(layout.capabilities), operations };
}
