// The finder's local judge over the real catalog, on more jobs it once misread: the caller has an email
// and wants the company ("I've got an email, find the company": no email finder does that), a word whose
// stem another word shared ("companies like stripe" is no job for a post's likes), and a company's name
// written out ("people at Acme Robotics" names a company, not a person), a person's name whose words
// a vocabulary knows or spelling would correct ("email of David Price at stripe.com"), and the datum
// after its or their, which is wanted ("get its domain").
import { describe, expect, it } from 'vitest';
import { judged as judgedBy, servedRealCatalog } from './served.ts';

const server = servedRealCatalog();

interface Found {
  verdict: string;
  /** the capability of each kept row, those search liked by words only left out */
  doing: string[];
}

const judged = (q: string) => judgedBy(server, q);

async function find(q: string): Promise<Found> {
  const { candidates, kept, verdict } = await judged(q);
  const capabilityOf = new Map(candidates.map((c) => [c.endpoint_id, c.capability]));
  return { verdict, doing: kept.filter((k) => !k.why.startsWith('closest by words')).map((k) => capabilityOf.get(k.endpoint_id) ?? '?') };
}

describe('an email the caller has, a company they want', () => {
  it.each([
    "I've got an email, find the company",
    'I have an email address and need to find the company',
    'find company by email',
    'company from a work email',
    'what company does this email belong to',
    'which company is behind this email address',
    'I have someone’s email address, which company do they work for?',
    'I know their email, where do they work?',
    'given an email address, find the employer',
  ])('%s: what takes the email and gives a company comes first; no email finder or verifier does it', async (q) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(/^(companies\.enrich|people\.enrich(\.full)?) takes email, returns (name|company); you have email\./);
    expect(doing[0]).toMatch(/^(companies\.enrich|people\.enrich(\.full)?)$/);
    expect(doing.filter((c) => c.startsWith('people.email.'))).toEqual([]);
  });
});

describe('words that share a stem but not a meaning', () => {
  it.each(['companies like stripe', 'find companies like Notion', 'businesses like airbnb'])(
    '%s: lookalike companies, and nothing that counts likes',
    async (q) => {
      const { doing } = await find(q);
      expect(doing[0]).toBe('companies.similar');
      expect(doing.filter((c) => /^(linkedin\.post|youtube)\./.test(c))).toEqual([]);
    },
  );

  it.each([
    ['get the likes of a YouTube video', 'youtube.video.detail'],
    ['how many likes does this youtube video have', 'youtube.video.detail'],
    ['who liked this linkedin post', 'linkedin.post.reactions'],
  ])('%s: likes are still a post or video datum', async (q, capability) => {
    const { doing, verdict } = await find(q);
    expect(verdict).toMatch(new RegExp(`^${capability.replaceAll('.', '\\.')} takes `));
    expect(doing[0]).toBe(capability);
    expect(doing).not.toContain('companies.similar');
  });

  it('an employer is no headcount', async () => {
    const { verdict } = await find('given an email address, find the employer');
    expect(verdict).toMatch(/^people\.enrich takes email, returns company;/);
    expect(verdict).not.toMatch(/employee_count/);
  });
});

describe("a company's name written out", () => {
  it.each(['find emails of people at Acme Robotics', 'email of Acme Corp', 'emails at Blue Origin Inc'])(
    '%s: the name is a company’s, which no email finder takes; no person is read',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).not.toMatch(/full_name/);
      expect(verdict).toMatch(/^No operation takes name and returns [a-z_, ]*email/);
      expect(doing.some((c) => c.startsWith('people.email.'))).toBe(true);
    },
  );

  it.each([
    ['enrich Blue Origin', 'companies.enrich', 'name'],
    ['Enrich Blue Origin', 'companies.enrich', 'name'],
    ['revenue of Blue Origin', 'companies.enrich', 'revenue'],
    ['what is the domain of Acme Robotics', 'companies.domain.find', 'domain'],
    ['find people at Acme Robotics', 'people.search.company', 'people'],
  ])('%s: a capability that takes a company’s name takes it', async (q, capability, returns) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(new RegExp(`^${capability.replaceAll('.', '\\.')} takes (name|company), returns ${returns}; you have (name|company)\\.`));
    expect(doing[0]).toBe(capability);
  });

  it.each([
    ['find the email of Jane Doe at Acme Robotics', 'people.email.find', 'email'],
    ['phone number of John Smith from Blue Origin', 'people.phone.find', 'phone'],
  ])('%s: the name beside the company’s is a person’s', async (q, capability, returns) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(
      new RegExp(`^${capability.replaceAll('.', '\\.')} takes domain \\+ full_name, returns ${returns} \\(also needs domain\\); you have full_name\\.`),
    );
    expect(doing[0]).toBe(capability);
  });

  it('a person at a domain still reads as a person', async () => {
    const { verdict } = await find('find the email of Jane Doe at acme.com');
    expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns email; you have domain \+ full_name\./);
  });
});

