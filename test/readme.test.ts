import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { render } from '../scripts/docs.js';

describe('README', () => {
  it('documents every setting and every error code as the code defines them (run `npm run docs` to update)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('<!-- settings:start -->');
    expect(readme).toContain('<!-- errors:start -->');
    expect(render(readme)).toBe(readme);
  });

  it('gives a newcomer the install, start and test commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const command of ['npm install', 'npm start', 'npm test']) expect(readme).toContain(command);
  });
});
