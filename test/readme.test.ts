// The README and docs/ stand alone in a clone: every link points inside the repository at a file
// that exists, and the README's first screen says how to start, test, and get a token.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/paths.ts';

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the docs stand alone', () => {
  it.each(pages)('%s links only to files of the repository', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const path = resolve(dirname(join(ROOT, page)), target.split('#')[0]);
      expect(relative(ROOT, path).startsWith('..'), `${page} links outside the repository: ${target}`).toBe(false);
      expect(existsSync(path), `${page} links to a missing file: ${target}`).toBe(true);
    }
    expect(text).not.toMatch(/\.\.\/shared\//);
  });

  it("the README's first screen: start, test, where a token comes from, and what routed calls need", () => {
    const first = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').slice(0, 24).join('\n');
    expect(first).toMatch(/npm start/);
    expect(first).toMatch(/npm test/);
    expect(first).toMatch(/npm run demo[\s\S]*prints[\s\S]*token/);
    expect(first).toMatch(/svc admin team create/);
    expect(first).toMatch(/SVC_KEY_/);
    expect(first).toMatch(/sandbox/);
  });
});