describe('a name where a person stands: of or for a name, at or from where they work', () => {
  it.each([
    ['phone number of Emily Page at stripe.com', 'people.phone.find', 'phone'],
    ['email of David Price at stripe.com', 'people.email.find', 'email'],
    ['email of Sara Connor at stripe.com', 'people.email.find', 'email'],
    ['work email of Sara Connor at cyberdyne.com', 'people.email.find', 'email'],
    ['email of Jane Hunter at stripe.com', 'people.email.find', 'email'],
    ['email of sara connor at cyberdyne.com', 'people.email.find', 'email'],
    ['Get me the phone number for Mark Fisher from shopify.com', 'people.phone.find', 'phone'],
  ])('%s: a surname a vocabulary knows, or spelling would correct, is still a name', async (q, capability, returns) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(
      new RegExp(`^${capability.replaceAll('.', '\\.')} takes domain \\+ full_name, returns ${returns}; you have domain \\+ full_name\\.`),
    );
    expect(doing[0]).toBe(capability);
  });

  it('a capitalised word where the person works is a company’s name: the name beside it a person’s', async () => {
    const { verdict } = await find('email of Sam Page at Stripe');
    expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns email \(also needs domain\); you have full_name\./);
  });

  it.each(['emails of sales people at stripe.com', 'Find Emails Of Sales People At stripe.com'])(
    '%s: words a vocabulary knows, or a title written in capitals, name no one',
    async (q) => {
      const { verdict } = await find(q);
      expect(verdict).toMatch(/you have domain\./);
      expect(verdict).not.toMatch(/full_name/);
    },
  );
});

describe('its, their: what the caller has, and its datum they want', () => {
  it.each([
    ['I know the company name Blue Origin, get its domain and headcount', 'companies\\.enrich takes name, returns employee_count'],
    ['given a company Blue Origin, what is its headcount', 'companies\\.enrich takes name, returns employee_count'],
    ['I have Blue Origin, need its website', 'companies\\.domain\\.find takes name, returns domain'],
    ['i have names and companies, want their emails', 'people\\.email\\.find takes domain \\+ full_name, returns email \\(also needs domain\\)'],
    ['we have their names and companies, looking for their emails', 'people\\.email\\.find takes domain \\+ full_name, returns email \\(also needs domain\\)'],
  ])('%s: the thing after the pronoun is wanted', async (q, reads) => {
    const { verdict } = await find(q);
    expect(verdict).toMatch(new RegExp(`^${reads}; you have (name|full_name)\\.`));
  });
});

describe("a step of another operation's job is no job of its own", () => {
  /** the kind of each kept row, by the candidates' */
  const keptKinds = async (q: string) => {
    const { candidates, kept } = await judged(q);
    const kindOf = new Map(candidates.map((c) => [c.endpoint_id, c.kind]));
    return kept.map((k) => `${k.endpoint_id}:${kindOf.get(k.endpoint_id)}`);
  };

  it.each(['vlaidate emial adresses in bulk', 'verify a list of emails in bulk', 'find emails of people at Acme Robotics', 'hunter email finder'])(
    '%s: no utility (a bulk job read back, its status) among the rows kept beside ones that do the job',
    async (q) => {
      const kinds = await keptKinds(q);
      expect(kinds.length).toBeGreaterThan(0);
      expect(kinds.filter((k) => k.endsWith(':utility'))).toEqual([]);
    },
  );

  it('a job about an account keeps its utilities: the credits left on an account', async () => {
    const kinds = await keptKinds('how many credits do I have left on hunter');
    expect(kinds[0]).toBe('hunter.account.credits:utility');
  });
});

