/**
 * The prototype's worker thread: decode, validate, enrich and encode (processChunk) of the chunks the
 * main thread sends, with its own snapshot (built from the reference files, as bench-worker's) and
 * its own registry client.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { KafkaMessage } from 'kafkajs';
import { loadReferenceData } from '../../src/data/load.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { processChunk } from '../../src/pipeline/process-chunk.js';
import { RegistryCodec } from '../../src/pipeline/schema-registry.js';
import type { Done, Job } from './protocol.js';

const port = parentPort!;
const snapshot = buildSnapshot(loadReferenceData());
const codec = new RegistryCodec((workerData as { registryUrl: string }).registryUrl);
port.postMessage('ready');

port.on('message', (job: Job) => {
  run(job).then(
    ({ done, transfer }) => port.postMessage(done, transfer),
    (error: unknown) => port.postMessage({ id: job.id, ok: false, error: String(error) } satisfies Done),
  );
});

async function run(job: Job): Promise<{ done: Done; transfer: ArrayBuffer[] }> {
  const values = Buffer.from(job.values);
  const messages: KafkaMessage[] = [];
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    const end = job.ends[i] as number;
    messages.push({
      key: null,
      value: end > start ? values.subarray(start, end) : null,
      offset: job.offsets[i] as string,
      headers: job.headers[i] ?? {},
      timestamp: '0',
      attributes: 0,
    });
    start = end;
  }
  const result = await processChunk(messages, { ...job, codec, snapshot });
  const slabs: ArrayBuffer[] = [];
  const slabOf = new Map<ArrayBufferLike, number>();
  const where = new Int32Array(result.enriched.length * 3);
  const keys: string[] = [];
  const headers: Record<string, string>[] = [];
  result.enriched.forEach((m, i) => {
    const value = m.value as Buffer;
    let slab = slabOf.get(value.buffer);
    if (slab === undefined) {
      slab = slabs.push(value.buffer as ArrayBuffer) - 1;
      slabOf.set(value.buffer, slab);
    }
    where.set([slab, value.byteOffset, value.length], i * 3);
    keys.push(m.key as string);
    headers.push(m.headers as Record<string, string>);
  });
  const deadLetters = result.deadLetters.map((m) => ({
    offset: String(m.headers?.['x-source-offset']),
    headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
  }));
  return {
    done: {
      id: job.id,
      ok: true,
      slabs,
      where,
      keys,
      headers,
      deadLetters,
      deadLetterCodes: result.deadLetterCodes,
    },
    transfer: [...slabs, where.buffer as ArrayBuffer],
  };
}
