// Reading a provider's answer into the contract: paths, value tables, list items, filters, and the
// contract's miss condition.
import { describe, expect, it } from 'vitest';
import type { CapabilitySrc } from '../../language/types.ts';
import { countRows, isContractMiss, mapOutput } from '../../language/map-response.ts';

const serp: CapabilitySrc = {
  capability: 'google.serp.organic',
  description: '',
  platform: 'search',
  fields: { q: 'str' },
  identity: [['q']],
  output: { results: { type: 'list', required: true }, total_results: { type: 'int' } },
  miss: 'output.results == []',
};
const detail: CapabilitySrc = { ...serp, output: { post: { type: 'object', required: true }, text: { type: 'str' } }, miss: 'output.post == null' };
const verify: CapabilitySrc = { ...serp, output: { status: { type: 'str', required: true } }, miss: 'output.status == null' };

describe('mapOutput', () => {
  it('maps list items, keeps only items matching `where`, and fills unmapped fields with null or []', () => {
    const raw = {
      items: [
        { type: 'organic', rank_absolute: 1, url: 'https://a', title: 'A' },
        { type: 'ads', rank_absolute: 2, url: 'https://b', title: 'B' },
      ],
    };
    const out = mapOutput(
      serp,
      {
        output: {
          results: { path: 'items', where: { type: 'organic' }, items: { position: 'rank_absolute', url: 'url', title: 'title', snippet: 'description' } },
        },
      },
      raw,
    );
    expect(out).toEqual({ results: [{ position: 1, url: 'https://a', title: 'A', snippet: null }], total_results: null });
  });

  it('translates values through the table; unlisted values become null', () => {
    const spec = { output: { status: { path: 'result', values: { valid: 'deliverable', invalid: 'undeliverable', unknown: null } } } };
    expect(mapOutput(verify, spec, { result: 'valid' }).status).toBe('deliverable');
    expect(mapOutput(verify, spec, { result: 'unknown' }).status).toBeNull();
    expect(mapOutput(verify, spec, { result: 'spamtrap' }).status).toBeNull();
    expect(mapOutput(verify, { output: { status: { path: 'ok', values: { true: 'valid', false: 'invalid' } } } }, { ok: false }).status).toBe('invalid');
  });

  it('applies named transforms', () => {
    expect(mapOutput(serp, { output: { results: 'r', total_results: { path: 'n', transform: 'int' } } }, { r: [1], n: '2480000000' }).total_results).toBe(
      2480000000,
    );
  });
});

describe('isContractMiss', () => {
  it('an empty list or a null, empty-string or empty-object field is a miss', () => {
    expect(isContractMiss(serp, { results: [] })).toBe(true);
    expect(isContractMiss(serp, { results: [{ title: 'A' }] })).toBe(false);
    expect(isContractMiss(detail, { post: null })).toBe(true);
    expect(isContractMiss(detail, { post: {} })).toBe(true);
    expect(isContractMiss(detail, { post: { urn: 'x' } })).toBe(false);
    expect(isContractMiss(verify, { status: '' })).toBe(true);
  });
});

describe('countRows', () => {
  it('counts the declared rows list, else the first list field', () => {
    expect(countRows(serp, { output: { results: 'data' }, rows: 'data' }, { data: [1, 2, 3] }, { results: [1, 2, 3] })).toBe(3);
    expect(countRows(serp, { output: { results: 'data' } }, {}, { results: [1, 2] })).toBe(2);
  });
});
