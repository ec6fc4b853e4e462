import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
const COLS = 28, N = 300_000, PER = 50;
const rows: (string|number|null)[][] = [];
for (let i = 0; i < N; i++) { const r: (string|number|null)[] = [`U${randomUUID().slice(0, 10).toUpperCase()}`]; for (let c = 1; c < COLS; c++) r.push(c % 3 === 0 ? i * c : c % 3 === 1 ? `{"title":"value-${i}-${c}","text":"lorem ipsum dolor sit amet ${i}"}` : (c % 2 ? 1 : null)); rows.push(r); }
function run(label: string, pragmas: string[], mode = 'upsert') {
  for (const f of ['/tmp/ins.db', '/tmp/ins.db-wal', '/tmp/ins.db-shm']) rmSync(f, { force: true });
  const db = new Database('/tmp/ins.db'); db.pragma('page_size = 16384'); db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
  for (const p of pragmas) db.pragma(p);
  db.exec(`CREATE TABLE t (${Array.from({ length: COLS }, (_, c) => `c${c}`).join(', ')}, PRIMARY KEY (c0))`);
  const one = `(${Array(COLS).fill('?').join(',')})`;
  const upd = ` ON CONFLICT (c0) DO UPDATE SET ${Array.from({ length: COLS - 1 }, (_, c) => `c${c + 1} = excluded.c${c + 1}`).join(', ')}`;
  const stmt = db.prepare(`INSERT${mode === 'replace' ? ' OR REPLACE' : ''} INTO t VALUES ${Array(PER).fill(one).join(',')}${mode === 'upsert' ? upd : ''}`);
  const t = performance.now(); const c0 = process.cpuUsage();
  for (let b = 0; b < N; b += 1000) {
    const batch = rows.slice(b, b + 1000);
    db.transaction(() => { for (let i = 0; i + PER <= batch.length; i += PER) stmt.run(...batch.slice(i, i + PER).flat()); })();
  }
  const s = (performance.now() - t) / 1000; const cpu = process.cpuUsage(c0);
  console.log(label.padEnd(30), Math.round(N / s), 'rows/s', ((cpu.user + cpu.system) / 1e6 / N * 1e6).toFixed(1), 'µs cpu/row');
  db.close();
}
for (let k = 0; k < 2; k++) {
  run('upsert', []);
  run('plain', [], 'plain');
  run('or replace', [], 'replace');
}
