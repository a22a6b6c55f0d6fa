#!/usr/bin/env bash
# Gives WebGPU (Dawn, through the `webgpu` package) an adapter on a machine without a GPU:
# Mesa's lavapipe, a software Vulkan driver, so the GPU tests run for real (CI does this).
#
# Debian 12's own Mesa (22.3) is too old for Dawn: its lavapipe lacks
# shaderUniformBufferArrayDynamicIndexing and friends, and Dawn rejects the adapter.
# bookworm-backports carries Mesa 25, which Dawn accepts. This script adds the backports
# suite from the Debian mirror the machine already uses and installs lavapipe from it.
#
# Usage (root, Debian 12): bash scripts/setup-gpu-software.sh
# Safe to run again: it does nothing when a backports lavapipe is already installed.
# Elsewhere: Ubuntu ≥ 24.04 and Debian ≥ 13 ship a recent enough Mesa —
# apt-get install mesa-vulkan-drivers libvulkan1; macOS and Windows have real adapters.
set -euo pipefail

say() { echo "setup-gpu-software: $*"; }

if [ "$(id -u)" -ne 0 ]; then
  say "run me as root (apt-get installs packages)" >&2
  exit 1
fi

have_lavapipe() {
  ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 && dpkg-query -W -f='${Status}' libvulkan1 2>/dev/null | grep -q 'ok installed'
}
mesa_version() { dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true; }
# Mesa's major version from a Debian version string such as 25.0.7-2~bpo12+1.
mesa_major() { mesa_version | sed -E 's/^([0-9]+:)?([0-9]+).*/\2/;t;d'; }

if have_lavapipe && [ "$(mesa_major || echo 0)" -ge 24 ] 2>/dev/null; then
  say "lavapipe already installed (mesa-vulkan-drivers $(mesa_version))"
  exit 0
fi

. /etc/os-release
codename=${VERSION_CODENAME:-}
if [ "${ID:-}" != debian ] || [ -z "$codename" ]; then
  say "this script knows Debian only (found ${PRETTY_NAME:-unknown});" \
      "install a Mesa >= 24 lavapipe: apt-get install mesa-vulkan-drivers libvulkan1 on a recent distribution" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [ "$codename" = bookworm ]; then
  # The mirror this machine already uses, from one-line (.list) or deb822 (.sources) entries.
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -nE 's#^[[:space:]]*(deb[[:space:]]+(\[[^]]*\][[:space:]]+)?|URIs:[[:space:]]*)(https?://[^[:space:]]+/debian/?)([[:space:]].*)?$#\3#p' |
    head -n1 || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  list=/etc/apt/sources.list.d/${codename}-backports.list
  if ! grep -rqsE "^[^#]*${codename}-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    say "adding ${codename}-backports from $mirror"
    echo "deb $mirror ${codename}-backports main" > "$list"
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends -t "${codename}-backports" mesa-vulkan-drivers libvulkan1 >/dev/null
else
  # Newer Debian releases ship a Mesa that Dawn accepts.
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers libvulkan1 >/dev/null
fi

if ! have_lavapipe; then
  say "installed, but no lavapipe ICD in /usr/share/vulkan/icd.d" >&2
  exit 1
fi
say "installed mesa-vulkan-drivers $(mesa_version)"
