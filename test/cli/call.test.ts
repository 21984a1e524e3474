// `svc call` against a real server whose providers are the sandbox: a hit, a miss, refusals (422,
// 402), a server error (502), each with its exit code, and every route flag reaching the router as
// the one header it stands for.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';

const run = promisify(execFile);

let w: RoutedWorld;
let env: Record<string, string>;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
  env = { SVC_URL: w.url, SVC_TOKEN: w.token };
});
afterAll(async () => {
  await w?.close();
});

const svc = (args: string[], e = env) => svcCli(args, e);

describe('svc call', () => {
  it('prints the output of a hit, who served it and what it cost, and exits 0', async () => {
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^status\s+\S+/m);
    expect(r.stderr).toMatch(/^hit: served by \w+\.people\.email\.verify; cost \$[\d.]+; call_[0-9a-f]{32}\n$/);
  });

  it("says when a provider refused the team's own key, which svc then set aside for its platform key, on the balance", async () => {
    const { team, token } = (await w.ctx.state.createTeam('cli wrong own key', 1_000_000))!;
    await w.ctx.state.setOwnKey(team.id, 'checkco', 'not-the-key');
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--prefer', 'checkco'], { ...env, SVC_TOKEN: token });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^your team's key for checkco was refused \(HTTP 403\): svc sets it aside for a while and calls checkco with its platform key, on your balance; replace it on the dashboard's account page or with POST \/teams\/me\/keys\/checkco\nhit: served by checkco\.people\.email\.verify; cost/,
    );
    expect(await w.ctx.state.balance(team.id)).toBeLessThan(1_000_000);
  });

  it('prints the whole answer with --json, and takes the svc. prefix', async () => {
    const r = await svc(['call', 'svc.people.email.verify', 'email=jane.doe@stripe.com', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body._svc.served_by).toMatch(/people\.email\.verify$/);
    expect(body._svc.call_id).toMatch(/^call_/);
  });

  it('exits 3 on a miss and shows what was tried', async () => {
    const r = await svc(['call', 'people.email.verify', 'email=nohit.jane@stripe.com']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^PROVIDER\s+OUTCOME/m);
    expect(r.stderr).toMatch(/^miss: nothing found; cost \$[\d.]+; call_/m);
    const json = await svc(['call', 'people.email.verify', 'email=nohit.jane@stripe.com', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)._svc.served_by).toBeNull();
  });

  it("exits 4 with the server's sentence when the call is refused (422), sending nothing", async () => {
    const billed = await w.billing();
    const r = await svc(['call', 'people.email.verify', 'email=not-an-email']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^svc: .*email/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await w.billing()).toEqual(billed);
    const json = await svc(['call', 'people.email.verify', 'email=not-an-email', '--json']);
    expect(JSON.parse(json.stdout).detail[0].loc).toContain('email');
  });

  it('exits 4 when the balance is too low (402)', async () => {
    const { token } = (await w.ctx.state.createTeam('broke cli team', 0))!;
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com'], { ...env, SVC_TOKEN: token });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^svc: .*balance/i);
  });

  it('exits 5 when every provider failed (502)', async () => {
    const r = await svc(['call', 'people.email.verify', 'email=fail-checkco.fail-zerobounce@stripe.com']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/error/);
    expect(r.stderr).toMatch(/^svc: Every child that was tried failed/m);
  });

  it('reads each field as the type the capability declares (limit=3 is a number)', async () => {
    const r = await svc(['call', 'google.serp.organic', 'q=coffee roasters', 'limit=3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).output.results.length).toBeGreaterThan(0);
    const people = await svc(['call', 'google.serp.organic', 'q=coffee roasters', 'limit=3']);
    // a list of records is a table under its name, the plain fields key and value
    expect(people.stdout).toMatch(/^results:\nPOSITION\s+TITLE\s+URL\s+SNIPPET\n1\s+/m);
    expect(await svc(['call', 'google.serp.organic', 'q=coffee', 'limit=three'])).toMatchObject({
      code: 2,
      stderr: "svc: limit takes a whole number; 'three' is not one.\n",
    });
  });
});

describe('the spinner', () => {
  it('turns on a terminal while a call takes over a second, and never in a pipe', async () => {
    // the sandbox holds each verifier's answer 1.5 s; the command's stdout and stderr are a terminal
    const slow = ['call', 'people.email.verify', 'email=latency1500ms-checkco.latency1500ms-zerobounce@stripe.com'];
    const tty = await svcCli(slow, env, { tty: true });
    expect(tty.stderr).toMatch(/\r[|/\\-] calling people\.email\.verify/);
    expect(tty.stderr).toMatch(/hit: served by/);
    const piped = await svc(slow);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toMatch(/^hit: served by \S+; cost \$[\d.]+; call_\w+\n$/);
  });
});

describe('svc call route flags', () => {
  it('--dry-run prints the plan and worst cost, calling and charging nothing', async () => {
    const before = await w.ctx.state.balance(w.teamId);
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PLAN\s+KEY\s+WORST COST\n\w+\.people\.email\.verify\s+platform\s+\$[\d.]+/);
    expect(r.stderr).toMatch(/worst cost of the call: \$[\d.]+; nothing was called or charged/);
    expect(await w.ctx.state.balance(w.teamId)).toBe(before);
  });

  it('every flag is a header the router takes (a wrong name would be a 422)', async () => {
    const r = await svc([
      'call',
      'people.email.find',
      'domain=stripe.com',
      'full_name=Jane Doe',
      '--dry-run',
      '--json',
      '--max-cost',
      '0.5',
      '--prefer',
      'findco',
      '--exclude',
      'checkco',
      '--no-waterfall',
      '--strict',
      '--verify',
      '--timeout',
      '20000',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.plan[0].endpoint_id).toMatch(/^findco\./);
    expect(plan.verification.capability).toBe('people.email.verify');
  });

  it('a flag svc refuses is named as the flag, not as the header it is sent as', async () => {
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--max-cost', 'abc']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^svc: .*--max-cost/);
    expect(r.stderr).not.toContain('X-Svc-Route');
  });

  it('--max-cost 0 stops before any provider: a miss, exit 3', async () => {
    const r = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--max-cost', '0']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/miss: nothing found \(stopped: max_cost\)/);
  });

  it('--no-waterfall stops at the first miss; without it the next provider serves', async () => {
    const plan = JSON.parse((await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--dry-run', '--json'])).stdout);
    const first = plan.plan[0].endpoint_id.split('.')[0];
    const email = `nohit-${first}.jane@stripe.com`;
    const on = JSON.parse((await svc(['call', 'people.email.verify', `email=${email}`, '--json'])).stdout);
    expect(on._svc.served_by).not.toBeNull();
    const off = await svc(['call', 'people.email.verify', `email=${email}`, '--json', '--no-waterfall']);
    expect(off.code).toBe(3);
    expect(JSON.parse(off.stdout)._svc.tried.filter((t: { outcome: string }) => t.outcome !== 'skipped')).toHaveLength(1);
  });

  it('--exclude and --prefer name providers; one the capability lacks is refused (exit 4)', async () => {
    const ex = JSON.parse((await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--exclude', 'checkco', '--json'])).stdout);
    expect(ex._svc.tried.map((t: { endpoint_id: string }) => t.endpoint_id)).not.toContain('checkco.people.email.verify');
    const bad = await svc(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--prefer', 'nosuch']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/'nosuch' is not a provider of people\.email\.verify/);
  });

  it("--verify adds the verifier's verdict", async () => {
    const r = JSON.parse((await svc(['call', 'people.email.find', 'domain=stripe.com', 'full_name=Jane Doe', '--verify', '--json'])).stdout);
    expect(r._svc.verification).toEqual(expect.objectContaining({ verdict: expect.stringMatching(/^(valid|invalid|unknown)$/) }));
    const people = await svc(['call', 'people.email.find', 'domain=stripe.com', 'full_name=Jane Doe', '--verify']);
    expect(people.stderr).toMatch(new RegExp(`^hit: served by \\S+; verification: ${r._svc.verification.verdict}; cost `));
  });
});

describe('svc call usage errors (exit 2, nothing sent)', () => {
  it('refuses a misspelt flag, a word that is not field=value, and a missing SVC_TOKEN', async () => {
    const misspelt = await svc(['call', 'people.email.verify', 'email=a@b.co', '--max-costs', '0.1']);
    expect(misspelt).toMatchObject({ code: 2, stderr: expect.stringMatching(/^svc: svc call has no option '--max-costs'; its options are --max-cost,/) });
    expect(misspelt.stderr).toContain('--no-waterfall');
    expect(misspelt.stderr).not.toMatch(/[ ,]--waterfall\b/);
    expect(await svc(['call', 'people.email.verify', 'jane@stripe.com'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/is not field=value/) });
    expect(await svc(['call', 'people.email.verify', 'email=a@b.co'], { SVC_URL: w.url })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/SVC_TOKEN is not set/),
    });
    expect(await svc(['call'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/CAPABILITY/) });
  });

  it('a token copied with more than itself is a usage error that never shows it; surrounding whitespace is dropped', async () => {
    const token = `${w.token}\nexport OTHER=1`;
    const broken = await svc(['call', 'people.email.verify', 'email=a@b.co'], { SVC_URL: w.url, SVC_TOKEN: token });
    expect(broken).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^svc: SVC_TOKEN holds a line break, a space or another character a header cannot carry/),
    });
    expect(broken.stderr).not.toContain(w.token);
    const padded = await svc(['me'], { SVC_URL: w.url, SVC_TOKEN: `  ${w.token}\n` });
    expect(padded.code).toBe(0);
  });

  it('an unknown capability is refused by the server (exit 4); an unreachable server is exit 6', async () => {
    expect(await svc(['call', 'findco.people.email.find', 'domain=stripe.com'])).toMatchObject({
      code: 4,
      stderr:
        "svc: 'findco.people.email.find' is not a routed capability; svc search findco people email find lists operations, and routed ones have ids svc.<capability>.\n",
    });
    const down = await svc(['call', 'people.email.verify', 'email=a@b.co'], { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'x' });
    expect(down).toMatchObject({ code: 6, stderr: expect.stringMatching(/^svc: Cannot reach http:\/\/127\.0\.0\.1:9/) });
    expect(down.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the catalog names the CLI', () => {
  it("every routed entry's `svc call` hint works as pasted into a shell", async () => {
    for (const cap of ['people.email.find', 'people.email.verify', 'google.serp.organic']) {
      const entry = await (await fetch(`${w.url}/catalog/endpoints/svc.${cap}`)).json();
      const line = (entry.hints as string[]).find((h) => h.startsWith('From a terminal: '))!.slice('From a terminal: '.length);
      expect(line).toMatch(new RegExp(`^svc call ${cap.replaceAll('.', '\\.')} \\w+=`));
      // the shell splits the line (bash prints the words it would hand `svc`), and svc runs them
      const words = (await run('bash', ['--norc', '-c', `svc() { printf '%s\\0' "$@"; }; ${line} --json`])).stdout.split('\0').slice(0, -1);
      const r = await svc(words);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)._svc.served_by).toMatch(new RegExp(`${cap.replaceAll('.', '\\.')}$`));
    }
  });
});
