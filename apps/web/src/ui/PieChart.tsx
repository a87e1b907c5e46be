import { type KeyboardEvent, useId } from 'react';

export interface PieChartDatum {
  key: string;
  label: string;
  /** A CSS colour (SVG cannot use Bootstrap classes). */
  colour: string;
  count: number;
}

export interface PieChartProps {
  title: string;
  data: readonly PieChartDatum[];
  /** The slice the table is filtered on; the others are drawn faded. */
  activeKey?: string;
  /** Makes slices and legend entries buttons. */
  onSelect?: (key: string) => void;
  /** Said in place of the slices when every count is zero. */
  emptyText?: string;
  /** Diameter in pixels. */
  size?: number;
  'data-testid'?: string;
}

const EMPTY_RING = '#dee2e6';

/** 'Label: n', the accessible name and tooltip of a slice. */
export const sliceLabel = (datum: Pick<PieChartDatum, 'label' | 'count'>) => `${datum.label}: ${datum.count}`;

function point(cx: number, cy: number, r: number, angle: number): [number, number] {
  return [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
}

const fixed = (n: number) => Number(n.toFixed(3));

/**
 * The SVG path of one slice from `start` to `end` (fractions of the whole, 0 at twelve o'clock,
 * clockwise). A slice of the whole circle is two half arcs, since one arc cannot end where it starts.
 */
export function slicePath(cx: number, cy: number, r: number, start: number, end: number): string {
  if (end - start >= 1 - 1e-9) {
    return `M ${fixed(cx)} ${fixed(cy - r)} A ${r} ${r} 0 1 1 ${fixed(cx)} ${fixed(cy + r)} A ${r} ${r} 0 1 1 ${fixed(cx)} ${fixed(cy - r)} Z`;
  }
  const a0 = start * 2 * Math.PI - Math.PI / 2;
  const a1 = end * 2 * Math.PI - Math.PI / 2;
  const [x0, y0] = point(cx, cy, r, a0);
  const [x1, y1] = point(cx, cy, r, a1);
  const largeArc = end - start > 0.5 ? 1 : 0;
  return `M ${fixed(cx)} ${fixed(cy)} L ${fixed(x0)} ${fixed(y0)} A ${r} ${r} 0 ${largeArc} 1 ${fixed(x1)} ${fixed(y1)} Z`;
}

function activateOnKey(event: KeyboardEvent, action: () => void) {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    action();
  }
}

/**
 * A small pie chart drawn as SVG (no chart library, to keep the bundle small). Every slice with a
 * count is a path named 'Label: n'; with `onSelect` the slices are keyboard-reachable buttons, and so
 * are the legend entries, which also list the statuses that have no rows (a slice of zero cannot be
 * drawn or clicked). A chart whose counts are all zero shows an empty ring.
 */
export function PieChart({
  title,
  data,
  activeKey,
  onSelect,
  emptyText = 'No data',
  size = 140,
  'data-testid': testId,
}: PieChartProps) {
  const titleId = useId();
  const total = data.reduce((sum, d) => sum + Math.max(0, d.count), 0);
  const r = size / 2 - 4;
  const c = size / 2;

  let cursor = 0;
  const slices = data
    .filter((d) => d.count > 0)
    .map((d) => {
      const start = cursor / total;
      cursor += d.count;
      return { datum: d, d: slicePath(c, c, r, start, cursor / total) };
    });

  const faded = (key: string) => activeKey !== undefined && activeKey !== key;

  return (
    <figure className="pie-chart mb-0" aria-labelledby={titleId} data-testid={testId}>
      <figcaption id={titleId} className="fw-semibold small mb-2">
        {title}
      </figcaption>
      <div className="d-flex flex-wrap align-items-center gap-3">
        {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> cannot hold SVG; the chart is a named group of slices */}
        <svg
          width={size}
          height={size}
          viewBox={`0 0 ${size} ${size}`}
          role="group"
          aria-label={total === 0 ? `${title}: ${emptyText}` : title}
          className="flex-shrink-0"
        >
          {total === 0 ? (
            <circle cx={c} cy={c} r={r - 8} fill="none" stroke={EMPTY_RING} strokeWidth={16} data-empty-ring="true">
              <title>{emptyText}</title>
            </circle>
          ) : (
            slices.map(({ datum, d }) => {
              const slice = {
                d,
                fill: datum.colour,
                stroke: '#fff',
                strokeWidth: 1.5,
                'aria-label': sliceLabel(datum),
                'data-key': datum.key,
              };
              return onSelect ? (
                // biome-ignore lint/a11y/useSemanticElements: an SVG slice cannot be a <button>; it takes the role instead
                <path
                  key={datum.key}
                  {...slice}
                  opacity={faded(datum.key) ? 0.35 : 1}
                  className="pie-slice"
                  role="button"
                  tabIndex={0}
                  aria-pressed={activeKey === datum.key}
                  onClick={() => onSelect(datum.key)}
                  onKeyDown={(event) => activateOnKey(event, () => onSelect(datum.key))}
                >
                  <title>{sliceLabel(datum)}</title>
                </path>
              ) : (
                <path key={datum.key} {...slice}>
                  <title>{sliceLabel(datum)}</title>
                </path>
              );
            })
          )}
        </svg>
        <ul className="list-unstyled small mb-0 pie-legend" aria-label={`${title} legend`}>
          {data.map((datum) => {
            const content = (
              <>
                <span className="pie-swatch" style={{ background: datum.colour }} aria-hidden="true" />
                <span>{datum.label}</span> <span className="text-muted">{datum.count}</span>
              </>
            );
            return (
              <li key={datum.key} className={faded(datum.key) ? 'opacity-50' : undefined}>
                {onSelect ? (
                  <button
                    type="button"
                    className={`btn btn-link btn-sm p-0 text-reset text-decoration-none d-inline-flex align-items-center gap-1${activeKey === datum.key ? ' fw-bold' : ''}`}
                    aria-pressed={activeKey === datum.key}
                    onClick={() => onSelect(datum.key)}
                  >
                    {content}
                  </button>
                ) : (
                  <span className="d-inline-flex align-items-center gap-1">{content}</span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </figure>
  );
}
