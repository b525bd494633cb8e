"""tabcode's python3 driver, loaded once into Pyodide by the python worker (engine.ts).

`setup()` runs once after the interpreter started: it closes the bridges to JavaScript that user code
could use (the `js` and `pyodide_js` modules, `pyodide.code.run_js`, `pyodide.ffi`, `ctypes`), makes
sockets fail with a clear error, gives asyncio an event loop that works without sockets, and records
the interpreter's state. `run(request_json)` runs one program the way `python3` would — a file, `-c`,
`-m` or a script on stdin, with its argv, environment and cwd — prints an uncaught exception as
CPython does, and returns the exit code. After each run the interpreter goes back to the recorded
state: modules the program imported are dropped (a changed file is read afresh next time), and
sys.argv, sys.path, os.environ, the builtins, warnings filters and atexit handlers are restored.
"""

import atexit
import builtins
import errno
import importlib
import importlib.machinery
import io
import json
import os
import signal
import sys
import traceback
import types
import warnings

_NO_JS = (
    "python3 in tabcode has no access to the browser: the '{name}' module is not available "
    "(programs run with the Python standard library only)"
)
_NO_PACKAGES = (
    "python3 in tabcode has the Python standard library only: '{name}' is not available and "
    "packages cannot be installed"
)
_NO_CTYPES = "python3 in tabcode does not provide '{name}' (no native code or JavaScript calls from Python)"
# Top-level names user code may not import, and why.
_BLOCKED = {
    "js": _NO_JS,
    "pyodide_js": _NO_JS,
    "pyodide": _NO_JS,
    "_pyodide": _NO_JS,
    "_pyodide_core": _NO_JS,
    "pyodide_http": _NO_JS,
    "micropip": _NO_PACKAGES,
    "pip": _NO_PACKAGES,
    "ctypes": _NO_CTYPES,
    "_ctypes": _NO_CTYPES,
}
NO_NETWORK = (
    "python3 in tabcode has no network: sockets cannot connect, listen or send "
    "(HTTP clients and servers do not work here)"
)
# Modules dropped after setup even though the interpreter had loaded them: they keep state a program
# changes (logging's handlers and levels, tempfile's folder, random's seed), so every run imports them
# afresh, like a new process would.
_FRESH_EACH_RUN = ("logging", "tempfile", "random", "__main__")
# Loaded again by setup through the blocker, so they carry its patches (no network; an event loop
# without sockets) and stay loaded (asyncio takes a while to import).
_RELOADED = ("socket", "asyncio")
_RUNNER_FILE = "<tabcode python3>"

_state = {}


class _Blocker:
    """First on sys.meta_path: refuses the blocked modules, and patches some stdlib modules as they load."""

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in _BLOCKED:
            raise ModuleNotFoundError(_BLOCKED[top].format(name=name), name=name)
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None

    def invalidate_caches(self):
        pass


