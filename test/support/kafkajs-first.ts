// Loads kafkajs the way the service does (src/kafka/kafkajs.ts, which puts our produce step in first)
// before any test file imports kafkajs itself: in-process workers then produce exactly as in production.
import '../../src/kafka/kafkajs.js';
