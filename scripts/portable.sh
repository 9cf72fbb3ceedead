#!/usr/bin/env bash
# make portable: the bundled corpus through Beam's portable runner, every part in its own
# process: a Prism job server (built from the pinned Beam module), an SDK worker pool
# (Beam's Go boot loader, --worker_pool) running inside the worker root file system of
# `make image` (its own mount namespace, pivot_root into the tree: the toolchains the
# workers use are the image's, not the host's), and the launcher submitting with
# --environment_type=EXTERNAL. The tables are then compared row by row with an in-process
# run of the same flags (timing columns aside). Everything started here is stopped on exit.
#
# PRISM_LOG_LEVEL=debug logs every bundle Prism starts and every split it asks for.
# ROOTFS= (empty) runs the worker pool on the host instead: the small version that
# `make test` runs (portable_test.go), without debootstrap.
# CONTAINER=podman or docker runs it in a container engine instead, from the image
# `make image` imported (IMAGE; ROOTFS is then not used; CONTAINER_FLAGS adds run flags):
# docs/runs/2026-11-26-container.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
GO=${GO:-go}
ROOTFS=${ROOTFS-out/image/rootfs}
CONTAINER=${CONTAINER:-}
IMAGE=${IMAGE:-transmute-worker:latest}
OUT=${OUT:-$ROOT/out/portable}
JOB_PORT=${JOB_PORT:-18073}
POOL_PORT=50000 # fixed by Beam's boot loader in --worker_pool mode
# The execution cache is off: the workers must run every program themselves.
FLAGS=${FLAGS:---config data/configs/run.json --cache off}
NICE=${NICE:-nice -n 19}
BIN=${BIN:-bin}
mkdir -p "$BIN" "$OUT"
OUT=$(readlink -f "$OUT")
BIN=$(readlink -f "$BIN")

echo "portable: building the job server, the boot loader, the launcher and a stripped worker binary"
$NICE "$GO" build -o "$BIN"/prism github.com/apache/beam/sdks/v2/go/cmd/prism
CGO_ENABLED=0 $NICE "$GO" build -ldflags='-s -w' -o "$BIN"/boot github.com/apache/beam/sdks/v2/go/container
$NICE "$GO" build -o "$BIN"/launch ./cmd/launch
# Staged to every worker: without its symbol tables it is 30% smaller (only the link
# differs, so the build cache of bin/launch serves it).
$NICE "$GO" build -ldflags='-s -w' -o "$BIN"/launch-worker ./cmd/launch
$NICE "$GO" build -o "$BIN"/tablediff ./cmd/tablediff
for b in "$BIN"/launch "$BIN"/launch-worker; do echo "portable: $b: $(stat -c %s "$b") bytes"; done

containers=() # containers started here (a killed client does not stop its container)
pids=()   # processes started here
groups=() # process groups started here (the host's worker pool and the workers it forks)
hard=()   # unshare, which ignores SIGTERM while its child runs: killed, it kills the child
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for c in "${containers[@]}"; do "$CONTAINER" rm -f "$c" >/dev/null 2>&1 || true; done
  for g in "${groups[@]}"; do kill -- "-$g" 2>/dev/null || true; done
  for p in "${hard[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  exit "$rc"
}
trap cleanup EXIT INT TERM

wait_port() { # port what pid
  for _ in $(seq 1 150); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { echo "portable: $2 exited (log under $OUT)" >&2; return 1; }
    sleep 0.2
  done
  echo "portable: $2 did not listen on 127.0.0.1:$1" >&2
  return 1
}
if (exec 3<>"/dev/tcp/127.0.0.1/$POOL_PORT") 2>/dev/null; then
  echo "portable: port $POOL_PORT is taken (another worker pool?); the boot loader needs it" >&2
  exit 1
fi

"$BIN"/prism --job_port "$JOB_PORT" --serve_http=false --log_level "${PRISM_LOG_LEVEL:-warn}" --log_kind text >"$OUT/prism.log" 2>&1 &
pids+=($!)
wait_port "$JOB_PORT" "the Prism job server" "$!"

