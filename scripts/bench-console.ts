/** Prints what the console's first page load weighs: each file raw and gzipped, and the gzip total (the budget is 150 KB). */
import { consoleFirstLoadSize } from '../server/console/first-load-size.ts';

const { files, gzip } = consoleFirstLoadSize();
for (const file of files) console.log(`${file.name}: ${file.bytes} bytes, ${file.gzip} gzip`);
console.log(`console_first_load_gzip_bytes=${gzip} (${(gzip / 1024).toFixed(1)} KB of a 150 KB budget)`);
