// From a body to what the planner needs: derived identity forms, filter defaults, filters really sent.
import { describe, expect, it } from 'vitest';
import type { CapabilitySrc } from '../../language/types.ts';
import { prepareCall } from '../../language/prepare-call.ts';

const people: CapabilitySrc = {
  capability: 'people.search',
  description: '',
  platform: 'people',
  fields: { q: 'str', full_name: 'str', first_name: 'str', last_name: 'str', email: 'str', domain: 'str' },
  identity: [['q']],
  output: { people: { type: 'list', required: true } },
  miss: 'output.people == []',
  filters: {
    limit: { type: 'int', default: 10, note: 'rows' },
    keywords: { type: 'list', default: null, note: 'skills' },
    country: { type: 'str', default: null, note: 'iso' },
  },
  derive: {
    first_name: { rule: 'first_name', from: ['full_name'] },
    last_name: { rule: 'last_name', from: ['full_name'] },
    full_name: { rule: 'join_name', from: ['first_name', 'last_name'] },
    domain: { rule: 'email_domain', from: ['email'] },
  },
};

describe('prepareCall', () => {
  it('derives missing identity forms and fills filter defaults', () => {
    const p = prepareCall(people, { full_name: ' Jane  van Doe ', email: 'x@Acme.COM' });
    expect(p.fields).toMatchObject({ full_name: 'Jane  van Doe', first_name: 'Jane', last_name: 'van Doe', domain: 'acme.com', limit: 10 });
    expect(p.limit).toBe(10);
    expect(p.sentFilters).toEqual([]);
  });

  it('counts as sent only filters with a value: not empty strings, not empty lists', () => {
    expect(prepareCall(people, { q: 'x', keywords: [], country: '', limit: 3 }).sentFilters).toEqual(['limit']);
    expect(prepareCall(people, { q: 'x', keywords: ['go'] }).sentFilters).toEqual(['keywords']);
  });

  it('does not overwrite what the caller sent with a derived form', () => {
    expect(prepareCall(people, { full_name: 'Jane Doe', first_name: 'J' }).fields.first_name).toBe('J');
  });
});
