#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with CTest: once in a normal
# build, then builds and checks the Debian package of that build, then once under
# AddressSanitizer + UndefinedBehaviorSanitizer. Fails on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

# The Debian package of that build (no second build): built, unpacked into a scratch root (not
# installed), its programs run from there and its files validated.
echo "packaging: cpack -G DEB in build/"
rm -f build/vramplan_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(echo build/vramplan_*.deb)
[ -s "$deb" ] || { echo "packaging: FAILED: no .deb in build/"; exit 1; }
echo "packaging: ok: $deb ($(stat -c %s "$deb") bytes)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "packaging: Depends: $depends"
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6 'libqcustomplot[0-9.]*-qt6'; do
  if grep -Eq "(^|, )$lib( |,|$)" <<<"$depends"; then
    echo "packaging: ok: Depends names $lib (dpkg-shlibdeps)"
  else
    echo "packaging: FAILED: Depends does not name $lib"; exit 1
  fi
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
top=$(cd "$root" && echo *)
[ "$top" = usr ] || { echo "packaging: FAILED: the .deb holds '$top', not only usr/"; exit 1; }
echo "packaging: ok: unpacked into $root (usr/ only)"
QT_QPA_PLATFORM=offscreen tests/install/check_installed.sh --require-tools "$root/usr" \
  "$(dpkg-deb -f "$deb" Version)" resources/models/qwen3-8b.json | sed 's/^/packaging: /'

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DVRAMPLAN_SANITIZE=ON \
      -DVRAMPLAN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0" \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"
