// The metrics registry's text exposition format 0.0.4, byte for byte: HELP and TYPE lines, label
// escaping, counters, gauges, histograms (cumulative buckets, +Inf, _sum, _count), series order.
import { describe, expect, it } from 'vitest';
import { MetricsRegistry, escapeLabelValue, sampleText } from '../../ts/core/metrics.js';

describe('metrics registry', () => {
  it('renders counters and gauges with HELP and TYPE, unlabelled series at 0 from the start', () => {
    const r = new MetricsRegistry();
    const c = r.counter('wartnode_blocks_total', 'Blocks seen.');
    const g = r.gauge('wartnode_height', 'Height.');
    r.gauge('wartnode_idle', 'Never set.');
    c.inc();
    c.inc({}, 2);
    g.set(42);
    expect(r.render()).toBe(
      [
        '# HELP wartnode_blocks_total Blocks seen.',
        '# TYPE wartnode_blocks_total counter',
        'wartnode_blocks_total 3',
        '# HELP wartnode_height Height.',
        '# TYPE wartnode_height gauge',
        'wartnode_height 42',
        '# HELP wartnode_idle Never set.',
        '# TYPE wartnode_idle gauge',
        'wartnode_idle 0',
        '',
      ].join('\n'),
    );
  });

  it('writes labels in declared order, series in order of first use, and escapes values and help', () => {
    const r = new MetricsRegistry();
    const g = r.gauge('wartnode_peers', 'Peers with a \\ backslash\nand a line feed.', ['direction', 'generation']);
    g.inc({ generation: '0.10', direction: 'outbound' });
    g.set(2, { direction: 'inbound', generation: 'a"b\\c\nd' });
    g.inc({ direction: 'outbound', generation: '0.10' });
    expect(r.render()).toBe(
      [
        '# HELP wartnode_peers Peers with a \\\\ backslash\\nand a line feed.',
        '# TYPE wartnode_peers gauge',
        'wartnode_peers{direction="outbound",generation="0.10"} 2',
        'wartnode_peers{direction="inbound",generation="a\\"b\\\\c\\nd"} 2',
        '',
      ].join('\n'),
    );
    expect(escapeLabelValue('x"\\\n')).toBe('x\\"\\\\\\n');
  });

  it('renders a histogram: cumulative buckets, +Inf, _sum and _count, labels before le', () => {
    const r = new MetricsRegistry();
    const h = r.histogram('wartnode_apply_seconds', 'Apply time.', [0.25, 1, 2.5]);
    const l = r.histogram('wartnode_http_seconds', 'HTTP.', [0.5], ['group', 'status']);
    for (const v of [0.125, 0.25, 0.75, 3, 100]) h.observe(v);
    l.observe(0.5, { group: 'chain', status: '2xx' });
    l.observe(0.75, { group: 'chain', status: '2xx' });
    expect(h.count()).toBe(5);
    expect(r.render()).toBe(
      [
        '# HELP wartnode_apply_seconds Apply time.',
        '# TYPE wartnode_apply_seconds histogram',
        'wartnode_apply_seconds_bucket{le="0.25"} 2',
        'wartnode_apply_seconds_bucket{le="1"} 3',
        'wartnode_apply_seconds_bucket{le="2.5"} 3',
        'wartnode_apply_seconds_bucket{le="+Inf"} 5',
        'wartnode_apply_seconds_sum 104.125',
        'wartnode_apply_seconds_count 5',
        '# HELP wartnode_http_seconds HTTP.',
        '# TYPE wartnode_http_seconds histogram',
        'wartnode_http_seconds_bucket{group="chain",status="2xx",le="0.5"} 1',
        'wartnode_http_seconds_bucket{group="chain",status="2xx",le="+Inf"} 2',
        'wartnode_http_seconds_sum{group="chain",status="2xx"} 1.25',
        'wartnode_http_seconds_count{group="chain",status="2xx"} 2',
        '',
      ].join('\n'),
    );
  });

  it('an unlabelled histogram starts with every bucket at 0; a reset gauge has no sample until set', () => {
    const r = new MetricsRegistry();
    r.histogram('wartnode_depth_blocks', 'Depth.', [1, 10]);
    const g = r.gauge('wartnode_fds', 'FDs.');
    g.reset();
    expect(r.render()).toBe(
      [
        '# HELP wartnode_depth_blocks Depth.',
        '# TYPE wartnode_depth_blocks histogram',
        'wartnode_depth_blocks_bucket{le="1"} 0',
        'wartnode_depth_blocks_bucket{le="10"} 0',
        'wartnode_depth_blocks_bucket{le="+Inf"} 0',
        'wartnode_depth_blocks_sum 0',
        'wartnode_depth_blocks_count 0',
        '# HELP wartnode_fds FDs.',
        '# TYPE wartnode_fds gauge',
        '',
      ].join('\n'),
    );
    g.set(7);
    expect(r.render()).toContain('\nwartnode_fds 7\n');
  });

  it('writes special values as Prometheus does', () => {
    expect([Infinity, -Infinity, NaN, 0, -1.5, 1e-7, 1.2345e25].map(sampleText)).toEqual(['+Inf', '-Inf', 'NaN', '0', '-1.5', '1e-7', '1.2345e+25']);
  });

  it('refuses bad names, wrong labels, counters without _total and going down', () => {
    const r = new MetricsRegistry();
    expect(() => r.gauge('1bad', 'x')).toThrow();
    expect(() => r.gauge('ok', 'x', ['__reserved'])).toThrow();
    expect(() => r.counter('wartnode_blocks', 'x')).toThrow(/_total/);
    expect(() => r.histogram('h', 'x', [1, 1])).toThrow();
    expect(() => r.histogram('h2', 'x', [1], ['le'])).toThrow();
    const g = r.gauge('wartnode_g', 'x', ['a']);
    expect(() => g.set(1, {})).toThrow();
    expect(() => g.set(1, { a: '1', b: '2' })).toThrow();
    expect(() => r.gauge('wartnode_g', 'again')).toThrow(/twice/);
    const c = r.counter('wartnode_c_total', 'x');
    expect(() => c.inc({}, -1)).toThrow();
    // Reading a series creates none.
    expect(g.get({ a: 'x' })).toBe(0);
    expect(r.render()).not.toContain('wartnode_g{');
  });
});
