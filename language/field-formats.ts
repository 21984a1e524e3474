// The forms an identity field can be held to (`formats:` in a capability file): a value that cannot
// be one (an "email" with no @, a "domain" with spaces) is a 422 naming the field before any provider
// is paid to look it up. Lenient on purpose: they refuse what cannot be, not what is merely unusual.
// The build rejects format names not in this registry.

export interface FieldFormat {
  /** a JSON Schema pattern (ajv reads it with the `u` flag) */
  pattern: string;
  /** what the 422 says the value must be */
  expected: string;
}

const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';

export const FIELD_FORMATS: Record<string, FieldFormat> = {
  email: { pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@.]+$', expected: 'an email address, such as jane@acme.com' },
  domain: { pattern: `^(?:${LABEL}\\.)+${LABEL}$`, expected: 'a domain name, such as stripe.com (no scheme or path)' },
  linkedin_url: { pattern: '^(https?://)?([\\w-]+\\.)*[lL]inked[iI]n\\.com/[^\\s]+$', expected: 'a LinkedIn address, such as linkedin.com/in/jane' },
  linkedin_handle: { pattern: '^[^\\s/?#@]+$', expected: 'a LinkedIn handle, the part after /in/ or /company/, such as jane-doe' },
  // the post's number is what every provider reads; a URN naming no post number names no post
  linkedin_post_urn: { pattern: '^urn:li:[A-Za-z]+:\\d{15,}[^\\s]*$', expected: 'a LinkedIn post URN, such as urn:li:activity:7260000000000000000' },
};
