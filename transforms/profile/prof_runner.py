# Transmute's profiling harness for Python (transforms/profile). Usage:
#   python3 -S -B prof_runner.py <candidate.py> <tests.jsonl> <meta.json>
# meta.json: {"entry": name or "", "params": [types], "returns": type}.
# It loads the candidate, converts every test's arguments (the conventions of the
# Python execution engine, transforms/execute/python/runner.py), then calls the
# function once per test and prints one protocol line per test on the original
# stdout. The candidate's own output goes to /dev/null.
import array
import collections
import json
import math
import os
import sys
import threading


def parse_type(t):
    t = t.strip()
    dims = 0
    while t.endswith("[]"):
        dims += 1
        t = t[:-2].strip()
    t = t.lower()
    t = {"boolean": "bool", "str": "string"}.get(t, t)
    return t, dims


def to_float(v):
    if isinstance(v, str):
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(v, v))
    return float(v)


def conv(v, base, dims):
    if v is None:
        return None
    if dims > 0:
        if isinstance(v, str) and base == "char" and dims == 1:
            return list(v)
        return [conv(e, base, dims - 1) for e in v]
    if base in ("int", "long"):
        if isinstance(v, str) and len(v) == 1:
            return ord(v)
        return int(v)
    if base in ("float", "double"):
        return to_float(v)
    if base == "bool":
        return bool(v)
    if base == "char":
        if isinstance(v, int) and not isinstance(v, bool):
            return chr(v)
        return str(v)
    if base == "string":
        return str(v)
    return v


def enc(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(int.__repr__(v))
    elif isinstance(v, float):
        if math.isnan(v):
            out.append('"NaN"')
        elif math.isinf(v):
            out.append('"Infinity"' if v > 0 else '"-Infinity"')
        else:
            out.append(float.__repr__(v))
    elif isinstance(v, str):
        out.append(json.dumps(str(v)))
    elif isinstance(v, (list, tuple, bytearray, array.array, collections.deque, range)):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            enc(e, out)
        out.append("]")
    elif isinstance(v, bytes):
        enc(list(v), out)
    elif type(v).__name__ in ("Fraction", "Decimal"):
        enc(float(v), out)
    elif hasattr(v, "__index__"):
        out.append(int.__repr__(v.__index__()))
    elif hasattr(v, "__float__"):
        enc(float(v), out)
    else:
        raise TypeError("cannot print a return value of type " + type(v).__name__)


def describe(e):
    msg = str(e)
    if len(msg) > 300:
        msg = msg[:300] + "..."
    name = type(e).__name__
    return name + ": " + msg if msg else name


def find_entry(src, ns, entry):
    if entry and callable(ns.get(entry)):
        return ns[entry]
    import ast  # only when the entry is not a plain top-level function

    tree = ast.parse(src)
    if entry:
        fn = ns.get(entry)
        if callable(fn):
            return fn
        for node in reversed(tree.body):
            if isinstance(node, ast.ClassDef) and node.name in ns:
                cls = ns[node.name]
                if callable(getattr(cls, entry, None)):
                    return bound(cls, entry)
        raise LookupError("entry function %r is not defined" % entry)
    last = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            last = node.name
    if last is not None:
        return ns[last]
    for node in reversed(tree.body):
        if isinstance(node, ast.ClassDef):
            for sub in reversed(node.body):
                if isinstance(sub, ast.FunctionDef) and not sub.name.startswith("__"):
                    return bound(ns[node.name], sub.name)
    raise LookupError("no top-level function defined")


def bound(cls, name):
    attr = cls.__dict__.get(name)
    if isinstance(attr, (staticmethod, classmethod)):
        return getattr(cls, name)
    return getattr(cls(), name)


def peak_rss_kb():
    """VmHWM of this process image (the rusage figure may include the parent's
    memory from before exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    cand_path, tests_path, meta_path = sys.argv[1:4]
    proto = os.fdopen(os.dup(1), "w", buffering=1 << 16)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    sys.stdout = open(os.devnull, "w")

    def emit(s):
        proto.write(s)
        proto.write("\n")

    with open(meta_path) as f:
        meta = json.load(f)
    try:
        with open(cand_path) as f:
            src = f.read()
        ns = {"__name__": "__candidate__", "__builtins__": __builtins__}
        exec(compile(src, cand_path, "exec"), ns)
        fn = find_entry(src, ns, meta.get("entry") or "")
    except BaseException as e:
        emit(json.dumps({"c": 0, "compile": "error", "msg": describe(e)}))
        proto.flush()
        return
    emit('{"c":0,"compile":"ok"}')
    types = [parse_type(p) for p in meta["params"]]
    arrays = [i for i, (_, d) in enumerate(types) if d > 0]
    void = parse_type(meta["returns"])[0] == "void"
    # Convert every test's arguments before the first call.
    tests = []
    with open(tests_path) as f:
        for line in f:
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                tests.append([conv(raw[i], b, d) for i, (b, d) in enumerate(types)])
            except Exception as e:
                tests.append(e)

    def run():
        for t, args in enumerate(tests):
            if isinstance(args, Exception):
                emit(json.dumps({"c": 0, "t": t, "s": "infra_error", "e": "bad arguments: " + describe(args)}))
                continue
            try:
                rv = fn(*args)
                out = []
                enc([args[i] for i in arrays] if void else rv, out)
                emit('{"c":0,"t":%d,"s":"ok","v":%s}' % (t, "".join(out)))
            except MemoryError as e:
                emit(json.dumps({"c": 0, "t": t, "s": "memory_limit", "e": describe(e)}))
            except BaseException as e:
                emit(json.dumps({"c": 0, "t": t, "s": "exception", "e": describe(e)}))

    sys.setrecursionlimit(1000000)
    threading.stack_size(512 << 20)
    th = threading.Thread(target=run)
    th.start()
    th.join()
    emit('{"c":0,"done":true,"rss_kb":%d}' % peak_rss_kb())
    proto.flush()


if __name__ == "__main__":
    main()
    os._exit(0)
