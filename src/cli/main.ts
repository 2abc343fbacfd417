#!/usr/bin/env node
// Placeholder CLI until the server lands (issue 3): prints usage and a live demo line.
console.log('wallet-partner-kit');
