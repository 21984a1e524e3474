// Required means required: a routed capability's identity sets are said as such in the catalog's
// input, `svc show`, /openapi.json and the MCP tool schemas (the dashboard's side is in
// test/web/dashboard.test.ts). people.email.verify has one set {email}; people.email.find has four.
import { describe, expect, it } from 'vitest';
import { mcpAgent } from '../helpers/mcp-agent.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorldPerSuite, type RoutedWorld } from '../helpers/routed.ts';
import { svcCli } from '../helpers/cli.ts';

/** `svc show ID` in this process */
const svcShow = async (id: string) => (await svcCli(['show', id], { SVC_URL: w.url })).stdout;

let w: RoutedWorld;
routedWorldPerSuite(FIXTURE_DIST, (made) => (w = made));

const FIND_SETS = [['domain', 'full_name'], ['domain', 'first_name', 'last_name'], ['linkedin_url'], ['linkedin_handle']];

describe('identity sets are required wherever the contract is shown', () => {
  it('the catalog input marks a sole identity field required, and lists several sets as one-of', async () => {
    const verify = (await w.call('/catalog/endpoints/svc.people.email.verify')).body;
    expect(verify.endpoint.input.body.email.required).toBe(true);
    expect(verify.endpoint.input.identity_sets).toBeUndefined();
    const find = (await w.call('/catalog/endpoints/svc.people.email.find')).body;
    expect(find.endpoint.input.identity_sets).toEqual(FIND_SETS);
    expect(find.endpoint.input.body.domain.required).toBe(false);
  });

  it('/openapi.json requires the sole set, and says anyOf of required for several', async () => {
    const doc = (await w.call('/openapi.json')).body;
    type Post = { operationId?: string; requestBody: { content: Record<string, { schema: unknown }> } };
    const schemaOf = (cap: string) =>
      Object.values(doc.paths as Record<string, { post?: Post }>).find((p) => p.post?.operationId === `svc.${cap}`)!.post!.requestBody.content[
        'application/json'
      ].schema;
    expect(schemaOf('people.email.verify')).toMatchObject({ required: ['email'] });
    expect(schemaOf('people.email.find')).toMatchObject({
      anyOf: FIND_SETS.map((required) => ({ required })),
      description: expect.stringMatching(/^One of these identity sets is required: /),
    });
  });

  it('MCP routed tools carry the same requirement in their input schemas', async () => {
    const client = await mcpAgent(w.url, w.token, 'svc-identity-test');
    try {
      const { tools } = await client.listTools();
      const verify = tools.find((t) => t.name === 'people_email_verify')!;
      expect(verify.inputSchema.required).toEqual(['email']);
      const find = tools.find((t) => t.name === 'people_email_find')!;
      expect(find.inputSchema.anyOf).toEqual(FIND_SETS.map((required) => ({ required })));
    } finally {
      await client.close();
    }
  });

  it('svc show says yes for a sole identity field and names the sets a call needs one of', async () => {
    expect(await svcShow('svc.people.email.verify')).toMatch(/^body\s+email\s+str\s+yes\s+identity key/m);
    const find = await svcShow('svc.people.email.find');
    expect(find).toMatch(/^body\s+domain\s+str\s+in a set\s+/m);
    expect(find).toContain('one of these sets is required: {domain, full_name} or {domain, first_name, last_name} or {linkedin_url} or {linkedin_handle}');
  });
});
