import { type ChartAnswer, startPipeline } from '../src/pipeline';
import { type Benchmark, percentile, round } from './harness';

/** How long the agent's samples are followed (BENCH_PIPELINE_S overrides; default 120 s). */
const WINDOW_S = Number(process.env.BENCH_PIPELINE_S ?? 120);
const POLL_MS = 20;
/** The first seconds after start are not measured: series are created and code paths warm up. */
const WARMUP_S = 10;

/**
 * `pipeline.sample_to_chart`: a sample taken by the agent (a process sampling every second, on whole
 * seconds) is readable through the chart call of the api process after NATS JetStream, the
 * collector process and the SQLite store. For each second the agent sampled, the latency is the
 * time the chart call first answers a value for it minus that second: an upper bound, since the
 * agent takes the sample a few milliseconds after the second starts.
 */
export const benchmark: Benchmark = {
  figures: ['pipeline.sample_to_chart.p50', 'pipeline.sample_to_chart.p99'],
  async run() {
    const pipeline = await startPipeline({ agentIntervalS: 1 });
    const latencies: number[] = [];
    try {
      const seen = new Set<number>();
      const started = Date.now();
      // Seconds charted before the warm-up ended are not measured.
      const measureFrom = Math.ceil(started / 1000) + WARMUP_S;
      while (Date.now() - started < (WARMUP_S + WINDOW_S) * 1000) {
        const end = Math.ceil(Date.now() / 1000) + 1;
        const chart = await pipeline.call<ChartAnswer>('bot/get_server_service_graphic_data', {
          graph_id: 'cpu',
          server_id: pipeline.serverId,
          start: end - 10,
          end,
        });
        const now = Date.now();
        chart.x_values.forEach((x, i) => {
          if (seen.has(x) || !chart.y_axis.some((f) => chart.y_values[f]?.[i] != null)) return;
          seen.add(x);
          if (x >= measureFrom) latencies.push(now - x * 1000);
        });
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      await pipeline.stop();
    }
    if (latencies.length < WINDOW_S / 2) {
      throw new Error(`only ${latencies.length} samples reached the chart in ${WINDOW_S} s`);
    }
    latencies.sort((a, b) => a - b);
    return [
      { name: 'pipeline.sample_to_chart.p50', value: round(percentile(latencies, 50), 0), unit: 'ms' },
      { name: 'pipeline.sample_to_chart.p99', value: round(percentile(latencies, 99), 0), unit: 'ms' },
    ];
  },
};
