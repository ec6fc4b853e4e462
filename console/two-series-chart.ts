import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from './html.ts';

export interface Series {
  label: string;
  values: number[];
}

interface Props {
  /** Names the figure (and its ids). */
  id: string;
  caption: string;
  xLabel: string;
  x: number[];
  /** The first on the left axis, the second on the right: two units on one chart. */
  series: [Series, Series];
}

const HEIGHT = 220;
const COLOURS = ['#0b57d0', '#b3261e'];

/** Two series over one x axis, drawn by uPlot on a canvas; the same values as a table, since a canvas says nothing to a screen reader. */
export function TwoSeriesChart({ id, caption, xLabel, x, series }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot>();
  const data: uPlot.AlignedData = [x, series[0].values, series[1].values];

  useEffect(() => {
    const element = box.current!;
    const options: uPlot.Options = {
      width: element.clientWidth || 320,
      height: HEIGHT,
      scales: { x: { time: false } },
      axes: [
        { label: xLabel },
        { label: series[0].label, scale: 'left', size: 70 },
        { label: series[1].label, scale: 'right', side: 1, size: 80, grid: { show: false } },
      ],
      series: [
        { label: xLabel },
        ...series.map((one, index) => ({ label: one.label, scale: index === 0 ? 'left' : 'right', stroke: COLOURS[index], width: 2, points: { show: true } })),
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

  useEffect(() => chart.current?.setData(data), [x.length, x.at(-1), ...series.map((one) => one.values.at(-1))]);

  return html`<figure class="chart" id=${id} aria-labelledby=${`${id}-caption`}>
    <figcaption id=${`${id}-caption`}>${caption}</figcaption>
    <div ref=${box} class="chart-box" data-points=${x.length} aria-hidden="true"></div>
    <details>
      <summary>${caption}: the values as a table</summary>
      <div class="table-wrap"><table>
        <thead><tr><th scope="col">${xLabel}</th>${series.map((one) => html`<th scope="col">${one.label}</th>`)}</tr></thead>
        <tbody>
          ${x.map(
            (value, index) =>
              html`<tr key=${index}><td>${Number(value.toFixed(1))}</td>${series.map((one) => html`<td>${Math.round(one.values[index] ?? 0)}</td>`)}</tr>`,
          )}
        </tbody>
      </table></div>
    </details>
  </figure>`;
}
