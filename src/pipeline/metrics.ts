/**
 * The worker's Prometheus metrics, on a registry of its own (one per worker, so tests can run
 * several in one process).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Committed } from './micro-batch.js';

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

export function createWorkerMetrics(registry: Registry = new Registry()) {
  collectDefaultMetrics({ register: registry, prefix: 'txenrich_' });
  return {
    registry,
    recordsIn: new Counter({
      name: 'txenrich_records_in_total',
      help: 'Transactions read from raw topics (envelope items counted one by one).',
      labelNames: ['topic'],
      registers: [registry],
    }),
    recordsOut: new Counter({
      name: 'txenrich_records_out_total',
      help: 'Enriched records committed to the output topic.',
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'txenrich_records_dead_lettered_total',
      help: 'Records committed to the dead-letter topic, by error code.',
      labelNames: ['code'],
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'txenrich_batch_size',
      help: 'Messages per micro-batch (one Kafka transaction).',
      buckets: [1, 10, 50, 100, 250, 500, 1000, 2000, 5000],
      registers: [registry],
    }),
    batchDuration: new Histogram({
      name: 'txenrich_batch_duration_seconds',
      help: 'Time from the start of decoding to the transaction commit.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    endToEndLatency: new Histogram({
      name: 'txenrich_end_to_end_latency_seconds',
      help: 'From the input record timestamp to the commit of its enriched record.',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    consumerLag: new Gauge({
      name: 'txenrich_consumer_lag',
      help: 'High watermark minus the next offset to process, per input partition.',
      labelNames: ['topic', 'partition'],
      registers: [registry],
    }),
    commits: new Counter({
      name: 'txenrich_transactions_committed_total',
      help: 'Kafka transactions committed.',
      registers: [registry],
    }),
    aborts: new Counter({
      name: 'txenrich_transactions_aborted_total',
      help: 'Kafka transactions aborted (and retried, or left to a new owner).',
      registers: [registry],
    }),
    retries: new Counter({
      name: 'txenrich_infrastructure_retries_total',
      help: 'Retries after an infrastructure failure, by error code.',
      labelNames: ['code'],
      registers: [registry],
    }),
    dlqGuardTripped: new Gauge({
      name: 'txenrich_dlq_guard_tripped',
      help: '1 while the dead-letter guard has paused consumption.',
      registers: [registry],
    }),
    inFlightBytes: new Gauge({
      name: 'txenrich_in_flight_bytes',
      help: 'Bytes of input messages being processed.',
      registers: [registry],
    }),
    secondsSinceProgress: new Gauge({
      name: 'txenrich_seconds_since_progress',
      help: 'Seconds since the last commit while records wait on an assigned input partition (0 when caught up).',
      registers: [registry],
    }),
    retryingSince: new Gauge({
      name: 'txenrich_retrying_since_seconds',
      help: 'Seconds each retry loop (a partition, the feedback consumer, the outbox relay) has been failing; absent when none is.',
      labelNames: ['loop'],
      registers: [registry],
    }),
    isolated: new Counter({
      name: 'txenrich_records_isolated_total',
      help: 'Records dead-lettered alone because a dependency refused them or a bug failed on them, by code.',
      labelNames: ['code'],
      registers: [registry],
    }),
    consumerRestarts: new Counter({
      name: 'txenrich_consumer_restarts_total',
      help: 'Restarts of the consumer and producers after a stall (no progress while records wait).',
      registers: [registry],
    }),
    recordEncoderActive: new Gauge({
      name: 'txenrich_record_encoder_active',
      help: '1 when kafkajs encodes produced records with src/kafka/record-encoder.ts in this process.',
      registers: [registry],
    }),
  };
}

/** Counts what the commits of a micro-batch carried. */
export function countCommitted(metrics: WorkerMetrics, topic: string, result: Committed): void {
  metrics.commits.inc(result.transactions);
  metrics.recordsIn.inc({ topic }, result.enriched + result.deadLetterCodes.length);
  metrics.recordsOut.inc(result.enriched);
  for (const code of result.deadLetterCodes) metrics.deadLettered.inc({ code });
}
