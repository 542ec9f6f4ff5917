// A small metrics registry (counters, gauges, histograms with fixed buckets) and its rendering in
// the Prometheus text exposition format 0.0.4 (`GET /metrics`, api/metrics.ts). Pure: no clock,
// no I/O; whoever feeds it measures. Metrics are rendered in the order they were registered, the
// series of one metric in the order they first appeared.

/** The media type of the text exposition format 0.0.4. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Readonly<Record<string, string>>;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A sample value as Prometheus writes it: `+Inf`, `-Inf`, `NaN`, else the shortest decimal (`1e-7` is read as well). */
export function sampleText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** A label value inside its double quotes: backslash, double quote and line feed escaped. */
export const escapeLabelValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** HELP text: backslash and line feed escaped. */
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return '';
  return `{${names.map((n, i) => `${n}="${escapeLabelValue(values[i])}"`).join(',')}}`;
}

abstract class Metric<S> {
  /** Series by their label values (joined with \u0000), in the order they first appeared. */
  protected readonly series = new Map<string, { values: string[]; state: S }>();
  private wasReset = false;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    if (!METRIC_NAME.test(name)) throw new Error(`bad metric name ${name}`);
    for (const l of labelNames) if (!LABEL_NAME.test(l) || l.startsWith('__')) throw new Error(`bad label name ${l} of ${name}`);
    if (new Set(labelNames).size !== labelNames.length) throw new Error(`repeated label name of ${name}`);
  }

  abstract readonly type: 'counter' | 'gauge' | 'histogram';
  protected abstract fresh(): S;
  protected abstract lines(labels: (extra?: [string, string]) => string, state: S): string[];

  /** The label values of `labels`, which must name exactly the metric's labels. */
  private valuesOf(labels: Labels): string[] {
    const keys = Object.keys(labels);
    if (keys.length !== this.labelNames.length || this.labelNames.some((n) => typeof labels[n] !== 'string'))
      throw new Error(`${this.name} takes labels ${this.labelNames.join(', ') || '(none)'}, not ${keys.join(', ') || '(none)'}`);
    return this.labelNames.map((n) => labels[n]);
  }

  /** The series of `labels`, created on first use. */
  protected stateOf(labels: Labels): S {
    const values = this.valuesOf(labels);
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { values, state: this.fresh() }));
    return s.state;
  }

  /** The series of `labels` if it exists (reading creates none). */
  protected find(labels: Labels): S | undefined {
    return this.series.get(this.valuesOf(labels).join('\u0000'))?.state;
  }

  /**
   * Forgets every series: a gauge whose label sets are taken afresh at each scrape, or one without
   * labels that has no value now (rendered without a sample until it is set again).
   */
  reset(): void {
    this.series.clear();
    this.wasReset = true;
  }

  render(): string {
    // A metric without labels has its one series from the start (0 until it moves).
    if (this.labelNames.length === 0 && !this.wasReset) this.stateOf({});
    const out = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    for (const { values, state } of this.series.values()) {
      const labels = (extra?: [string, string]) =>
        extra ? labelText([...this.labelNames, extra[0]], [...values, extra[1]]) : labelText(this.labelNames, values);
      out.push(...this.lines(labels, state));
    }
    return out.join('\n') + '\n';
  }
}

/** A total that only grows (its name ends in `_total`). */
export class Counter extends Metric<{ v: number }> {
  readonly type = 'counter';

  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    if (!name.endsWith('_total')) throw new Error(`counter ${name} must end in _total`);
    super(name, help, labelNames);
  }

  protected fresh() {
    return { v: 0 };
  }

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name} cannot grow by ${by}`);
    this.stateOf(labels).v += by;
  }

  /** Sets the total from a count kept elsewhere (read when the metrics are rendered). */
  set(value: number, labels: Labels = {}): void {
    this.stateOf(labels).v = value;
  }

  get(labels: Labels = {}): number {
    return this.find(labels)?.v ?? 0;
  }

  protected lines(labels: () => string, s: { v: number }): string[] {
    return [`${this.name}${labels()} ${sampleText(s.v)}`];
  }
}

/** A value that goes up and down. */
export class Gauge extends Metric<{ v: number }> {
  readonly type = 'gauge';

  protected fresh() {
    return { v: 0 };
  }

  set(value: number, labels: Labels = {}): void {
    this.stateOf(labels).v = value;
  }

  inc(labels: Labels = {}, by = 1): void {
    this.stateOf(labels).v += by;
  }

  get(labels: Labels = {}): number {
    return this.find(labels)?.v ?? 0;
  }

  protected lines(labels: () => string, s: { v: number }): string[] {
    return [`${this.name}${labels()} ${sampleText(s.v)}`];
  }
}

interface HistogramState {
  /** Observations ≤ each bound (not cumulative; summed when rendered). */
  counts: number[];
  sum: number;
  count: number;
}

/** Observations counted into fixed buckets (upper bounds, ascending; `+Inf` is implied), with their sum and count. */
export class Histogram extends Metric<HistogramState> {
  readonly type = 'histogram';
  readonly buckets: readonly number[];

  constructor(name: string, help: string, buckets: readonly number[], labelNames: readonly string[] = []) {
    if (labelNames.includes('le')) throw new Error(`histogram ${name} cannot have a label le`);
    if (buckets.length === 0 || buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1])))
      throw new Error(`histogram ${name}: buckets must be finite and ascending`);
    super(name, help, labelNames);
    this.buckets = [...buckets];
  }

  protected fresh(): HistogramState {
    return { counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 };
  }

  observe(value: number, labels: Labels = {}): void {
    const s = this.stateOf(labels);
    const i = this.buckets.findIndex((b) => value <= b);
    if (i >= 0) s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  /** The number of observations of a series. */
  count(labels: Labels = {}): number {
    return this.find(labels)?.count ?? 0;
  }

  protected lines(labels: (extra?: [string, string]) => string, s: HistogramState): string[] {
    const out: string[] = [];
    let cumulative = 0;
    this.buckets.forEach((b, i) => {
      cumulative += s.counts[i];
      out.push(`${this.name}_bucket${labels(['le', sampleText(b)])} ${cumulative}`);
    });
    out.push(`${this.name}_bucket${labels(['le', '+Inf'])} ${s.count}`);
    out.push(`${this.name}_sum${labels()} ${sampleText(s.sum)}`);
    out.push(`${this.name}_count${labels()} ${s.count}`);
    return out;
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric<unknown>>();

  private add<M extends Metric<any>>(m: M): M {
    if (this.metrics.has(m.name)) throw new Error(`metric ${m.name} registered twice`);
    this.metrics.set(m.name, m);
    return m;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames));
  }

  histogram(name: string, help: string, buckets: readonly number[], labelNames: readonly string[] = []): Histogram {
    return this.add(new Histogram(name, help, buckets, labelNames));
  }

  /** Every metric in the text exposition format 0.0.4 (HELP and TYPE lines, then its samples). */
  render(): string {
    return [...this.metrics.values()].map((m) => m.render()).join('');
  }
}
