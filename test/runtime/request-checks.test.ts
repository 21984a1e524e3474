// The own routes' validators compiled ahead (runtime/http/compiled/): what `npm run build` writes from
// today's routes, one for every route's schema, answering as a validator ajv compiles on first use does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/routes/app.ts';
import { checkKey, COMPILED_DIR, requestCheckSources } from '../../runtime/http/request-check-sources.ts';
import { bodyCheck, queryCheck } from '../../runtime/http/request-checks.ts';
import { checks as queryChecks } from '../../runtime/http/compiled/query-checks.js';
import { checks as bodyChecks } from '../../runtime/http/compiled/body-checks.js';
import { bodyValidator, queryValidator } from '../../runtime/util/validate.ts';
import * as schemas from '../../runtime/http/request-schemas.ts';
import { StatusError } from '../../runtime/util/fail.ts';

it('runtime/http/compiled/ holds what npm run build writes from the routes of today (run it after changing a request schema)', () => {
  for (const [name, text] of Object.entries(requestCheckSources(ROUTES))) expect(readFileSync(new URL(name, COMPILED_DIR), 'utf8'), name).toBe(text);
});

it("every route's path, query and body schema has a validator compiled ahead", () => {
  const missing = ROUTES.flatMap(({ method, path, request = {} }) => [
    ...[request.path, request.query].filter((s) => s && !Object.hasOwn(queryChecks, checkKey(s))).map(() => `${method} ${path} path/query`),
    ...(request.body && !Object.hasOwn(bodyChecks, checkKey(request.body)) ? [`${method} ${path} body`] : []),
  ]);
  expect(missing).toEqual([]);
  expect(Object.keys(queryChecks).length + Object.keys(bodyChecks).length).toBeGreaterThan(15);
});

/** what a check answers: the value it passes on, or the status and issues it refuses with */
function answer(check: (v: never) => unknown, value: unknown): unknown {
  try {
    return { passed: check(structuredClone(value) as never) };
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { status: e.status, issues: e.data };
  }
}

describe('a validator compiled ahead answers as one compiled on first use', () => {
  const queries: Array<[object, unknown[]]> = [
    [
      schemas.searchQuery,
      [{}, { q: 'email', limit: '5' }, { limit: '0' }, { limit: '101' }, { limit: 'x' }, { limit: '0x10' }, { q: 'x'.repeat(501) }, { limit: ['1', '2'] }],
    ],
    [schemas.ledgerQuery, [{ cursor: '' }, { cursor: '12' }, { cursor: 'abc' }]],
    [schemas.shelfQuery, [{}, { include_hidden: '1' }, { include_hidden: 'true' }]],
    [schemas.feedbackParams, [{ feedback_id: '3' }, { feedback_id: '0' }, { feedback_id: '1.5' }]],
  ];
  it.each(queries)('query %#', (schema, values) => {
    const [ahead, late] = [queryCheck(schema), queryValidator(schema)];
    expect(values.length).toBeGreaterThan(2);
    for (const v of values) expect(answer(ahead, v), JSON.stringify(v)).toEqual(answer(late, v));
  });

  const big = { blob: 'x'.repeat(16 * 1024) };
  const bodies: Array<[object, unknown[]]> = [
    [
      schemas.feedbackBody,
      [
        { kind: 'bug', message: 'broken' },
        { kind: 'bug', message: ' ' },
        { kind: 'nope', message: 'hi', extra: 1 },
        { kind: 'bug', message: 'm', context: big },
        {},
      ],
    ],
    [schemas.createTeamBody, [{ name: 'acme', credit_usd: '2.50' }, { name: 'acme', credit_usd: -1 }, { name: '' }, null]],
    [schemas.tokenBody, [{}, { name: 'ci deploys' }, { name: '\u200b' }, { name: 7 }]],
  ];
  it.each(bodies)('body %#', (schema, values) => {
    const [ahead, late] = [bodyCheck(schema), bodyValidator(schema)];
    for (const v of values) expect(answer(ahead, v), JSON.stringify(v).slice(0, 80)).toEqual(answer(late, v));
    // the sizes keyword refuses the same way from both
    if (schema === schemas.feedbackBody) expect(JSON.stringify(answer(ahead, values[3]))).toContain('at most 16384 bytes as JSON');
  });
});
