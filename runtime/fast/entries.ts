// The hottest open read, GET /catalog/endpoints/{id}, answered straight from node's request and
// response when the entry exists: the same bytes as the h3 route (one shared cache), without the
// Web Request/Response conversion. Anything else, errors included, goes to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { OPEN_ORIGIN } from '../http-rules.ts';

const PREFIX = '/catalog/endpoints/';

export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export function fastEntries({ entryBytes }: Pick<AppContext, 'entryBytes'>): NodeFastPath {
  return (req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith(PREFIX)) return false;
    const q = req.url.indexOf('?');
    const raw = req.url.slice(PREFIX.length, q < 0 ? undefined : q);
    if (raw.includes('/') || raw.includes('%')) return false;
    const bytes = entryBytes(raw);
    if (!bytes) return false;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length, ...OPEN_ORIGIN });
    res.end(bytes);
    return true;
  };
}
