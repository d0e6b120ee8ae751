/** Bumped whenever a change to the engine can change an outcome for the same input and data. */
export const ENGINE_VERSION = '1.2.0';
