// GET /healthz: the process serves. GET /readyz: the router is made (the runtime catalog parsed, so
// the first routed call after a start does not pay for it) and storage answers (a write), else 503,
// so a load balancer stops sending calls that could not be charged.
import { route } from '../http/declared-route.ts';
import { fail } from '../util/fail.ts';
import { routerProblem } from '../context/context.ts';

export const healthRoutes = [
  route({
    method: 'GET',
    path: '/healthz',
    summary: 'The process serves',
    tags: ['meta'],
    auth: 'none',
    responses: { 200: 'Serving' },
    handle: () => ({ status: 'ok' }),
  }),
  route({
    method: 'GET',
    path: '/readyz',
    summary: 'The router is loaded and storage takes a write (else 503)',
    tags: ['meta'],
    auth: 'none',
    responses: { 200: 'Ready', 503: 'Storage does not answer, or the runtime catalog did not load' },
    handle: async ({ ctx }) => {
      const problem = routerProblem(ctx);
      if (problem) fail(503, `The runtime catalog did not load (${problem}), so routed calls cannot be served.`);
      if (!(await ctx.state.ready())) fail(503, 'Storage does not answer, so svc cannot record charges; calls are refused until it does.');
      return { status: 'ready' };
    },
  }),
];
