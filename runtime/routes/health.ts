// GET /healthz: the process serves. GET /readyz: storage answers too (a write), else 503, so a load
// balancer stops sending calls that could not be charged.
import { route } from '../declared-route.ts';
import { fail } from '../errors.ts';

export const healthRoutes = [
  route({
    method: 'GET', path: '/healthz', summary: 'The process serves', tags: ['meta'], auth: 'none',
    responses: { 200: 'Serving' },
    handle: () => ({ status: 'ok' }),
  }),
  route({
    method: 'GET', path: '/readyz', summary: 'Storage takes a write (else 503)', tags: ['meta'], auth: 'none',
    responses: { 200: 'Ready', 503: 'Storage does not answer' },
    handle: async ({ ctx }) => {
      if (!(await ctx.state.ready())) fail(503, 'Storage does not answer, so svc cannot record charges; calls are refused until it does.');
      return { status: 'ready' };
    },
  }),
];
