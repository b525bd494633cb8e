'use strict';
// perf_hooks: performance (now, mark, measure, timeOrigin) and a PerformanceObserver that never fires.
const marks = new Map();
const entries = [];
const performance = Object.assign(Object.create(globalThis.performance ?? null), {
  now: () => globalThis.performance.now(),
  timeOrigin: Date.now() - globalThis.performance.now(),
  mark(name, options) {
    const entry = {
      name,
      entryType: 'mark',
      startTime: options?.startTime ?? globalThis.performance.now(),
      duration: 0,
      detail: options?.detail ?? null,
    };
    marks.set(name, entry.startTime);
    entries.push(entry);
    return entry;
  },
  measure(name, start, end) {
    const s = typeof start === 'string' ? (marks.get(start) ?? 0) : (start?.start ?? 0);
    const e =
      typeof end === 'string'
        ? (marks.get(end) ?? globalThis.performance.now())
        : globalThis.performance.now();
    const entry = { name, entryType: 'measure', startTime: s, duration: e - s, detail: null };
    entries.push(entry);
    return entry;
  },
  getEntries: () => [...entries],
  getEntriesByName: (name) => entries.filter((e) => e.name === name),
  getEntriesByType: (type) => entries.filter((e) => e.entryType === type),
  clearMarks: () => {
    marks.clear();
  },
  clearMeasures: () => {},
  toJSON: () => ({ timeOrigin: performance.timeOrigin }),
});
class PerformanceObserver {
  constructor(callback) {
    this.callback = callback;
  }
  observe() {}
  disconnect() {}
  static get supportedEntryTypes() {
    return ['mark', 'measure'];
  }
}
module.exports = {
  performance,
  PerformanceObserver,
  constants: {},
  monitorEventLoopDelay: () => ({ enable() {}, disable() {}, percentile: () => 0, mean: 0, max: 0, min: 0 }),
  createHistogram: () => ({ record() {}, percentile: () => 0 }),
};
