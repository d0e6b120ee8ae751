/**
 * Summarises a worker's V8 CPU profile (from `BENCH_E2E_CPU_PROF=dir npm run bench:e2e`) by pipeline
 * component, between the first and the last sample inside `commitChunk` (so start-up and the idle
 * tail do not count): `tsx bench/cpu-profile.ts <main-thread .cpuprofile> [records] [component]`.
 * With records, also µs of CPU per record; with a component, its hottest functions.
 *
 * Each sample goes to the first rule that matches a frame, walking from the sampled function up
 * its callers; generic rules (any kafkajs frame) apply only when no specific one matched. The
 * main thread's profile is the one named `CPU.<date>.<time>.<pid>.0.*.cpuprofile`.
 */
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const SPECIFIC: [RegExp, string][] = [
  [/^\(garbage collector\)/, 'garbage collection'],
  [/^\(idle\)/, 'idle'],
  [/^\(program\)/, 'program'],
  [/contract\/transaction\.ts|\/zod\//, 'validation'],
  [/^toV3Record .*engine\/records/, 'output record (toV3Record)'],
  [/engine\//, 'engine'],
  [/pipeline\/headers\.ts/, 'header texts'],
  [/^(encodeCached|encodeFramed) /, 'Avro encode'],
  [/^(decode|decodeCached) .*schema-registry/, 'Avro decode'],
  [/pipeline\/decode\.ts/, 'decode (framing)'],
  [/groupMessagesPerPartition|partitioners\/|pipeline\/partitioner\.ts/, 'kafkajs: choosing partitions'],
  [/crc32C/, 'kafkajs: CRC32C'],
  [/recordBatch\/record\/v0\/index|recordBatch\/header\/v0\/index/, 'kafkajs: record and header encoding'],
  [/recordBatch\/v0\/index|requests\/produce\//, 'kafkajs: batch and request encoding'],
  [/recordBatch\/v0\/decoder|recordBatch\/record\/v0\/decoder|requests\/fetch\//, 'kafkajs: fetch decoding'],
  [/kafkajs\/src\/network\//, 'kafkajs: network'],
  [/kafkajs\/src\/producer\//, 'kafkajs: producer, other'],
  [/kafkajs\/src\/consumer\//, 'kafkajs: consumer, other'],
  [/^processChunk /, 'processChunk itself'],
  [/bench\/bench-worker\.ts|bench\/threads\//, 'benchmark hooks'],
  [/^(requestsOf|sizeOf) /, 'request splitting'],
  [/pipeline\/worker\.ts|prom-client/, 'worker loop and metrics'],
];
const GENERIC: [RegExp, string][] = [
  [/kafkajs/, 'kafkajs: other'],
  [/^runMicrotasks/, 'promises'],
];

const [file, recordsArg, detail] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx bench/cpu-profile.ts <file.cpuprofile> [records] [component]\n');
  process.exit(2);
}
const records = Number(recordsArg ?? 0);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map<number, ProfileNode>();
const parent = new Map<number, number>();
for (const n of profile.nodes) {
  byId.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
const label = (id: number): string => {
  const f = (byId.get(id) as ProfileNode).callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '')}:${f.lineNumber}`;
};
const frames = (id: number): number[] => {
  const out: number[] = [];
  for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) out.push(c);
  return out;
};
const componentOf = new Map<number, string>();
function component(id: number): string {
  let found = componentOf.get(id);
  if (found !== undefined) return found;
  found = 'other';
  search: for (const rules of [SPECIFIC, GENERIC]) {
    for (const frame of frames(id)) {
      const rule = rules.find(([re]) => re.test(label(frame)));
      if (rule) {
        found = rule[1];
        break search;
      }
    }
  }
  componentOf.set(id, found);
  return found;
}

const times: number[] = [];
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) times.push((t += profile.timeDeltas[i] ?? 0));
let first = -1;
let last = -1;
const inBatch = new Map<number, boolean>();
profile.samples.forEach((id, i) => {
  let yes = inBatch.get(id);
  if (yes === undefined) inBatch.set(id, (yes = frames(id).some((f) => /^commitChunk /.test(label(f)))));
  if (yes) {
    if (first < 0) first = i;
    last = i;
  }
});
if (first < 0) {
  process.stderr.write('no sample inside commitChunk: is this the main thread of a worker?\n');
  process.exit(1);
}

const totals = new Map<string, number>();
const hottest = new Map<string, number>();
let busy = 0;
let window = 0;
for (let i = first + 1; i <= last; i++) {
  const dt = (times[i] as number) - (times[i - 1] as number);
  const id = profile.samples[i] as number;
  const c = component(id);
  totals.set(c, (totals.get(c) ?? 0) + dt);
  window += dt;
  if (c !== 'idle') busy += dt;
  if (c === detail) hottest.set(label(id), (hottest.get(label(id)) ?? 0) + dt);
}
const perRecord = (us: number): string =>
  records > 0 ? `${(us / records).toFixed(2).padStart(8)} µs/record` : '';
const out: string[] = [];
out.push(
  `window ${(window / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s${records > 0 ? `, ${(busy / records).toFixed(1)} µs/record` : ''}\n`,
);
for (const [c, us] of [...totals].sort((a, b) => b[1] - a[1])) {
  out.push(`${((100 * us) / busy).toFixed(1).padStart(6)} %  ${perRecord(us)}  ${c}\n`);
}
if (detail) {
  out.push(`-- hottest functions of ${detail}\n`);
  for (const [l, us] of [...hottest].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    out.push(`${((100 * us) / busy).toFixed(1).padStart(6)} %  ${l}\n`);
  }
}
process.stdout.write(out.join(''));
