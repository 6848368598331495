#!/usr/bin/env bash
# Installs what is missing, builds, and starts the vramplan window on its default scenario
# (without a display it prints the default estimate as a table instead).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target vramplan vramplan-cli
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -n "${QT_QPA_PLATFORM:-}" ]; then
  exec build/app/vramplan "$@"
fi
echo "no display: printing the default estimate (set DISPLAY, or QT_QPA_PLATFORM=offscreen with --screenshot FILE.png)"
exec build/app/vramplan-cli estimate --default --format table
