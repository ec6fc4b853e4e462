import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { PublicJobProgress } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';

type Sample = PublicJobProgress['samples'][number];

const HEIGHT = 220;

/** Records/s and bytes/s over the run, drawn by uPlot on a canvas; the same samples as a table for screen readers. */
export function ThroughputChart({ samples }: { samples: Sample[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot>();
  const start = samples[0] ? Date.parse(samples[0].at) : 0;
  const data: uPlot.AlignedData = [
    samples.map((sample) => (Date.parse(sample.at) - start) / 1000),
    samples.map((sample) => sample.recordsPerSecond),
    samples.map((sample) => sample.bytesPerSecond),
  ];

  useEffect(() => {
    const element = box.current!;
    const options: uPlot.Options = {
      width: element.clientWidth || 320,
      height: HEIGHT,
      scales: { x: { time: false } },
      axes: [{ label: 'seconds' }, { label: 'records/s', scale: 'records' }, { label: 'bytes/s', scale: 'bytes', side: 1, size: 80, grid: { show: false } }],
      series: [
        { label: 'seconds' },
        { label: 'records/s', scale: 'records', stroke: '#0b57d0', width: 2, points: { show: true } },
        { label: 'bytes/s', scale: 'bytes', stroke: '#b3261e', width: 2, points: { show: true } },
      ],
    };
    chart.current = new uPlot(options, data, element);
    // The chart follows its box: a phone's width, a wide screen, a rotated tablet.
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.current?.destroy();
    };
  }, []);

  useEffect(() => chart.current?.setData(data), [samples]);

  return html`<figure class="chart" aria-labelledby="throughput-caption">
    <figcaption id="throughput-caption">Throughput over the run</figcaption>
    <div ref=${box} class="chart-box" data-points=${samples.length} aria-hidden="true"></div>
    <details>
      <summary>Samples as a table</summary>
      <div class="table-wrap"><table>
        <thead><tr><th scope="col">Seconds</th><th scope="col">Records</th><th scope="col">Records/s</th><th scope="col">Bytes/s</th></tr></thead>
        <tbody>
          ${samples.map(
            (sample, index) =>
              html`<tr key=${sample.at}><td>${data[0][index]!.toFixed(1)}</td><td>${sample.records}</td><td>${Math.round(sample.recordsPerSecond)}</td><td>${Math.round(sample.bytesPerSecond)}</td></tr>`,
          )}
        </tbody>
      </table></div>
    </details>
  </figure>`;
}
