import { WebSocketServer } from 'ws';
import { ready } from './common.js';

// Baseline for the bridge: a bare ws server that echoes every message, with
// the same socket options (no deflate); the ceiling any bridge can reach.
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
server.on('listening', () => ready((server.address() as { port: number }).port));
