// CommonJS: the ES module itself (see index.cjs).
module.exports = require('./viem.mjs');