# The sandbox's uid pool locks each uid it leases in a host-wide directory, so that no
# two processes lease the same uid (one's release scan would kill the other's
# programs). A worker tree has a /run of its own: it gets the host's directory, and so
# shares the locks with every sandbox on the host.
LOCKS=${TRANSMUTE_SANDBOX_UID_LOCKS:-/run/transmute-uids}
if [ -n "$CONTAINER" ]; then
  mkdir -p -m 700 "$LOCKS"
  case $CONTAINER in podman | docker) ;; *) echo "portable: CONTAINER=podman or docker, not $CONTAINER" >&2; exit 1 ;; esac
  # docker names an image loaded from podman (podman save | docker load) localhost/NAME.
  if ! "$CONTAINER" image inspect "$IMAGE" >/dev/null 2>&1 && "$CONTAINER" image inspect "localhost/$IMAGE" >/dev/null 2>&1; then
    IMAGE=localhost/$IMAGE
  fi
  "$CONTAINER" image inspect "$IMAGE" >/dev/null 2>&1 ||
    { echo "portable: $CONTAINER has no image $IMAGE (make image CONTAINER=$CONTAINER)" >&2; exit 1; }
  global=() # the engine's own flags
  run=()    # flags of its run command
  if [ "$CONTAINER" = podman ]; then
    # Two things keep podman's defaults from starting a container on a VM like the
    # project's: crun (Debian's default) refuses a hybrid cgroup v1+v2 host ("cgroups in
    # hybrid mode not supported"), runc does not; and podman asks for RLIMIT_NOFILE
    # 1048576, which a runtime without CAP_SYS_RESOURCE cannot set above the hard limit it
    # inherited, so the limits are given explicitly (NPROC at most podman's own 32768).
    if command -v runc >/dev/null; then global+=(--runtime runc); fi
    nofile=$(ulimit -Hn)
    nproc=$(ulimit -Hu)
    if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
    run+=(--ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
  fi
  # CONTAINER_FLAGS: more run flags. Unset with podman: --cap-add SYS_ADMIN. Podman's
  # seccomp profile lets the sandbox create a user namespace, where it maps and drops to
  # a leased uid (docs/SANDBOX.md), but a fresh /proc cannot be mounted there. With
  # SYS_ADMIN the sandbox gets its full mode but cgroups, programs as leased uids.
  # Docker's profile refuses namespaces: the degraded mode of docs/SANDBOX.md.
  if [ "$CONTAINER" = podman ] && [ -z "${CONTAINER_FLAGS+set}" ]; then CONTAINER_FLAGS="--cap-add SYS_ADMIN"; fi
  # shellcheck disable=SC2206
  run+=(${CONTAINER_FLAGS:-})
  name=transmute-pool-$$
  # As in the root file system mode: the project read-only and the output at their host
  # paths, the boot loader just built, a /tmp of its own (exec: the engines run there).
  # Host network: the workers reach Prism on 127.0.0.1, and Prism the pool on 50000.
  "$CONTAINER" "${global[@]}" run --rm --name "$name" --net=host "${run[@]}" -e HOME=/tmp --tmpfs /tmp:rw,exec,size=2g \
    -v "$LOCKS:$LOCKS" -e "TRANSMUTE_SANDBOX_UID_LOCKS=$LOCKS" -v "$ROOT:$ROOT:ro" -v "$OUT:$OUT" -v "$BIN/boot:/opt/apache/beam/boot:ro" \
    "$IMAGE" --worker_pool >"$OUT/pool.log" 2>&1 &
  containers+=("$name")
  where="a $CONTAINER container ($IMAGE)"
elif [ -n "$ROOTFS" ]; then
  ROOTFS=$(readlink -f "$ROOTFS")
  [ -x "$ROOTFS/usr/bin/javac" ] || { echo "portable: no worker root file system at $ROOTFS (make image)" >&2; exit 1; }
  [ "$(id -u)" = 0 ] || { echo "portable: the worker root file system needs root (mount namespace, pivot_root)" >&2; exit 1; }
  mkdir -p "$ROOTFS/opt/apache/beam"
  mkdir -p -m 700 "$LOCKS"
  cp "$BIN"/boot "$ROOTFS/opt/apache/beam/boot"
  # The project (corpus, recorded translations) and the output directory appear in the
  # tree at their host paths, as a bucket would for a cloud worker; nothing else of the
  # host does. pivot_root rather than chroot: the sandbox creates user namespaces,
  # which the kernel refuses inside a chroot. A PID namespace whose first process dies
  # with unshare (--kill-child) takes every worker with it when this script stops.
  unshare --mount --propagation private --pid --fork --kill-child bash -c '
    set -e
    R=$1; root=$2; out=$3; locks=$4
    mount --bind "$R" "$R"
    mkdir -p "$R$root" "$R$out" "$R$locks" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/.oldroot"
    mount --bind "$root" "$R$root"
    mount -o remount,bind,ro "$R$root"
    mount --bind "$out" "$R$out"
    mount --bind "$locks" "$R$locks"
    mount -t proc proc "$R/proc"
    mount --rbind /sys "$R/sys"
    mount --rbind /dev "$R/dev"
    mount -t tmpfs -o size=2g tmpfs "$R/tmp"
    cd "$R"
    pivot_root . .oldroot
    umount -l /.oldroot
    rmdir /.oldroot 2>/dev/null || true
    cd /
    exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp TRANSMUTE_SANDBOX_UID_LOCKS="$locks" /opt/apache/beam/boot --worker_pool
  ' pool "$ROOTFS" "$ROOT" "$OUT" "$LOCKS" >"$OUT/pool.log" 2>&1 &
  hard+=($!)
else
  # In $OUT: the boot loader writes pipeline_options.json into its working directory.
  (cd "$OUT" && exec setsid env -i PATH="$PATH" HOME=/tmp "$BIN"/boot --worker_pool) >"$OUT/pool.log" 2>&1 &
  groups+=($!)
fi
pids+=($!)
wait_port "$POOL_PORT" "the SDK worker pool" "$!"

echo "portable: the bundled corpus on the job server (workers in ${where:-${ROOTFS:-the host}})"
start=$(date +%s%N)
# shellcheck disable=SC2086
"$BIN"/launch $FLAGS --quiet --out "$OUT/portable" --runner=universal --endpoint="127.0.0.1:$JOB_PORT" \
  --environment_type=EXTERNAL --environment_config="127.0.0.1:$POOL_PORT" --worker_binary="$BIN/launch-worker"
echo "portable: portable run: $((($(date +%s%N) - start) / 1000000)) ms"

echo "portable: the same job in process"
start=$(date +%s%N)
# shellcheck disable=SC2086
"$BIN"/launch $FLAGS --quiet --out "$OUT/inprocess"
echo "portable: in-process run: $((($(date +%s%N) - start) / 1000000)) ms"
"$BIN"/tablediff "$OUT/inprocess" "$OUT/portable"
# What ran where: the worker's toolchains and protections, and the bundles per stage
# when the run counted them (counters bundles_<stage>).
python3 - "$OUT/portable/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for w in m.get("workers", []):
    print(f"portable: worker {w['host']} pid {w['pid']}: java {w['versions'].get('java')!r}, "
          f"python {w['versions'].get('python')!r}, g++ {w['versions'].get('g++')!r}")
    print(f"portable: its sandbox protections: {' '.join(w['sandbox_protections'])}")
b = {k: v for k, v in (m.get("counters") or {}).items() if k.startswith("bundles_")}
if b:
    print("portable: bundles per stage: " + ", ".join(f"{k[8:]} {v}" for k, v in sorted(b.items())))
PY
