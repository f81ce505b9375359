// Jest's jsdom has no fetch, and its AbortSignal/Blob/FormData are not the ones Node's fetch accepts.
// Code may capture `fetch` when it is imported, so the Node implementations must be present before
// any test module loads: copy them into the jsdom global here. Tests that render hooks against a real
// emulator in the same process also need the timers its store batches writes with (setImmediate).
const { TestEnvironment } = require('jest-environment-jsdom');

const NODE_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'structuredClone',
  'setImmediate',
  'clearImmediate',
];

class JsdomWithNodeFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of NODE_GLOBALS) {
      if (typeof globalThis[name] !== 'undefined') this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithNodeFetch;