class _PatchingLoader:
    def __init__(self, loader, patch):
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._patch(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


def _no_network(*args, **kwargs):
    raise OSError(errno.ENETUNREACH, NO_NETWORK)


def _patch_socket(module):
    for name in ("connect", "connect_ex", "bind", "listen", "sendto", "sendmsg"):
        setattr(module.socket, name, _no_network)
    module.create_connection = _no_network
    module.create_server = _no_network


def _patch_asyncio_unix_events(module):
    """asyncio's default loop needs a socket pair; this one waits with time.sleep and runs timers, tasks and futures."""
    import time

    base_events = sys.modules["asyncio.base_events"]

    class _SleepSelector:
        def select(self, timeout=None):
            if timeout is None:
                raise RuntimeError(
                    "asyncio: the program waits for something that cannot happen here "
                    "(no timer is pending, and python3 in tabcode has no sockets, threads or subprocesses)"
                )
            if timeout > 0:
                time.sleep(timeout)
            return []

        def close(self):
            pass

    class TabcodeEventLoop(base_events.BaseEventLoop):
        def __init__(self):
            super().__init__()
            self._selector = _SleepSelector()

        def _process_events(self, event_list):
            pass

        def _write_to_self(self):
            pass

    module.TabcodeEventLoop = TabcodeEventLoop
    module.EventLoop = TabcodeEventLoop
    module.SelectorEventLoop = TabcodeEventLoop
    module._UnixDefaultEventLoopPolicy._loop_factory = TabcodeEventLoop


def _patch_webbrowser(module):
    def _open(url, new=0, autoraise=True):
        raise module.Error("python3 in tabcode cannot open a browser window")

    module.open = module.open_new = module.open_new_tab = _open


_PATCHES = {
    "socket": _patch_socket,
    "asyncio.unix_events": _patch_asyncio_unix_events,
    "webbrowser": _patch_webbrowser,
}


class HardExit(BaseException):
    """os._exit(): ends the run at once (atexit handlers are skipped)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _hard_exit(code):
    raise HardExit(code)


def setup(removed_builtins_json="[]"):
    """Once, after the interpreter started and before any program ran.

    `removed_builtins_json`: the built-in modules the worker took out of the interpreter (engine.ts).
    """
    removed = set(json.loads(removed_builtins_json))
    sys.builtin_module_names = tuple(n for n in sys.builtin_module_names if n not in removed)
    sys.dont_write_bytecode = True
    sys.executable = "/usr/bin/python3"
    sys._base_executable = "/usr/bin/python3"
    sys.orig_argv = ["python3"]
    _new_streams(False)
    os._exit = _hard_exit
    # asyncio's running loop lives in the interpreter's thread state: Pyodide set its own.
    if "asyncio" in sys.modules:
        sys.modules["asyncio"].events._set_running_loop(None)
    # Close the bridges: drop the modules from sys.modules (the blocker refuses them from now on) and
    # the import hook that serves JavaScript modules.
    _drop(set(_BLOCKED) | set(_FRESH_EACH_RUN) | set(_RELOADED) | {"ssl", "selectors"})
    sys.meta_path[:] = [_Blocker()] + [
        f for f in sys.meta_path if type(f).__module__.partition(".")[0] not in _BLOCKED
    ]
    sys.path_importer_cache.clear()
    for name in _RELOADED:
        importlib.import_module(name)
    _drop(set(_FRESH_EACH_RUN))
    main = types.ModuleType("__main__")
    sys.modules["__main__"] = main
    _state.update(
        modules=set(sys.modules),
        path=list(sys.path),
        meta_path=list(sys.meta_path),
        path_hooks=list(sys.path_hooks),
        builtins=dict(builtins.__dict__),
        warnings=list(warnings.filters),
        recursion=sys.getrecursionlimit(),
        main=main,
    )


def _drop(tops):
    """Removes these packages (and their submodules) from sys.modules."""
    for name in list(sys.modules):
        if name.partition(".")[0] in tops:
            del sys.modules[name]


def _strip(tb):
    """The traceback without the driver's frames (and runpy's, as CPython shows a script's)."""
    runpy_file = getattr(sys.modules.get("runpy"), "__file__", None)
    kept = []
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name != _RUNNER_FILE and name != runpy_file and not name.startswith("<frozen runpy"):
            kept.append(tb)
        tb = tb.tb_next
    stripped = None
    for t in reversed(kept):
        stripped = types.TracebackType(stripped, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return stripped


def _report(exc):
    """Prints an uncaught exception through sys.excepthook, as CPython does at the top level."""
    tb = _strip(exc.__traceback__)
    exc.__traceback__ = tb
    # The driver's frames leave the chained exceptions too (e.g. a patched socket inside urllib).
    seen = {id(exc)}
    todo = [exc.__cause__, exc.__context__]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = _strip(e.__traceback__)
        todo += [e.__cause__, e.__context__]
    try:
        sys.excepthook(type(exc), exc, tb)
    except BaseException:
        traceback.print_exception(type(exc), exc, tb, file=sys.__stderr__)
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        top = exc.name.partition(".")[0]
        if top not in _BLOCKED and top not in sys.stdlib_module_names and not _exists_locally(top):
            print(
                f"note: python3 in tabcode has the Python standard library only; '{top}' is not part of it "
                "and packages cannot be installed",
                file=sys.stderr,
            )


def _exists_locally(top):
    for entry in sys.path:
        base = os.path.join(entry or ".", top)
        if os.path.isdir(base) or os.path.isfile(base + ".py"):
            return True
    return False


def _exit_code(exc):
    """The process exit status for a SystemExit, printing its message like CPython."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        print(code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def _fresh_main(filename=None):
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    if filename is not None:
        main.__file__ = filename
        main.__cached__ = None
    sys.modules["__main__"] = main
    return main


def _compile(source, filename, optimize):
    return compile(source, filename, "exec", dont_inherit=True, optimize=optimize)


def _run_program(req):
    mode = req["mode"]
    target = req["target"]
    args = req["args"]
    cwd = os.getcwd()
    if mode == "module":
        sys.argv = ["-m", *args]
        if not req["safePath"]:
            sys.path.insert(0, cwd)
        top = target.partition(".")[0]
        if top in ("pip", "venv", "ensurepip", "virtualenv"):
            print(f"{sys.executable}: No module named {target}", file=sys.stderr)
            print(_NO_PACKAGES.format(name=top), file=sys.stderr)
            return 1
        if target in ("http.server", "xmlrpc.server", "wsgiref.simple_server", "smtpd"):
            print(f"python3: {target} cannot run here: {NO_NETWORK}", file=sys.stderr)
            return 1
        import runpy

        runpy._run_module_as_main(target, alter_argv=True)
        return 0
    if mode in ("code", "stdin"):
        if not req["safePath"]:
            sys.path.insert(0, "")
        if mode == "code":
            sys.argv = ["-c", *args]
            code = _compile(req["target"], "<string>", req["optimize"])
            exec(code, _fresh_main().__dict__)
        else:
            sys.argv = ["-" if req.get("dash") else "", *args]
            code = _compile(req["script"], "<stdin>", req["optimize"])
            exec(code, _fresh_main("<stdin>").__dict__)
        return 0
    path = os.path.normpath(os.path.join(cwd, target))
    sys.argv = [target, *args]
    try:
        is_dir = os.path.isdir(path)
        if not is_dir:
            with io.open_code(path) as f:
                source = f.read()
    except OSError as e:
        print(f"{sys.executable}: can't open file {path!r}: [Errno {e.errno}] {e.strerror}", file=sys.stderr)
        return 2
    if is_dir or source[:4] == b"PK\x03\x04":
        # A folder or zip with a __main__.py.
        if not req["safePath"]:
            sys.path.insert(0, path)
        import runpy

        runpy.run_path(path, run_name="__main__")
        return 0
    if not req["safePath"]:
        sys.path.insert(0, os.path.dirname(os.path.realpath(path)))
    code = _compile(source, path, req["optimize"])
    exec(code, _fresh_main(path).__dict__)
    return 0


def _prepare(req):
    os.environ.clear()
    os.environ.update(req["env"])
    try:
        os.chdir(req["cwd"])
    except OSError:
        os.chdir("/")
    sys.path[:] = _state["path"]
    if not req["ignoreEnvironment"] and req["env"].get("PYTHONPATH"):
        sys.path[0:0] = [p for p in req["env"]["PYTHONPATH"].split(":") if p]
    importlib.invalidate_caches()
    sys.path_importer_cache.clear()
    sys._xoptions.clear()
    for opt in req["xOptions"]:
        key, _, value = opt.partition("=")
        sys._xoptions[key] = value or True
    # A fresh stdin each run: what a previous program left in the buffer is not this one's input.
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding="utf-8", errors="surrogateescape"
    )
    _new_streams(req["unbuffered"])
    if req["warnings"]:
        warnings._processoptions(req["warnings"])
    limit = req.get("memoryLimitMb", 0)

    def _out_of_memory(signum, frame):
        raise MemoryError(f"the program used more than {limit} MB of memory (python3's limit in tabcode)")

    # The worker reports SIGUSR1 when the program passed the memory limit (engine.ts).
    signal.signal(signal.SIGUSR1, _out_of_memory)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _output(fd, unbuffered, errors):
    raw = io.FileIO(fd, "wb", closefd=False)
    if unbuffered:
        return io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", errors=errors, line_buffering=True)


def _new_streams(unbuffered):
    """Fresh sys.stdout and sys.stderr (a program may have closed the last ones, as json.tool does).

    They are line-buffered, as on a terminal, so a program's lines show while it runs.
    """
    sys.stdout = sys.__stdout__ = _output(1, unbuffered, "strict")
    sys.stderr = sys.__stderr__ = _output(2, unbuffered, "backslashreplace")


def _flush():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:
            pass


def _restore():
    atexit._clear()
    for name in list(sys.modules):
        if name not in _state["modules"]:
            del sys.modules[name]
    sys.modules["__main__"] = _state["main"]
    sys.path[:] = _state["path"]
    sys.meta_path[:] = _state["meta_path"]
    sys.path_hooks[:] = _state["path_hooks"]
    sys.path_importer_cache.clear()
    builtins.__dict__.clear()
    builtins.__dict__.update(_state["builtins"])
    warnings.filters[:] = _state["warnings"]
    mutated = getattr(warnings, "_filters_mutated_lock_held", None) or getattr(warnings, "_filters_mutated", None)
    if mutated is not None:
        try:
            mutated()
        except BaseException:
            pass
    events = sys.modules.get("asyncio.events")
    if events is not None:
        events._set_running_loop(None)
        events._event_loop_policy = None
    sys.setrecursionlimit(_state["recursion"])
    sys.settrace(None)
    sys.setprofile(None)
    sys.excepthook = sys.__excepthook__
    sys.displayhook = sys.__displayhook__
    _new_streams(False)
    os._exit = _hard_exit


def run(request_json):
    """Runs one program; returns its exit status (0-255). Never raises."""
    req = json.loads(request_json)
    code = 0
    try:
        _prepare(req)
        try:
            code = _run_program(req)
        except SystemExit as e:
            code = _exit_code(e)
        except HardExit as e:
            _flush()
            return int(e.code) & 0xFF if isinstance(e.code, int) else 1
        except KeyboardInterrupt as e:
            _report(e)
            code = 130
        except BaseException as e:
            _report(e)
            code = 1
        # Like interpreter shutdown: the program's atexit handlers, then its output is flushed.
        try:
            atexit._run_exitfuncs()
        except SystemExit as e:
            code = _exit_code(e)
        except BaseException:
            pass
        _flush()
        return code
    finally:
        try:
            _restore()
        except BaseException as e:
            print(f"tabcode: python3 could not reset the interpreter: {e!r}", file=sys.__stderr__)
