/**
 * npm run bench:download — downloads a 1 GiB sandbox file in-process (files.download) and with a
 * direct got stream of the same URL, interleaved. The Drive sandbox runs in a child process so this
 * process's RSS is the downloader's alone. Prints throughput of both and, last,
 * `throughput_ratio=<runtime / direct> rss_growth_mb=<peak RSS growth during the runtime download>`.
 * Targets: ratio at least 0.8, RSS growth under 64 MB.
 */
import { performance } from 'node:perf_hooks';
import got from 'got';
import { createRuntime } from '../index.ts';
import { quantile, startChild, stopChildren } from './bench-support.ts';

const SIZE = Number(process.env.BENCH_DOWNLOAD_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const token = 'bench-drive-token';

const sandbox = await startChild(['scripts/sandbox.ts', 'file-storage', '--token', token, '--set', `largeFileBytes=${SIZE}`], {}, /listening: (\S+)/);
const baseUrl = sandbox.match[1]!;

try {
  const runtime = await createRuntime();
  const drive = runtime.connector('file-storage', { credentials: { access_token: token }, base_url: baseUrl });
  const list = await drive.files.list({ q: "name = 'large.bin'", fields: 'files(id,size)' });
  const fileId = list.result[0]!.id;

  const viaRuntime = async () => {
    const download = await drive.files.download({ fileId, alt: 'media' });
    let bytes = 0;
    for await (const chunk of download.body) bytes += chunk.byteLength;
    return bytes;
  };
  const viaGot = async () => {
    let bytes = 0;
    const stream = got.stream(`${baseUrl}/drive/v3/files/${fileId}`, { searchParams: { alt: 'media' }, headers: { authorization: `Bearer ${token}` } });
    for await (const chunk of stream) bytes += (chunk as Buffer).byteLength;
    return bytes;
  };

  const throughput = { runtime: [] as number[], direct: [] as number[] };
  const rssGrowth = { runtime: 0, direct: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const which of round % 2 === 0 ? (['runtime', 'direct'] as const) : (['direct', 'runtime'] as const)) {
      // Run with --expose-gc (npm run bench:download does): growth is then measured from a collected heap.
      global.gc?.();
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
      const started = performance.now();
      const bytes = await (which === 'runtime' ? viaRuntime() : viaGot());
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (bytes !== SIZE) throw new Error(`${which} download returned ${bytes} bytes, expected ${SIZE}`);
      throughput[which].push(bytes / 1024 ** 2 / seconds);
      rssGrowth[which] = Math.max(rssGrowth[which], (peak - baseline) / 1024 ** 2);
    }
  }
  console.log(`download of ${(SIZE / 1024 ** 2).toFixed(0)} MiB, ${ROUNDS} interleaved rounds each`);
  console.log(`runtime_throughput_mib_s=${quantile(throughput.runtime, 0.5).toFixed(1)} (runs: ${throughput.runtime.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`direct_throughput_mib_s=${quantile(throughput.direct, 0.5).toFixed(1)} (runs: ${throughput.direct.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`direct_rss_growth_mb=${rssGrowth.direct.toFixed(1)} (for comparison)`);
  console.log(
    `throughput_ratio=${(quantile(throughput.runtime, 0.5) / quantile(throughput.direct, 0.5)).toFixed(3)} rss_growth_mb=${rssGrowth.runtime.toFixed(1)}`,
  );
} finally {
  stopChildren();
}
