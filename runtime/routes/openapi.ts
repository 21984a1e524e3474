import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { openapiDocument } from '../openapi.ts';

export function openapiRoutes(app: H3, { catalog, config }: AppContext): void {
  const doc = openapiDocument(catalog.runtime, config.proxyPrefix);
  app.get('/openapi.json', () => doc);
}