describe("a capability's routed entry leads its rows", () => {
  it.each(['turn linkedin profile urls into phone numbers', 'phone numbers for a list of linkedin profiles', 'work emails for names at companies'])(
    '%s: the routed entry is among the candidates, first of its capability, and kept first',
    async (q) => {
      const { candidates, kept } = await judged(q);
      const first = kept[0].endpoint_id;
      const capability = candidates.find((c) => c.endpoint_id === first)?.capability;
      const ofIt = candidates.filter((c) => c.capability === capability);
      expect(ofIt[0].endpoint_id).toBe(`svc.${capability}`);
      expect(first).toBe(`svc.${capability}`);
    },
  );
});

describe('what a note says it has, its subject dropped', () => {
  it.each([
    ['got a list of work emails, need the companies behind them', 'email'],
    ['have linkedin urls, want phone numbers', 'linkedin_url'],
  ])('%s: %s is had', async (q, had) => {
    const { verdict } = await find(q);
    expect(verdict).toMatch(new RegExp(`you have [^.;]*\\b${had}\\b`));
  });
});

describe('a phone number is no count', () => {
  it.each(['phone numbers at hubspot.com', 'phone numbers of the sales team at hubspot.com', 'find mobile number for Jane Doe at hubspot.com'])(
    '%s: people.phone.find first, no email count kept',
    async (q) => {
      const { doing } = await find(q);
      expect(doing[0]).toBe('people.phone.find');
      expect(doing).not.toContain('people.email.count');
    },
  );

  it.each(['how many emails does stripe.com have', 'number of emails at stripe.com'])('%s: still the email count', async (q) => {
    expect((await find(q)).doing[0]).toBe('people.email.count');
  });
});

describe("a search's query is the words the job has that no phrase reads", () => {
  it.each([
    ['google results for best crm software', 'google.serp.organic'],
    ['search google for running shoes', 'google.serp.organic'],
    ['google jobs for product designers in berlin', 'google.serp.jobs'],
    ['google news about openai this week', 'google.serp.news'],
  ])('%s: %s takes it, and the verdict says the caller has it', async (q, capability) => {
    const { verdict, doing } = await find(q);
    expect(doing[0]).toBe(capability);
    expect(verdict).toMatch(new RegExp(`^${capability.replaceAll('.', '\\.')} takes (q|query), .*; you have (q|query)\\.`));
  });
});

describe('a question whether what the caller holds is so', () => {
  it.each([
    ['is this a valid email', 'people\\.email\\.verify takes email, returns status; you have email\\.'],
    ['is jane@acme.com a valid email', 'people\\.email\\.verify takes email, returns status; you have email\\.'],
    ['is this phone number valid', 'people\\.phone\\.verify takes phone, returns status; you have phone\\.'],
  ])('%s: the thing asked about is had, the verdict wanted', async (q, reads) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(new RegExp(`^${reads}`));
    expect(doing.filter((c) => /\.(find|domain|decision_maker)$/.test(c))).toEqual([]);
  });

  it('a question about a tool still wants what the tool gives', async () => {
    const { verdict } = await find('is there an email finder for linkedin');
    expect(verdict).toMatch(/^people\.email\.find takes linkedin_url, returns email; you have linkedin_url\./);
  });
});

describe('a note written as a conversion, with an arrow', () => {
  it.each([
    ['email -> company', /^(companies\.enrich|people\.enrich(\.full)?) takes email, returns (name|company); you have email\./],
    ['linkedin url -> email', /^people\.email\.find takes linkedin_url, returns email; you have linkedin_url\./],
    ['domain → emails', /^people\.email\.domain takes domain, returns emails; you have domain\./],
    ['linkedin url=>phone', /^people\.phone\.find takes linkedin_url, returns phone; you have linkedin_url\./],
  ])('%s: what stands before the arrow is had', async (q, reads) => {
    const { verdict } = await find(q);
    expect(verdict).toMatch(reads);
  });
});

describe('a wanted thing said with what it should be', () => {
  it.each(['find a valid email for jane doe at stripe.com', 'find a verified email for Jane Doe at stripe.com'])(
    '%s: finding it is the job; no verifier leads',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns email; you have domain \+ full_name\./);
      expect(doing[0]).toBe('people.email.find');
    },
  );
});

