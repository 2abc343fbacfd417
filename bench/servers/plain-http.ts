import { createServer } from 'node:http';
import { demoConfig } from '../../src/demo.js';
import { benchVerifier, ready } from './common.js';
import { plainListener } from './plain-listener.mjs';

// Baseline: node:http around the same verifier, with the same till auth (plain-listener.mjs).
const server = createServer(plainListener(benchVerifier(), demoConfig.tills));
server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port));
