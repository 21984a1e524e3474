// Plausible values derived from a subject: the email sent, names read from the email or a LinkedIn
// handle, the domain from the email or website, a phone number from a hash. Same subject, same facts.
import { bareDomain, linkedinHandle } from '../language/transforms.ts';
import { hash32, pick } from './hash.ts';
import type { Subject } from './types.ts';

const SURNAMES = ['Doe', 'Rivera', 'Okafor', 'Lindqvist', 'Tanaka', 'Moreau', 'Patel', 'Novak'];
const FIRST = ['Jane', 'Sam', 'Ada', 'Noor', 'Luis', 'Mia', 'Omar', 'Ines'];

const cap = (w: string): string => (w ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w);
const words = (s: string): string[] => s.split(/[^a-z]+/i).filter((w) => w.length > 1 && !/^\d+$/.test(w));

export type Facts = Record<string, string>;

function personName(s: Subject, h: number): [string, string] {
  if (s.first_name && s.last_name) return [s.first_name, s.last_name];
  const full = s.full_name ?? s.name;
  if (full && full.trim().includes(' ')) {
    const w = full.trim().split(/\s+/);
    return [w[0], w.slice(1).join(' ')];
  }
  const source = s.email?.split('@')[0] ?? (s.linkedin_url ? linkedinHandle(s.linkedin_url) : null) ?? s.linkedin_handle ?? '';
  const w = words(source);
  if (w.length >= 2) return [cap(w[0]), cap(w[1])];
  if (w.length === 1) return [cap(w[0]), pick(SURNAMES, h)];
  return [pick(FIRST, h), pick(SURNAMES, h >>> 3)];
}

function companyDomain(s: Subject, h: number): string {
  const d = s.domain ?? s.company_domain ?? bareDomain(s.website ?? s.url) ?? s.email?.split('@')[1];
  if (d && !/linkedin\.com/.test(d)) return d.toLowerCase();
  const handle = s.linkedin_handle ?? (s.linkedin_url ? linkedinHandle(s.linkedin_url) : null) ?? s.name ?? s.q;
  const slug = handle ? words(handle).join('').toLowerCase() : '';
  return `${slug || `company${h % 1000}`}.com`;
}

export function deriveFacts(s: Subject): Facts {
  const h = hash32(JSON.stringify(Object.entries(s).sort()));
  const domain = companyDomain(s, h);
  const [first, last] = personName(s, h);
  const company = s.name && !s.full_name ? s.name : words(domain.split('.')[0]).map(cap).join(' ') || 'Acme';
  const email = s.email ?? `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}`;
  const handle = s.linkedin_handle ?? (s.linkedin_url ? linkedinHandle(s.linkedin_url) : null);
  return {
    email,
    domain,
    company_domain: domain,
    website: `https://${domain}`,
    name: company,
    company,
    full_name: `${first} ${last}`,
    first_name: first,
    last_name: last,
    person_linkedin_url: s.linkedin_url ?? `https://www.linkedin.com/in/${`${first}-${last}`.toLowerCase()}`,
    company_linkedin_url: s.linkedin_url ?? `https://www.linkedin.com/company/${handle ?? domain.split('.')[0]}`,
    phone: s.phone ?? `+1415555${String(1000 + (h % 9000)).padStart(4, '0')}`,
    ...(s.url ? { url: s.url } : {}),
  };
}
