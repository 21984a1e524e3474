// Derivation rules named by capability files (`derive: {domain: {rule: email_domain, from: [email]}}`):
// they fill identity fields the caller did not send from the ones it did.
import { bareDomain, linkedinCompanyUrl, linkedinHandle, linkedinProfileUrl, transforms } from './transforms.ts';

type Rule = (...values: unknown[]) => unknown;

const words = (v: unknown): string[] => (typeof v === 'string' ? v.trim().split(/\s+/).filter(Boolean) : []);

export const deriveRules: Record<string, Rule> = {
  join_name: (first, last) => (first && last ? `${String(first).trim()} ${String(last).trim()}` : null),
  first_name: (full) => (words(full).length >= 2 ? words(full)[0] : null),
  last_name: (full) => (words(full).length >= 2 ? words(full).slice(1).join(' ') : null),
  email_domain: (email) => (typeof email === 'string' && email.includes('@') ? email.split('@').pop()!.toLowerCase() : null),
  website_domain: (website) => bareDomain(website),
  domain_website: (domain) => (typeof domain === 'string' && domain ? `https://${bareDomain(domain)}` : null),
  linkedin_url_from_handle: (handle) => linkedinProfileUrl(handle),
  linkedin_company_url_from_handle: (handle) => linkedinCompanyUrl(handle),
  linkedin_handle_from_url: (url) => linkedinHandle(url),
  post_id_from_urn: (urn) => transforms.post_id(urn),
  post_urn_from_id: (id) => transforms.post_urn(id),
  video_id_from_url: (url) => transforms.youtube_video_id(url),
  url_from_video_id: (id) => (typeof id === 'string' && id ? `https://www.youtube.com/watch?v=${id}` : null),
};
