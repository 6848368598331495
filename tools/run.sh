#!/usr/bin/env bash
# Installs what is missing, builds, and starts vramplan on its default scenario.
# Until the planner window lands, this prints the default estimate as a table.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target vramplan-cli
if [ -x build/app/vramplan ]; then
  exec build/app/vramplan "$@"
fi
exec build/app/vramplan-cli estimate --default --format table
