#!/usr/bin/env bash
# Installs the Debian 12 packages vramplan builds with, if any is missing (needs root or sudo).
set -euo pipefail
packages=(cmake ninja-build g++ qt6-base-dev qt6-svg-dev libqcustomplot-dev nlohmann-json3-dev
          libbenchmark-dev
          # importing training setups (core/imports/, vramplan-cli import): YAML and TOML parsers
          libyaml-cpp-dev libtomlplusplus-dev
          # the Simplified Chinese interface (docs/languages.md): Qt's LinguistTools (CMake's
          # qt_add_translations, lupdate, lrelease), Qt's own translations, a Chinese font for
          # the window offscreen (tests, screenshots)
          qt6-tools-dev qt6-l10n-tools qt6-translations-l10n fonts-noto-cjk
          # the capture script's bookkeeping test (tests/measure/test_capture_memory.py)
          python3
          # packaging and its checks: cpack's dpkg-shlibdeps, the validators, man, MIME cache
          dpkg-dev desktop-file-utils appstream man-db shared-mime-info)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
