export { consumeMessages, createTopics, testKafka, withAdmin } from './kafka.js';
export type { ConsumedMessage, ConsumeOptions } from './kafka.js';
export { uniqueName } from './names.js';
export { stackEnv } from './stack-env.js';
export type { StackEnv } from './stack-env.js';
export { sleep, waitFor, withTimeout } from './wait.js';
export type { WaitOptions } from './wait.js';
