#!/usr/bin/env bash
# make image: the worker root file system for portable runs (make portable), Flink and
# Dataflow, built from Debian's packages alone (no container registry): debootstrap of
# Debian bookworm with the toolchains the engines call (JDK 17, g++, python3), Beam's Go
# boot loader at /opt/apache/beam/boot (the entry point Beam's runners start) and the
# launch binary, stripped, as /opt/transmute/launch (--worker_binary for Dataflow).
# Where podman or docker is installed (IMPORT=1 installs podman with apt-get), the tree
# is also imported as the local image $IMAGE. Needs root (debootstrap, chroot).
# Idempotent: an existing tree (ROOTFS=...) is completed and updated, not rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOTFS=${ROOTFS:-out/image/rootfs}
SUITE=${SUITE:-bookworm}
IMAGE=${IMAGE:-transmute-worker:latest}
IMPORT=${IMPORT:-auto}
GO=${GO:-go}
NICE=${NICE:-nice -n 19}
# util-linux: prlimit, which the sandbox's degraded mode calls.
PKGS=openjdk-17-jdk-headless,g++,python3,util-linux,ca-certificates

[ "$(id -u)" = 0 ] || { echo "image: needs root (debootstrap and chroot)" >&2; exit 1; }
mkdir -p "$(dirname "$ROOTFS")"
if [ ! -x "$ROOTFS/usr/bin/javac" ]; then
  if ! command -v debootstrap >/dev/null; then
    echo "image: installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  echo "image: debootstrap $SUITE into $ROOTFS (15-25 minutes; the packages come from Debian's mirror)"
  # The mirror is debootstrap's own default unless MIRROR is set.
  # shellcheck disable=SC2086
  debootstrap --variant=minbase --include="$PKGS" "$SUITE" "$ROOTFS" ${MIRROR:-} >"$ROOTFS.log" 2>&1 ||
    { tail -20 "$ROOTFS.log" >&2; echo "image: debootstrap failed (log: $ROOTFS.log)" >&2; exit 1; }
fi
# debootstrap writes no /etc/hosts; without it "localhost", the address Prism gives its
# workers for the control and logging services, does not resolve.
[ -s "$ROOTFS/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOTFS/etc/hosts"

echo "image: Beam's boot loader and the launch binary"
mkdir -p "$ROOTFS/opt/apache/beam" "$ROOTFS/opt/transmute"
# The boot loader comes from the pinned Beam module, so it speaks the SDK's own protocol.
CGO_ENABLED=0 $NICE "$GO" build -ldflags='-s -w' -o "$ROOTFS/opt/apache/beam/boot" github.com/apache/beam/sdks/v2/go/container
# Stripped: it is staged to every worker.
$NICE "$GO" build -ldflags='-s -w' -o "$ROOTFS/opt/transmute/launch" ./cmd/launch
$NICE "$GO" build -ldflags='-s -w' -o "$ROOTFS/opt/transmute/transmute-sandbox-init" ./transforms/sandbox/cmd/transmute-sandbox-init
{
  echo "built=$(date -u +%FT%TZ)"
  echo "suite=$SUITE"
  # Package versions (java itself needs /proc, which a bare chroot lacks).
  chroot "$ROOTFS" dpkg-query -W -f '${Package}=${Version}\n' openjdk-17-jdk-headless g++ python3
} >"$ROOTFS/opt/transmute/VERSIONS"
sed 's/^/image: /' "$ROOTFS/opt/transmute/VERSIONS"

engine=""
for e in ${CONTAINER:-podman docker}; do # CONTAINER= names the one to use
  if command -v "$e" >/dev/null && "$e" version >/dev/null 2>&1; then
    engine=$e
    break
  fi
done
if [ -z "$engine" ] && [ "$IMPORT" = 1 ] && [ "${CONTAINER:-podman}" = podman ]; then
  echo "image: installing podman (Debian's package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman >/dev/null
  engine=podman
fi
if [ -n "$engine" ] && [ "$IMPORT" != 0 ]; then
  echo "image: importing $ROOTFS as $IMAGE with $engine"
  # The runners start the boot loader with their own arguments (--id, endpoints) or,
  # for an EXTERNAL environment, with --worker_pool.
  old=$("$engine" image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
  tar -C "$ROOTFS" --exclude=./proc --exclude=./sys --exclude=./dev -c . |
    "$engine" import --change 'ENTRYPOINT ["/opt/apache/beam/boot"]' - "$IMAGE"
  # The image the tag named before, now untagged, would stay behind.
  if [ -n "$old" ] && [ "$old" != "$("$engine" image inspect -f '{{.Id}}' "$IMAGE")" ]; then
    "$engine" rmi "$old" >/dev/null 2>&1 || true
  fi
  "$engine" image ls "$IMAGE"
else
  echo "image: root file system ready at $ROOTFS ($(du -sh "$ROOTFS" | cut -f1)); no container engine, so no image (IMPORT=1 installs podman)"
fi
