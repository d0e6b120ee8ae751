// Entry of the prototype's worker thread: tsx's loader hooks do not reach worker threads, so the
// thread registers them itself before loading the TypeScript.
const { register } = await import('tsx/esm/api');
register();
await import(new globalThis.URL('./chunk-thread.ts', import.meta.url).href);
