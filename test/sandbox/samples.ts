// Sample subjects for the contract suite: one value per contract field, steering words woven in.
import type { CapabilitySrc } from '../../language/types.ts';

const PERSON_LINKEDIN = 'https://www.linkedin.com/in/jane-doe';
const COMPANY_LINKEDIN = 'https://www.linkedin.com/company/acme';

const SAMPLES: Record<string, string> = {
  email: 'jane.doe@acme.com',
  q: 'coffee',
  domain: 'acme.com',
  company_domain: 'acme.com',
  website: 'https://acme.com',
  name: 'Acme',
  full_name: 'Jane Doe',
  first_name: 'Jane',
  last_name: 'Doe',
  linkedin_handle: 'acme',
  phone: '+14155550123',
  title: 'CTO',
  industry: 'software',
  technology: 'react',
  location: 'Berlin',
  keywords: 'saas',
  video_id: 'dQw4w9WgXcQ',
  post_urn: 'urn:li:activity:7123456789012345678',
  post_id: '7123456789012345678',
  url: 'https://www.linkedin.com/posts/jane-doe_launch-activity-7123456789012345678-abcd',
};

export function sampleValue(cap: CapabilitySrc, field: string): string {
  if (field === 'linkedin_url') return 'full_name' in cap.output || 'full_name' in cap.fields ? PERSON_LINKEDIN : COMPANY_LINKEDIN;
  return SAMPLES[field] ?? `sample ${field}`;
}

/** Put a steering word into a value so it survives the request transforms (lower, domain, url…). */
export function steered(field: string, value: string, word: string): string {
  if (value.includes('@')) return `${word}.${value}`;
  if (/^https?:\/\//.test(value)) return `${value}-${word}`;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value)) return `${word}.${value}`;
  return field === 'video_id' || field === 'post_id' ? `${value}${word}` : `${value} ${word}`;
}
