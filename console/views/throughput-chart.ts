import type { PublicJobProgress } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { TwoSeriesChart } from '../two-series-chart.ts';

type Sample = PublicJobProgress['samples'][number];

/** Records/s and bytes/s over a run, from its progress samples. */
export function ThroughputChart({ samples }: { samples: Sample[] }) {
  const start = samples[0] ? Date.parse(samples[0].at) : 0;
  return html`<${TwoSeriesChart}
    id="throughput"
    caption="Throughput over the run"
    xLabel="seconds"
    x=${samples.map((sample) => (Date.parse(sample.at) - start) / 1000)}
    series=${[
      { label: 'records/s', values: samples.map((sample) => sample.recordsPerSecond) },
      { label: 'bytes/s', values: samples.map((sample) => sample.bytesPerSecond) },
    ]}
  />`;
}
