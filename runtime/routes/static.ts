// The files of dist/: the dashboard and the static catalog, for anyone without a CDN in front.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { serveStatic, type H3Event } from 'h3';
import type { Config } from '../config/config.ts';
import { route } from '../http/declared-route.ts';
import { perContext } from '../context/context.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain',
};

/** A handler answering the file of dist/ the request path names (undefined: none, so 404). */
export function distFiles(config: Pick<Config, 'distDir'>): (event: H3Event) => ReturnType<typeof serveStatic> {
  const root = resolve(config.distDir);
  // h3 hands over the id already URL-decoded, and tries /index.html for '/' itself.
  const inside = (id: string) => {
    const path = resolve(join(root, id));
    return path === root || path.startsWith(root + sep) ? path : null;
  };
  return (event) =>
    serveStatic(event, {
      getMeta: async (id) => {
        const path = inside(id);
        const s = path ? await stat(path).catch(() => null) : null;
        return s?.isFile() ? { size: s.size, mtime: s.mtime, type: TYPES[extname(path!)] ?? 'application/octet-stream' } : undefined;
      },
      getContents: (id) => readFile(inside(id)!),
    });
}

export const filesOf = perContext(({ config }) => distFiles(config));

// documents, not API: /openapi.json leaves them out
export const staticRoutes = [
  route({
    method: 'GET',
    path: '/catalog/{file*}',
    summary: 'The static catalog (catalog/*.json), read by browsers on other sites',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    openapi: 'omit',
    responses: { 200: 'The file', 404: 'No such file' },
    handle: ({ ctx, event }) => filesOf(ctx)(event),
  }),
  route({
    method: 'GET',
    path: '/{file*}',
    summary: 'The files of dist/: the dashboard',
    tags: ['meta'],
    auth: 'none',
    openapi: 'omit',
    responses: { 200: 'The file', 404: 'No such file' },
    handle: ({ ctx, event }) => filesOf(ctx)(event),
  }),
];