describe("a person's name before their datum, or before where they work", () => {
  it.each([
    "whats jane doe's email at stripe.com",
    "what's Jane Doe's email at stripe.com",
    'Jane Doe email at stripe.com',
    'what is jane doe’s email address at stripe.com',
    'find john smith email at stripe.com',
    'Mark Zuckerberg email at stripe.com',
    "what is Bill Gates' email at stripe.com",
  ])('%s: the name and the domain find her email, ahead of every address at the domain', async (q) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns email; you have domain \+ full_name\./);
    expect(doing[0]).toBe('people.email.find');
  });

  it('the domain alone still reads as every address there', async () => {
    const { verdict } = await find('emails at stripe.com');
    expect(verdict).toMatch(/^people\.email\.domain takes domain, returns emails; you have domain\./);
  });
});

describe('a job that names who or what it is about, and asks nothing of it', () => {
  it.each([
    ['who is jane doe at stripe', /^people\.enrich takes domain \+ full_name, returns full_name \(also needs domain\); you have full_name\./],
    ['look up John Smith at Acme Corp', /^people\.enrich takes domain \+ full_name, returns full_name \(also needs domain\); you have full_name\./],
    ['enrich jane doe at stripe.com', /^people\.enrich takes domain \+ full_name, returns full_name; you have domain \+ full_name\./],
    ['enrich jane@acme.com', /^people\.enrich takes email, returns full_name; you have email\./],
    ['jane@acme.com', /^people\.enrich takes email, returns full_name; you have email\./],
    ['look up acme.com', /^companies\.enrich takes domain, returns name; you have domain\./],
    ['who is +442079460958', /^people\.phone\.reverse takes phone, returns person; you have phone\./],
    ['we have a phone number, whose is it', /^people\.phone\.reverse takes phone, returns person; you have phone\./],
    // a job asking who ends on a person's name, whatever its case
    ['who is Jane Doe', /^people\.enrich takes domain \+ full_name, returns full_name \(also needs domain\); you have full_name\./],
    ["who's john smith", /^people\.enrich takes domain \+ full_name, returns full_name \(also needs domain\); you have full_name\./],
    ['Who is Satya Nadella?', /^people\.enrich takes domain \+ full_name, returns full_name \(also needs domain\); you have full_name\./],
  ])('%s: who or what that is', async (q, reads) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(reads);
    expect(doing[0]).toBe(verdict.split(' ')[0]);
  });

  it.each(['bake a cake', 'asdf qwer'])('%s: words and no name still name nothing', async (q) => {
    const { verdict } = await find(q);
    expect(verdict).toMatch(/^Nothing does this/);
  });
});

describe('words as callers write them', () => {
  it.each([
    ['coffee shops in austin tx on google maps', 'google.serp.maps'],
    ['plumbers in brooklyn on google maps', 'google.serp.maps'],
    ['check my credits', 'account.credits'],
    ["what's my balance", 'account.credits'],
    ['check my api usage this month', 'account.usage'],
    ['check a list of emails', 'people.email.verify'],
    ['who invested in Figma', 'companies.funding'],
    ['which VCs backed notion', 'companies.funding'],
    ['news about openai', 'google.serp.news'],
    ['buying signals for my target accounts', 'companies.news'],
    ['scrape a linkedin profile', 'linkedin.user.profile'],
    ['sales reps at salesforce', 'people.search'],
    ['engineers working at google', 'people.search'],
    // roles no vocabulary held, and roles a word of another capability's shares ('software', 'recruit', 'list')
    ['software engineers at google', 'people.search'],
    ['nurses at mayo clinic', 'people.search'],
    ['recruiters at amazon', 'people.search'],
    ['list of data scientists at netflix', 'people.search'],
    ['lawyers from new york', 'people.search'],
    ['is stripe hiring', 'companies.jobs'],
    ['job openings at stripe', 'companies.jobs'],
    ['data engineer jobs in austin on google', 'google.serp.jobs'],
    ['remote product manager job listings', 'google.serp.jobs'],
    // lists of companies, a place after in or near never spelling-corrected ('lagos' is no 'logos')
    ['fintech startups in lagos', 'companies.search'],
    ['manufacturers in bavaria', 'companies.search'],
    ['logistics companies in ohio with more than 500 staff', 'companies.search'],
    ['b2b saas in the netherlands, 11-50 employees', 'companies.search'],
    ['coffee shops near 94103', 'google.serp.maps'],
    ['top youtube videos about n8n automations', 'youtube.search.videos'],
    ['find youtubers who review crm software', 'youtube.search.videos'],
    ['api usage over the last 30 days', 'account.usage'],
    ['how do i ring Jane Doe at stripe.com', 'people.phone.find'],
    ['whos john.appleseed@icloud.com', 'people.enrich'],
    // pasted ids: a LinkedIn activity's 19 digits are no phone number, a UK company's number is its own
    ['comments plus commenter profile links under activity 7123456789012345678', 'linkedin.post.comments'],
    ['reactions to linkedin post 7123456789012345678', 'linkedin.post.reactions'],
    ['companies house filings for 00445790', 'companies.filings'],
    ['officers of SC123456', 'companies.officers'],
    ['what is openai posting on their linkedin page', 'linkedin.company.posts'],
    ['views on https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube.video.detail'],
    ['what are viewers complaining about under this video https://youtu.be/dQw4w9WgXcQ', 'youtube.video.comments'],
    ['how many people work at stripe.com', 'companies.enrich'],
    // 'e.164' is a word of the phone validators', no count
    ['convert 030 1234567 (germany) into e.164', 'people.phone.validate'],
  ])('%s: %s', async (q, capability) => {
    const { verdict, doing } = await find(q);
    expect(verdict.startsWith(`${capability} takes `), verdict).toBe(true);
    expect(doing[0]).toBe(capability);
  });
});

