/**
 * MEASUREMENT PROTOTYPE, bench only (`BENCH_E2E_THREADS=1`): processChunk on one worker thread, so
 * that the main thread only drives Kafka. It answers "would moving decode → validate → enrich →
 * encode off the Kafka thread pay on this machine?"; it is not production code: the thread's
 * snapshot is built once from the reference files (no brand store, no refresh), and the history and
 * index hooks are not supported.
 */
import { Worker as Thread } from 'node:worker_threads';
import type { KafkaMessage, Message } from 'kafkajs';
import { headerText } from '../../src/pipeline/headers.js';
import type { processChunk } from '../../src/pipeline/process-chunk.js';
import type { Done, Job } from './protocol.js';

export async function offloadedProcess(registryUrl: string): Promise<typeof processChunk> {
  const thread = new Thread(new URL('./chunk-thread.mjs', import.meta.url), { workerData: { registryUrl } });
  await new Promise<void>((resolve, reject) => {
    thread.once('message', () => resolve());
    thread.once('error', reject);
  });
  thread.unref();
  const pending = new Map<number, { resolve: (done: Done) => void; reject: (error: Error) => void }>();
  thread.on('message', (done: Done) => {
    pending.get(done.id)?.resolve(done);
    pending.delete(done.id);
  });
  thread.on('error', (error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  });
  let nextId = 0;

  return async (messages, ctx) => {
    let total = 0;
    for (const m of messages) total += m.value?.length ?? 0;
    const values = new Uint8Array(total);
    const ends = new Int32Array(messages.length);
    const byOffset = new Map<string, KafkaMessage>();
    let pos = 0;
    messages.forEach((m, i) => {
      if (m.value) values.set(m.value, pos);
      pos += m.value?.length ?? 0;
      ends[i] = pos;
      byOffset.set(m.offset, m);
    });
    const job: Job = {
      id: nextId++,
      values: values.buffer,
      ends,
      offsets: messages.map((m) => m.offset),
      headers: messages.map((m) =>
        Object.fromEntries(Object.keys(m.headers ?? {}).map((k) => [k, headerText(m.headers, k) ?? ''])),
      ),
      topic: ctx.topic,
      partition: ctx.partition,
      outputSchemaId: ctx.outputSchemaId,
      defaultTenant: ctx.defaultTenant,
      logoBaseUrl: ctx.logoBaseUrl,
      now: ctx.now,
    };
    const done = await new Promise<Done>((resolve, reject) => {
      pending.set(job.id, { resolve, reject });
      thread.postMessage(job, [values.buffer, ends.buffer]);
    });
    if (!done.ok) throw new Error(done.error);
    const slabs = done.slabs.map((b) => Buffer.from(b));
    const enriched: Message[] = done.keys.map((key, i) => {
      const slab = slabs[done.where[i * 3] as number] as Buffer;
      const start = done.where[i * 3 + 1] as number;
      return {
        key,
        value: slab.subarray(start, start + (done.where[i * 3 + 2] as number)),
        headers: done.headers[i],
      };
    });
    const deadLetters: Message[] = done.deadLetters.map((d) => {
      const original = byOffset.get(d.offset);
      return { key: original?.key ?? null, value: original?.value ?? null, headers: d.headers };
    });
    return { enriched, deadLetters, deadLetterCodes: done.deadLetterCodes, enrichments: [] };
  };
}
