// GET /openapi.json: the document of the declared routes, built on first request, once per app.
import { route } from '../http/declared-route.ts';
import type { AppContext } from '../context/context.ts';
import { openapiDocument } from '../http/openapi.ts';

const documents = new WeakMap<AppContext, object>();

export const openapiRoutes = [
  route({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document',
    tags: ['meta'],
    auth: 'none',
    open: true,
    responses: { 200: 'OpenAPI 3.1.0' },
    handle: ({ ctx, routes }) => {
      if (!documents.has(ctx)) documents.set(ctx, openapiDocument(routes, ctx.catalog.runtime, ctx.config.proxyPrefix));
      return documents.get(ctx);
    },
  }),
];
