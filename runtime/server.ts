// The only file that listens. Everything else is the app, callable as app.fetch(request).
import { listen, type Listener } from 'listhen';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';
import type { NodeFastPath } from './fast-path.ts';

export async function startServer(app: H3, opts: { port: number; hostname?: string; quiet?: boolean; fast?: NodeFastPath }): Promise<Listener> {
  const handler = toNodeHandler(app);
  const fast = opts.fast;
  return listen(fast ? (req, res) => { if (!fast(req, res)) void handler(req, res); } : handler, {
    port: opts.port,
    hostname: opts.hostname ?? '127.0.0.1',
    showURL: !opts.quiet,
    qr: false,
    public: false,
    tunnel: false,
    open: false,
    clipboard: false,
  });
}
