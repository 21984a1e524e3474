// The finder's local judge over the real catalog, on jobs it once misread: the thing a job acts on
// ("verify an email": the email is what the caller has, so email finders do not do it), a subject
// named only vaguely ("this person" names none of a person's inputs), a platform no operation reads
// ("tiktok videos" is no job for YouTube's operations), and each price said per what it is charged
// per (a routed entry's per hit).
import { describe, expect, it } from 'vitest';
import { svcCli } from '../helpers/cli.ts';
import { judged, servedRealCatalog, type Judged } from './served.ts';
import { usdTextOf } from '../../language/money-words.ts';

const server = servedRealCatalog();

interface Found extends Judged {
  capabilityOf: (id: string) => string | undefined;
}

async function find(q: string): Promise<Found> {
  const found = await judged(server, q);
  return { ...found, capabilityOf: (id) => found.candidates.find((c) => c.endpoint_id === id)?.capability };
}

/** rows shown after those that do the job: search's best match by words */
const byWordsOnly = (why: string) => why.startsWith('closest by words');

describe('a job that acts on what the caller has', () => {
  it.each(['verify an email', 'verify an email address', 'email verification', 'validate this email'])(
    '%s: the email is had, and only verifiers do the job',
    async (q) => {
      const { kept, verdict, capabilityOf } = await find(q);
      expect(verdict).toMatch(/^people\.email\.verify takes email, returns status; you have email\./);
      expect(capabilityOf(kept[0].endpoint_id)).toBe('people.email.verify');
      for (const k of kept.filter((k) => !byWordsOnly(k.why)))
        expect(capabilityOf(k.endpoint_id), `${k.endpoint_id}: ${k.why}`).toMatch(/^people\.email\.verif/);
    },
  );

  it('counts the rows that do the job, and says which rows after them do not', async () => {
    for (const q of [
      'verify an email',
      'verify an email address',
      'email from a linkedin profile',
      'company info from its linkedin url',
      'email of this person',
    ]) {
      const { kept, verdict } = await find(q);
      const doing = kept.filter((k) => !byWordsOnly(k.why));
      expect(Number(verdict.match(/Kept (\d+) of \d+ candidates/)?.[1]), `${q}: ${verdict}`).toBe(doing.length);
      if (doing.length < kept.length) expect(verdict, q).toMatch(/, then (one row|\d+ rows) of [a-z.]+, search's best match by words, which does not do it\.$/);
    }
  });
});

describe('a subject named only vaguely', () => {
  it.each([
    ['email of this person', 'people.email.find'],
    ['phone number of this person', 'people.phone.find'],
    ['how can I call this person', 'people.phone.find'],
    ['linkedin posts of a person', 'linkedin.user.posts'],
  ])('%s: names none of its inputs, and the pick lists every input it takes', async (q, capability) => {
    const { kept, verdict, capabilityOf } = await find(q);
    expect(capabilityOf(kept[0].endpoint_id)).toBe(capability);
    expect(verdict).toMatch(/; the job names none of its inputs \('person' does not say which one you have\)\./);
    expect(verdict).not.toMatch(/; you have |officer_name/);
    expect(kept[0].why).toMatch(/^takes (.+ or )?linkedin_url( or .+)?, returns /);
  });

  it.each([
    ['email of this person: https://www.linkedin.com/in/jane-doe', 'people.email.find', 'email'],
    ['phone number of this person, linkedin.com/in/jane-doe', 'people.phone.find', 'phone'],
    ['posts of this person https://www.linkedin.com/in/jane-doe', 'linkedin.user.posts', 'posts'],
  ])('%s: the LinkedIn URL alone covers a set, so the pick takes it', async (q, capability, returns) => {
    const { kept, verdict, capabilityOf } = await find(q);
    expect(capabilityOf(kept[0].endpoint_id)).toBe(capability);
    expect(verdict).toMatch(new RegExp(`^${capability.replaceAll('.', '\\.')} takes linkedin_url, returns ${returns}; you have linkedin_url\\.`));
  });
});

describe('a platform no operation reads', () => {
  it.each([
    ['tiktok videos', 'tiktok'],
    ['instagram followers', 'instagram'],
    ['instagram followers of a brand', 'instagram'],
    ['twitter followers of a founder', 'twitter'],
    ['pinterest pins of a brand', 'pinterest'],
    // "posts" are no job posts
    ['instagram posts', 'instagram'],
    ['facebook posts', 'facebook'],
    ['tiktok posts', 'tiktok'],
    ['reddit posts about stripe', 'reddit'],
    ['recent instagram posts of nike', 'instagram'],
  ])('%s: nothing does this; the nearest is only named', async (q, platform) => {
    const { kept, verdict } = await find(q);
    expect(kept).toEqual([]);
    expect(verdict).toMatch(new RegExp(`^Nothing does this: no operation here reads ${platform}\\. The nearest`));
  });

  it('svc find says so on stderr and exits 3, as for any job nothing does', async () => {
    const r = await svcCli(['find', 'tiktok', 'videos'], { SVC_URL: server.url });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^Nothing does this: no operation here reads tiktok\./);
  });

  it.each([
    ['comments on a youtube video', 'youtube.video.comments'],
    ['linkedin followers of a company', 'linkedin.company.profile'],
    ['email from a linkedin profile', 'people.email.find'],
  ])('%s: a platform it reads, or a capability of no one platform, still does the job', async (q, capability) => {
    const { kept, capabilityOf } = await find(q);
    expect(capabilityOf(kept[0].endpoint_id)).toBe(capability);
  });
});