describe('a name written lower-case, with nothing marking it', () => {
  it.each(['jane doe email stripe.com', 'john smith stripe.com email', 'email for jane doe stripe.com'])(
    '%s: two words no vocabulary knows, beside a domain, are her name',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).toMatch(/^people\.email\.find takes domain \+ full_name, returns email; you have domain \+ full_name\./);
      expect(doing[0]).toBe('people.email.find');
    },
  );
});

describe('a count of what the caller has', () => {
  it.each(['verify a list of 10k emails', 'validate 1,000 emails for me', 'check 250 email addresses'])('%s: says how many, not what', async (q) => {
    const { verdict, doing } = await find(q);
    expect(verdict).toMatch(/^people\.email\.verify takes email, returns status; you have email\./);
    expect(doing[0]).toBe('people.email.verify');
  });
});

describe('the tools a company uses', () => {
  it.each(['what CRM does acme.com use', 'which analytics tools does notion.so use', 'what cms is stripe.com on'])(
    '%s: the company from its domain, for its technologies',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).toMatch(/^companies\.enrich takes domain, returns technologies/);
      expect(doing[0]).toBe('companies.enrich');
    },
  );
});

describe('where the name rules must not reach', () => {
  it.each(['Marketing Directors at Shopify', 'Sales Managers at HubSpot', 'Account Executives from Salesforce'])(
    '%s: a job title written capitalised before at names no one',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).not.toMatch(/you have [a-z_ +]*full_name/);
      expect(doing[0]).toBe('people.search');
    },
  );

  it.each([
    ["Goldman Sachs' headcount", 'companies.enrich'],
    ["Morgan Stanley's revenue", 'companies.enrich'],
    ["Home Depot's competitors", 'companies.similar'],
  ])('%s: a possessive names a company as well as a person', async (q, capability) => {
    const { verdict } = await find(q);
    expect(verdict.startsWith(`${capability} takes `), verdict).toBe(true);
    expect(verdict).not.toMatch(/you have [a-z_ +]*full_name/);
  });

  it.each(['api for finding emails', 'is there an api for email verification'])(
    '%s: a job that says more than what it names is not a question of who that is',
    async (q) => {
      const { verdict, doing } = await find(q);
      expect(verdict).not.toMatch(/^people\.enrich/);
      expect(doing[0] ?? verdict).not.toBe('people.enrich');
    },
  );

  it.each([
    ['Jane Doe at stripe.com phone number', 'people.phone.find'],
    ['Jane Doe at Acme Robotics phone number', 'people.phone.find'],
    ['linkedin.com/in/janedoe email', 'people.email.find'],
    ['linkedin.com/in/janedoe phone', 'people.phone.find'],
  ])('%s: what follows a pasted value or a company’s name is wanted', async (q, capability) => {
    const { verdict, doing } = await find(q);
    expect(verdict.startsWith(`${capability} takes `), verdict).toBe(true);
    expect(doing[0]).toBe(capability);
  });
});
