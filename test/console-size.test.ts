import { describe, expect, it } from 'vitest';
import { consoleFirstLoadSize } from '../server/console/first-load-size.ts';

/** The console's budget: everything its first page load fetches under 150 KB gzipped (npm run bench:console prints it). */
describe('console first load', () => {
  it('stays under 150 KB gzipped', () => {
    const { gzip, files } = consoleFirstLoadSize();
    console.log(`console first load: ${(gzip / 1024).toFixed(1)} KB gzip (${files.map((file) => `${file.name} ${file.gzip}`).join(', ')})`);
    expect(files.length).toBe(3);
    expect(gzip).toBeLessThan(150 * 1024);
  });
});
