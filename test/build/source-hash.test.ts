import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceHash } from '../../build/source-hash.ts';

describe('sourceHash', () => {
  it('depends on names and contents within its inputs, not on where they sit', () => {
    const a = mkdtempSync(join(tmpdir(), 'svc-hash-'));
    writeFileSync(join(a, 'one.yaml'), 'x: 1');
    writeFileSync(join(a, 'code.ts'), 'export {};');
    const b = mkdtempSync(join(tmpdir(), 'svc-hash-'));
    cpSync(a, b, { recursive: true });
    const of = (dir: string) => sourceHash([join(dir, 'one.yaml'), join(dir, 'code.ts')]);
    expect(of(b)).toBe(of(a)); // a moved checkout is not stale
    expect(sourceHash([a])).toBe(sourceHash([b]));
    writeFileSync(join(b, 'code.ts'), 'export const changed = 1;');
    expect(of(b)).not.toBe(of(a)); // a single-file input counts
    expect(sourceHash([b])).not.toBe(sourceHash([a]));
  });
});