describe('prices in the why', () => {
  it('a routed entry is priced per hit, an operation per what its entry charges per', async () => {
    for (const q of ['verify an email', 'email from a linkedin profile', 'company from a domain', 'recent posts of a linkedin user']) {
      const { candidates, kept } = await find(q);
      for (const c of candidates)
        if (c.usd !== null && c.kind !== 'tool') expect(c.unit, c.endpoint_id).toEqual(c.kind === 'routed' ? 'hit' : expect.any(String));
      for (const k of kept) {
        const c = candidates.find((x) => x.endpoint_id === k.endpoint_id)!;
        if (c.usd !== null) expect(k.why.endsWith(`; ${usdTextOf(c.usd)} per ${c.unit}`), `${k.endpoint_id}: ${k.why}`).toBe(true);
        // said as the CLI says money: at least two decimals ($0.10, never $0.1)
        if (c.usd !== null) expect(k.why).toMatch(/; \$\d+\.\d{2,6} per /);
      }
      expect(
        kept.some((k) => candidates.find((x) => x.endpoint_id === k.endpoint_id)?.kind === 'routed'),
        q,
      ).toBe(true);
    }
  });
});

describe("an operation that is a step of another's job", () => {
  it.each(['is jane@stripe.com a valid email', 'email deliverability check', 'check if this email bounces'])(
    "%s: no job's status, results or removal is kept as doing it",
    async (q) => {
      const { candidates, kept } = await find(q);
      expect(kept.length).toBeGreaterThan(0);
      const kindOf = (id: string) => candidates.find((c) => c.endpoint_id === id)?.kind;
      expect(kept.filter((k) => kindOf(k.endpoint_id) === 'utility').map((k) => k.endpoint_id)).toEqual([]);
    },
  );

  it('an account question still keeps the account operations, which are utilities alone', async () => {
    const { kept } = await find('how many credits do I have left on hunter');
    expect(kept[0].endpoint_id).toBe('hunter.account.credits');
  });
});

describe('what a caller says they have', () => {
  it.each([
    ['I have a full name and a domain, I need the email', 'people.email.find', 'domain \\+ full_name', 'email'],
    ["I've got a full name and a domain and need the email", 'people.email.find', 'domain \\+ full_name', 'email'],
    ['we have a domain and a full name, find the email', 'people.email.find', 'domain \\+ full_name', 'email'],
    ['I have a linkedin url and want the phone', 'people.phone.find', 'linkedin_url', 'phone'],
    ['given a linkedin url, get the phone', 'people.phone.find', 'linkedin_url', 'phone'],
    ['I have an email, get the company', 'companies.enrich', 'email', '[a-z_]+'],
  ])('%s: what follows "I have" is had, and a set it covers wins', async (q, capability, takes, returns) => {
    const { kept, verdict, capabilityOf } = await find(q);
    expect(verdict).toMatch(new RegExp(`^${capability.replaceAll('.', '\\.')} takes ${takes}, returns ${returns}; you have ${takes}\\.`));
    expect(capabilityOf(kept[0].endpoint_id)).toBe(capability);
  });

  it.each([
    'email of Jane Doe at stripe.com',
    'find the work email of jane doe at stripe.com',
    'work email for John Smith, stripe.com',
    'Jane Doe stripe.com email',
  ])('%s: a name written out with a domain reads as full_name + domain', async (q) => {
    const { kept, verdict, capabilityOf } = await find(q);
    expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns [a-z_]+; you have domain \+ full_name\./);
    expect(capabilityOf(kept[0].endpoint_id)).toBe('people.email.find');
    expect(kept[0].why).not.toMatch(/also needs/);
  });

  it.each(['emails for marketing people at stripe.com', 'email of Acme Corp'])('%s: words a vocabulary knows, or a name alone, read as no name', async (q) => {
    const { verdict } = await find(q);
    expect(verdict).not.toMatch(/you have [a-z_ +]*full_name/);
  });
});

describe('posts where the catalog reads them', () => {
  it.each([
    ['job posts of stripe.com', 'companies.jobs'],
    ['job postings at stripe.com', 'companies.jobs'],
    ['linkedin posts of a company', 'linkedin.company.posts'],
  ])('%s: job posts are still jobs, and posts on linkedin still posts', async (q, capability) => {
    const { kept, capabilityOf } = await find(q);
    expect(capabilityOf(kept[0].endpoint_id)).toBe(capability);
  });
});
