import { useId } from 'react';

export interface BarChartDatum {
  key: string | number;
  value: number;
  /** The bar's tooltip and accessible name, e.g. 'Run of 3 Dec, 02:00: 4 s'. */
  label: string;
}

export interface BarChartProps {
  title: string;
  data: readonly BarChartDatum[];
  /** The largest value's text, written beside the chart's top ('4 min'). */
  maxText?: string;
  /** How many bars the width is divided for (default: as many as there are): a short series keeps thin bars. */
  slots?: number;
  width?: number;
  height?: number;
  'data-testid'?: string;
}

/**
 * A small bar chart drawn as SVG (no chart library, to keep the bundle small): one bar per value, scaled to the
 * largest, each named by its label (tooltip and accessible name). A value of zero still shows a sliver.
 */
export function BarChart({
  title,
  data,
  maxText,
  slots = data.length,
  width = 240,
  height = 64,
  'data-testid': testId,
}: BarChartProps) {
  const titleId = useId();
  const max = Math.max(0, ...data.map((d) => d.value));
  const slot = width / Math.max(1, slots, data.length);
  const gap = Math.min(2, slot / 4);
  return (
    <figure className="mb-0" aria-labelledby={titleId} data-testid={testId}>
      <figcaption id={titleId} className="fw-semibold small mb-1">
        {title}
        {maxText && <span className="text-muted fw-normal"> (max {maxText})</span>}
      </figcaption>
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> cannot hold SVG; the chart is a named group of bars */}
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="group" aria-label={title}>
        <line x1={0} y1={height - 0.5} x2={width} y2={height - 0.5} stroke="#6c757d" strokeWidth={1} />
        {data.map((datum, index) => {
          const barHeight = max > 0 ? Math.max(1, (datum.value / max) * (height - 2)) : 1;
          return (
            <rect
              key={datum.key}
              x={index * slot + gap / 2}
              y={height - 1 - barHeight}
              width={Math.max(1, slot - gap)}
              height={barHeight}
              fill="#0d6efd"
              data-testid="bar"
            >
              <title>{datum.label}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}
