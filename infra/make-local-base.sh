#!/usr/bin/env bash
# Make a Debian bookworm base image without any container registry (debootstrap + docker import),
# for machines that reach Debian's mirror and PyPI but no registry. Needs root, debootstrap, docker.
#   infra/make-local-base.sh                       # -> pagetree-base:bookworm
#   docker build --build-arg BASE_IMAGE=pagetree-base:bookworm -f infra/Dockerfile -t pagetree:latest .
# Behind a TLS-intercepting proxy, pip inside the build must trust the proxy's CA: set
# CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt (the host's bundle that already trusts it); it is
# copied into the image and PIP_CERT points at it. The bundle stays in this machine-local image only.
# Env: WORK (scratch dir, default /tmp/pagetree-base), MIRROR, TAG, CA_BUNDLE.
set -euo pipefail
WORK=${WORK:-/tmp/pagetree-base}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
TAG=${TAG:-pagetree-base:bookworm}
CA_BUNDLE=${CA_BUNDLE:-}

rootfs="$WORK/rootfs"
if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  rm -rf "$rootfs"
  mkdir -p "$WORK"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR"
fi
# What debootstrap leaves behind and an image does not need: the .debs and the package lists.
rm -f "$rootfs"/var/cache/apt/archives/*.deb
rm -rf "$rootfs"/var/lib/apt/lists/*

changes=(-c 'CMD ["bash"]' -c 'ENV LANG=C.UTF-8')
if [ -n "$CA_BUNDLE" ]; then
  install -D -m 0644 "$CA_BUNDLE" "$rootfs/etc/ssl/certs/local-ca-bundle.crt"
  changes+=(-c 'ENV PIP_CERT=/etc/ssl/certs/local-ca-bundle.crt')
fi
tar -C "$rootfs" -c . | docker import "${changes[@]}" - "$TAG"
docker image ls "$TAG"
