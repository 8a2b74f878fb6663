// CommonJS: the ES module itself (require() of an ES module without top-level await, in
// Node 20.19 and later), so that both forms share one instance.
module.exports = require('./index.mjs');
