// GET /healthz: the process serves. GET /readyz: storage answers too (a write), else 503, so a load
// balancer stops sending calls that could not be charged.
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';

export function healthRoutes(app: H3, { state }: AppContext): void {
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    if (!(await state.ready())) fail(503, 'Storage does not answer, so svc cannot record charges; calls are refused until it does.');
    return { status: 'ready' };
  });
}
