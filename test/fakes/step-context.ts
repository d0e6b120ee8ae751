/**
 * A worker step context over the fakes (in-memory registry codec and brand store), as the worker
 * builds it for one input partition: what the step and micro-batch unit tests start from.
 */
import type { Snapshot } from '../../src/engine/snapshot.js';
import type { StepContext } from '../../src/pipeline/steps.js';
import { InMemoryCodec } from './in-memory-codec.js';
import { InMemoryStore } from './in-memory-store.js';

export const OUTPUT_SCHEMA_ID = 7;

export function fakeStepContext(snapshot: Snapshot): {
  ctx: StepContext;
  codec: InMemoryCodec;
  store: InMemoryStore;
} {
  const codec = new InMemoryCodec().register(OUTPUT_SCHEMA_ID, 'enriched-transaction');
  const store = new InMemoryStore(snapshot);
  const ctx: StepContext = {
    topic: 'raw',
    partition: 2,
    codec,
    store,
    outputTopic: 'out',
    dlqTopic: 'dlq',
    outputSchemaId: OUTPUT_SCHEMA_ID,
    outputMaxBytes: 1_048_588,
    dlqMaxBytes: 1_048_588,
    defaultTenant: 'default',
    logoBaseUrl: '',
    onDecodeBug: 'dead-letter',
    now: 1_700_000_000_000,
  };
  return { ctx, codec, store };
}
