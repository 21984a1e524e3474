// The only file that listens. Everything else is the app, callable as app.fetch(request).
import { listen, type Listener } from 'listhen';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';

export async function startServer(app: H3, opts: { port: number; hostname?: string; quiet?: boolean }): Promise<Listener> {
  return listen(toNodeHandler(app), {
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
