// Tokens in the state layer, over every backend: named, given an expiry, listed (never a secret),
// revoked, a team disabled; and the last release's token records, opened by this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createState, type State } from '../../runtime/state/index.ts';
import { openBackend } from '../../runtime/state/backend.ts';
import { sha256 } from '../../runtime/state/secrets.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';

let redis: OwnRedis;
const dirs: string[] = [];
const opened: State[] = [];
let db = 0;
beforeAll(async () => {
  redis = await ownRedis('off');
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  await redis.stop();
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-tokens-'));
  dirs.push(d);
  return d;
}

type Spec = Parameters<typeof createState>[0]['storage'];
const backends: Array<{ name: string; spec: () => Spec }> = [
  { name: 'memory', spec: () => ({ kind: 'memory' }) },
  { name: 'embedded fs', spec: () => ({ kind: 'fs', dir: tempDir() }) },
  { name: 'redis', spec: () => ({ kind: 'redis', url: redis.url(++db) }) },
];

async function open(spec: Spec): Promise<State> {
  const state = await createState({ storage: spec, dataDir: tempDir(), secret: 'test-secret' });
  opened.push(state);
  return state;
}

describe.each(backends)('tokens over $name', ({ spec }) => {
  it('lists, names, expires and revokes tokens, and never shows a secret', async () => {
    const state = await open(spec());
    const { team, token: first } = (await state.createTeam('Tok Team', 0))!;
    const { token: ci, view } = await state.issueToken(team.id, { name: 'ci deploys' });
    expect(view).toMatchObject({ id: expect.stringMatching(/^tok_[0-9a-f]{16}$/), name: 'ci deploys', expires_at: null, revoked_at: null, status: 'active' });
    const listed = await state.tokens(team.id);
    expect(listed.map((t) => t.name)).toEqual(['first token', 'ci deploys']);
    const text = JSON.stringify(listed);
    for (const secret of [first, ci, sha256(first), sha256(ci)]) expect(text).not.toContain(secret);

    // the token acts, then is refused from the very next lookup once revoked; the other still acts
    expect((await state.teamForCredential({ token: ci }))?.id).toBe(team.id);
    expect(state.knownTeamForToken(ci)?.id ?? team.id).toBe(team.id);
    const revoked = await state.revokeToken(team.id, view.id);
    expect(revoked).toMatchObject({ id: view.id, status: 'revoked', revoked_at: expect.any(String) });
    expect(state.knownTeamForToken(ci)).toBeUndefined();
    expect(await state.teamForCredential({ token: ci })).toBeNull();
    expect(await state.credentialRefusal({ token: ci })).toMatchObject({ status: 401, detail: expect.stringContaining('revoked') });
    expect((await state.teamForCredential({ token: first }))?.id).toBe(team.id);
    // a second revoke keeps the first time; another team cannot revoke it
    expect((await state.revokeToken(team.id, view.id))?.revoked_at).toBe(revoked!.revoked_at);
    const other = (await state.createTeam('Other Team', 0))!;
    expect(await state.revokeToken(other.team.id, (await state.tokens(team.id))[0].id)).toBeNull();
    expect((await state.teamForCredential({ token: first }))?.id).toBe(team.id);
  });

  it('refuses an expired token, with the reason', async () => {
    const state = await open(spec());
    const { team } = (await state.createTeam('Expiring', 0))!;
    const soon = new Date(Date.now() + 300).toISOString();
    const { token } = await state.issueToken(team.id, { expiresAt: soon });
    expect((await state.teamForCredential({ token }))?.id).toBe(team.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(state.knownTeamForToken(token)).toBeUndefined();
    expect(await state.teamForCredential({ token })).toBeNull();
    expect(await state.credentialRefusal({ token })).toMatchObject({ status: 401, detail: expect.stringContaining('expired') });
    expect((await state.tokens(team.id))[1]).toMatchObject({ status: 'expired', expires_at: soon });
  });

  it('refuses every token and session of a disabled team, and takes them again once enabled', async () => {
    const state = await open(spec());
    const { team, token } = (await state.createTeam('Disabled Co', 0))!;
    const session = await state.openSession(team.id, token);
    expect((await state.teamForCredential({ token }))?.id).toBe(team.id);
    expect(await state.setTeamDisabled(team.id, true)).toBe(true);
    expect(state.knownTeamForToken(token)).toBeUndefined();
    expect(await state.teamForCredential({ token })).toBeNull();
    expect(await state.teamForCredential({ session })).toBeNull();
    expect(await state.credentialRefusal({ token })).toMatchObject({ status: 403, detail: expect.stringContaining("Team 'disabled-co' is disabled") });
    expect(await state.credentialRefusal({ session })).toMatchObject({ status: 403 });
    expect(await state.teamDisabledAt(team.id)).toEqual(expect.any(String));
    await state.setTeamDisabled(team.id, false);
    expect((await state.teamForCredential({ token }))?.id).toBe(team.id);
    expect((await state.teamForCredential({ session }))?.id).toBe(team.id);
  });

  it('ends a session when the token it was opened with is revoked', async () => {
    const state = await open(spec());
    const { team } = (await state.createTeam('Session Co', 0))!;
    const { token, view } = await state.issueToken(team.id, { name: 'laptop' });
    const session = await state.openSession(team.id, token);
    expect((await state.teamForCredential({ session }))?.id).toBe(team.id);
    await state.revokeToken(team.id, view.id);
    expect(await state.teamForCredential({ session })).toBeNull();
    expect(await state.credentialRefusal({ session })).toMatchObject({ status: 401, detail: expect.stringContaining('sign in again') });
  });

  it("opens the last release's tokens: they act, are listed and can be revoked", async () => {
    const s = spec();
    // the last release wrote `token:<digest>` = {team_id, digest, created_at} and no index
    const seed = await open(s);
    const { team } = (await seed.createTeam('Old Data', 0))!;
    await seed.close();
    opened.splice(opened.indexOf(seed), 1);
    if (s.kind === 'memory') return; // nothing outlives a memory store
    const old = 'svc_' + 'Old0'.repeat(8);
    const backend = await openBackend(s, tempDir());
    await backend.storage.setItem(`token:${sha256(old)}`, { team_id: team.id, digest: sha256(old), created_at: '2026-01-02T03:04:05.000Z' } as never);
    backend.release();
    const state = await open(s);
    expect((await state.teamForCredential({ token: old }))?.id).toBe(team.id);
    const listed = await state.tokens(team.id);
    const entry = listed.find((t) => t.created_at === '2026-01-02T03:04:05.000Z')!;
    expect(entry).toMatchObject({ id: `tok_${sha256(old).slice(0, 16)}`, name: null, expires_at: null, status: 'active' });
    await state.revokeToken(team.id, entry.id);
    expect(await state.teamForCredential({ token: old })).toBeNull();
  });
});
