'use strict';
// diagnostics_channel: channels that deliver to their subscribers in this process.
const channels = new Map();
class Channel {
  constructor(name) {
    this.name = name;
    this._subs = new Set();
  }
  get hasSubscribers() {
    return this._subs.size > 0;
  }
  subscribe(fn) {
    this._subs.add(fn);
  }
  unsubscribe(fn) {
    return this._subs.delete(fn);
  }
  publish(message) {
    for (const fn of this._subs) fn(message, this.name);
  }
}
const channel = (name) => {
  if (!channels.has(name)) channels.set(name, new Channel(name));
  return channels.get(name);
};
module.exports = {
  channel,
  hasSubscribers: (name) => channels.get(name)?.hasSubscribers ?? false,
  subscribe: (name, fn) => channel(name).subscribe(fn),
  unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
  tracingChannel: (name) => ({
    start: channel(`tracing:${name}:start`),
    end: channel(`tracing:${name}:end`),
    error: channel(`tracing:${name}:error`),
    traceSync: (fn, _ctx, thisArg, ...args) => fn.apply(thisArg, args),
  }),
  Channel,
};
