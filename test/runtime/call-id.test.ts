// Call ids and hold ids: each a random UUID's 32 hex digits, never repeated.
import { describe, expect, it } from 'vitest';
import { newCallId, randomHex } from '../../runtime/util/call-id.ts';

describe('call and hold ids', () => {
  it('are 32 hex digits each, all distinct', () => {
    const ids = Array.from({ length: 3_000 }, () => randomHex());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('name a call as call_ and 32 hex digits', () => {
    const ids = Array.from({ length: 600 }, () => newCallId());
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
