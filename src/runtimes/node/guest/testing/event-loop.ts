/**
 * A deterministic event loop for the guest test harness: guest-side `setTimeout`/`setInterval`/
 * `setImmediate` (and their `clear…`) on a virtual clock, plus a small event emitter on the stand-in
 * `process` (`on`, `once`, `off`, `emit`, …) so guest modules can listen for 'beforeExit', 'exit' and
 * 'uncaughtException' as they would in Node.
 *
 * `process.nextTick` gets Node's queue: the host (GuestHarness.drain) runs all ticks, then all promise jobs,
 * and repeats until both are empty — so a tick queued in the same turn as a promise job runs first.
 *
 * Nothing here waits for real time: when only timers are left, the clock jumps to the earliest one.
 * Order within one turn follows Node's phases closely enough for tests: due timers (by due time, then
 * creation order), then the immediates queued so far; the harness runs promise jobs between callbacks.
 * `unref()`ed timers still fire while other work is pending, but do not keep the loop alive.
 *
 * The host drives it through `globalThis.__loop` (see GuestHarness.runToExit / evalAsync). Each piece
 * is installed only when the global is missing, so an engine-provided implementation wins.
 */
export const EVENT_LOOP_SOURCE = `(function () {
  const g = globalThis;
  const proc = g.process;
  if (proc && typeof proc.on !== 'function') {
    const listeners = Object.create(null);
    const list = (name) => listeners[name] || (listeners[name] = []);
    proc.on = proc.addListener = function (name, fn) { list(name).push({ fn, once: false }); return proc; };
    proc.once = function (name, fn) { list(name).push({ fn, once: true }); return proc; };
    proc.off = proc.removeListener = function (name, fn) {
      const l = list(name);
      const i = l.findIndex((entry) => entry.fn === fn);
      if (i >= 0) l.splice(i, 1);
      return proc;
    };
    proc.removeAllListeners = function (name) { if (name === undefined) { for (const k in listeners) delete listeners[k]; } else delete listeners[name]; return proc; };
    proc.listenerCount = function (name) { return list(name).length; };
    proc.listeners = function (name) { return list(name).map((entry) => entry.fn); };
    proc.emit = function (name, ...args) {
      const l = list(name).slice();
      for (const entry of l) {
        if (entry.once) proc.removeListener(name, entry.fn);
        entry.fn.apply(proc, args);
      }
      return l.length > 0;
    };
  }
  if (proc && typeof proc.hrtime !== 'function') {
    const hrtime = function (prev) {
      const ns = BigInt(Math.round(performance.now() * 1e6));
      const sec = Number(ns / 1000000000n);
      const nsec = Number(ns % 1000000000n);
      if (!prev) return [sec, nsec];
      let ds = sec - prev[0];
      let dn = nsec - prev[1];
      if (dn < 0) { ds -= 1; dn += 1e9; }
      return [ds, dn];
    };
    hrtime.bigint = () => BigInt(Math.round(performance.now() * 1e6));
    proc.hrtime = hrtime;
  }
  // process.nextTick as Node runs it: the host drains the whole tick queue before promise jobs, after
  // the script and after every callback (ticks queued by a promise job wait for the jobs to finish).
  const ticks = [];
  if (proc) {
    proc.nextTick = function nextTick(fn, ...args) {
      if (typeof fn !== 'function') {
        const err = new TypeError('The "callback" argument must be of type function. Received ' + typeof fn);
        err.code = 'ERR_INVALID_ARG_TYPE';
        throw err;
      }
      ticks.push([fn, args]);
    };
  }
  g.__ticks = {
    /** Runs every queued tick (and those they queue); returns how many ran. */
    run() {
      let ran = 0;
      while (ticks.length > 0) {
        const [fn, args] = ticks.shift();
        ran++;
        invokeTick(fn, args);
      }
      return ran;
    },
  };
  function invokeTick(fn, args) {
    try {
      fn(...args);
    } catch (err) {
      if (proc && proc.listenerCount && proc.listenerCount('uncaughtException') > 0) proc.emit('uncaughtException', err, 'uncaughtException');
      else throw err;
    }
  }
  if (typeof g.setTimeout === 'function') return;

  let clock = 0;
  let seq = 0;
  const timers = new Map();
  let immediates = [];

  class Timeout {
    constructor(id) { this._id = id; }
    ref() { const t = timers.get(this._id); if (t) t.ref = true; return this; }
    unref() { const t = timers.get(this._id); if (t) t.ref = false; return this; }
    hasRef() { const t = timers.get(this._id); return !!(t && t.ref); }
    refresh() { const t = timers.get(this._id); if (t) { t.at = clock + t.ms; t.seq = ++seq; } return this; }
    close() { timers.delete(this._id); return this; }
    [Symbol.toPrimitive]() { return this._id; }
  }
  class Immediate {
    constructor(fn, args) { this.fn = fn; this.args = args; this.cleared = false; this.refed = true; }
    ref() { this.refed = true; return this; }
    unref() { this.refed = false; return this; }
    hasRef() { return this.refed; }
  }
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') {
      const err = new TypeError('The "callback" argument must be of type function. Received ' + typeof fn);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    ms = Number(ms);
    if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
    const id = ++seq;
    timers.set(id, { id, at: clock + ms, ms, fn, args, repeat, ref: true, seq: id });
    return new Timeout(id);
  }
  function clearTimer(t) {
    if (t == null) return;
    timers.delete(typeof t === 'object' ? t._id : Number(t));
  }
  g.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
  g.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
  g.clearTimeout = clearTimer;
  g.clearInterval = clearTimer;
  g.setImmediate = (fn, ...args) => { const im = new Immediate(fn, args); immediates.push(im); return im; };
  g.clearImmediate = (im) => { if (im) im.cleared = true; };

  function invoke(fn, args) {
    try {
      fn(...args);
    } catch (err) {
      if (proc && proc.listenerCount && proc.listenerCount('uncaughtException') > 0) proc.emit('uncaughtException', err, 'uncaughtException');
      else throw err;
    }
  }
  function nextTimer() {
    let best;
    for (const t of timers.values()) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }
  g.__loop = {
    now: () => clock,
    /** True while a ref'd timer or immediate is pending. */
    alive() {
      if (immediates.some((im) => !im.cleared && im.refed)) return true;
      for (const t of timers.values()) if (t.ref) return true;
      return false;
    },
    /** Runs one callback; returns false (and runs nothing) when no ref'd work is left. */
    step() {
      if (!this.alive()) return false;
      const due = nextTimer();
      if (due && due.at <= clock) return this.fire(due);
      while (immediates.length && immediates[0].cleared) immediates.shift();
      if (immediates.length) {
        const im = immediates.shift();
        invoke(im.fn, im.args);
        return true;
      }
      if (due) { clock = due.at; return this.fire(due); }
      return false;
    },
    fire(t) {
      if (t.repeat) { t.at = clock + t.ms; t.seq = ++seq; } else timers.delete(t.id);
      invoke(t.fn, t.args);
      return true;
    },
    emit(name, ...args) {
      if (proc && typeof proc.emit === 'function') proc.emit(name, ...args);
    },
  };
})();`;
