'use strict';
// Where this QuickJS-ng build's errors differ from V8's in ways programs notice, make them V8's:
// - `Error.prototype.stack` is an accessor whose setter refuses anything but a string and leaves an
//   enumerable property; in V8 a program may assign any value (`err.stack = undefined`, a fake stack
//   in a test) and `stack` stays a non-enumerable own property.
// - `Error.captureStackTrace(obj)` leaves `stack` enumerable, so JSON.stringify and util.format's %j
//   show it; V8's is not enumerable.
// Loaded first by the bootstrap (and by the guest test harness).

const proto = Object.getOwnPropertyDescriptor(Error.prototype, 'stack');
if (proto && typeof proto.get === 'function' && typeof proto.set === 'function') {
  Object.defineProperty(Error.prototype, 'stack', {
    get: proto.get,
    set(value) {
      Object.defineProperty(this, 'stack', { value, writable: true, configurable: true, enumerable: false });
    },
    enumerable: proto.enumerable,
    configurable: true,
  });
}

const capture = Error.captureStackTrace;
if (typeof capture === 'function') {
  Object.defineProperty(Error, 'captureStackTrace', {
    value: function captureStackTrace(target, constructorOpt) {
      capture.call(this, target, constructorOpt);
      const own = Object.getOwnPropertyDescriptor(target, 'stack');
      if (own?.enumerable) Object.defineProperty(target, 'stack', { ...own, enumerable: false });
    },
    writable: true,
    configurable: true,
  });
}
