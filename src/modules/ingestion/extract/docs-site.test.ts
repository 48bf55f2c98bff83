import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePage } from './parse-page.js';

const site = resolve(import.meta.dirname, '../../../../../shared/eval/python-docs-site');
const present = existsSync(site);
if (!present) console.warn(`skipping real-page extraction tests: ${site} is missing`);

const load = (path: string) => parsePage(readFileSync(resolve(site, path), 'utf8'), `https://docs.python.org/3.6/${path}`);

describe.skipIf(!present)('parsePage on the Python docs site (Sphinx)', () => {
  it('tutorial/modules.html: headings, prose and code kept; navigation and footer gone', () => {
    const page = load('tutorial/modules.html');
    expect(page.title).toBe('6. Modules — Python 3.6.0a3 documentation');
    expect(page.markdown).toMatch(/^# 6\. Modules$/m);
    expect(page.markdown).toMatch(/^### 6\.4\.1\. Importing \* From a Package$/m);
    expect(page.markdown).toContain('A module is a file containing Python definitions and statements.');
    expect(page.markdown).toContain('```python3\n>>> import fibo\n```');
    for (const chrome of ['Quick search', 'Table Of Contents', 'Previous topic', 'Show Source', 'Copyright', '¶']) {
      expect(page.markdown).not.toContain(chrome);
    }
    expect(page.links).toContain('https://docs.python.org/3.6/tutorial/inputoutput.html');
    expect(page.links).toContain('https://docs.python.org/3.6/library/sys.html'); // from the body
    expect(page.links).toContain('https://docs.python.org/3.6/genindex.html'); // from the nav bar
  });

  it('library/functions.html: API definitions and their descriptions', () => {
    const page = load('library/functions.html');
    expect(page.markdown).toMatch(/^# 2\. Built-in Functions$/m);
    expect(page.markdown).toMatch(/\*\*`?abs`?\(\*?x\*?\)/);
    expect(page.markdown).toContain('Return the absolute value of a number.');
    expect(page.markdown).not.toContain('Quick search');
  });
});
