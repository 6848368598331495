#!/usr/bin/env bash
# Checks an installed vramplan: the exact file list (programs, desktop entry, icon, MIME types,
# AppStream metadata, man pages, licence notice), that the files agree with each other (one id,
# the Exec program, the MIME types, the newest release is VERSION), that the installed programs
# run (--version, --help in Chinese under LANG=zh_CN.UTF-8, params on a model config, a
# screenshot offscreen), and the validators:
# desktop-file-validate, appstreamcli validate --no-net, man --warnings, update-mime-database.
#
#   check_installed.sh [--install-from BUILD_DIR] [--require-tools] PREFIX VERSION MODEL_CONFIG
#
# --install-from runs `cmake --install BUILD_DIR --prefix PREFIX` first, into an emptied PREFIX
# (the CTest test); without it PREFIX is checked as it is (tools/test.sh: the .deb's usr/).
# A validator that is not installed is skipped with a message, or fails with --require-tools
# (tools/install-deps.sh installs them all).
set -euo pipefail

app_id=io.github.vramplan.vramplan
build_dir=""
require_tools=0
while [ $# -gt 0 ]; do
  case "$1" in
    --install-from) build_dir=$2; shift 2 ;;
    --require-tools) require_tools=1; shift ;;
    *) break ;;
  esac
done
if [ $# -ne 3 ]; then
  echo "usage: $0 [--install-from BUILD_DIR] [--require-tools] PREFIX VERSION MODEL_CONFIG" >&2
  exit 2
fi
prefix=$1 version=$2 model_config=$3

failures=0
ok() { echo "ok: $*"; }
bad() { echo "FAILED: $*"; failures=$((failures + 1)); }
# has TOOL PACKAGE: whether TOOL can run; a skip message (or a failure) when not.
has() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$require_tools" -eq 1 ]; then
    bad "$1 is not installed (Debian package $2)"
  else
    echo "skipped: $1 is not installed (Debian package $2)"
  fi
  return 1
}

if [ -n "$build_dir" ]; then
  case "$prefix" in /|"") echo "refusing to empty '$prefix'" >&2; exit 2 ;; esac
  rm -rf "$prefix"
  cmake --install "$build_dir" --prefix "$prefix" >/dev/null
  ok "cmake --install $build_dir --prefix $prefix"
fi
prefix=$(cd "$prefix" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

desktop=share/applications/$app_id.desktop
icon=share/icons/hicolor/scalable/apps/$app_id.svg
mime=share/mime/packages/$app_id.xml
metainfo=share/metainfo/$app_id.metainfo.xml
manpages=(share/man/man1/vramplan.1.gz share/man/man1/vramplan-cli.1.gz)

# The file list, exactly: a file missing or one nobody meant to install both fail.
expected=$(printf '%s\n' bin/vramplan bin/vramplan-cli "$desktop" "$icon" "$mime" "$metainfo" \
           "${manpages[@]}" share/doc/vramplan/copyright | LC_ALL=C sort)
actual=$(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort)
if [ "$actual" = "$expected" ]; then
  ok "installed files: $(echo "$actual" | tr '\n' ' ')"
else
  bad "installed files differ from the expected list (< expected, > installed):"
  diff <(echo "$expected") <(echo "$actual") || true
fi
for f in $expected; do
  [ -s "$prefix/$f" ] || bad "$f is missing or empty"
done
for f in bin/vramplan bin/vramplan-cli; do
  [ -x "$prefix/$f" ] || bad "$f is not executable"
done
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }

# The files agree with each other.
grep -qx "Icon=$app_id" "$prefix/$desktop" && ok "desktop entry: Icon=$app_id" ||
  bad "desktop entry: Icon is not $app_id"
exec_program=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$prefix/$desktop")
[ -x "$prefix/bin/$exec_program" ] && ok "desktop entry: Exec runs bin/$exec_program" ||
  bad "desktop entry: Exec=$exec_program is not an installed program"
for type in $(sed -n 's/^MimeType=//p' "$prefix/$desktop" | tr ';' ' '); do
  grep -q "<mime-type type=\"$type\">" "$prefix/$mime" && ok "MIME type $type is defined" ||
    bad "desktop entry: MimeType $type is not defined in $mime"
done
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$prefix/$metainfo" &&
  ok "metainfo: launchable $app_id.desktop" || bad "metainfo: launchable is not $app_id.desktop"
newest=$(grep -o '<release version="[^"]*"' "$prefix/$metainfo" | head -1 | cut -d'"' -f2)
[ "$newest" = "$version" ] && ok "metainfo: newest release is $version" ||
  bad "metainfo: newest release is '$newest', the project is $version"

# The installed programs run.
out=$("$prefix/bin/vramplan-cli" --version) || true
[ "$out" = "vramplan-cli $version" ] && ok "vramplan-cli --version: $out" ||
  bad "vramplan-cli --version printed '$out'"
out=$(QT_QPA_PLATFORM=offscreen "$prefix/bin/vramplan" --version 2>/dev/null) || true
[ "$out" = "vramplan $version" ] && ok "vramplan --version: $out" ||
  bad "vramplan --version printed '$out'"
# The Simplified Chinese interface is compiled in: the system's language picks it (a fresh
# settings folder, so that no language chosen under View > Language gets in the way).
out=$(XDG_CONFIG_HOME="$scratch/config" LANG=zh_CN.UTF-8 LANGUAGE= LC_ALL= \
      QT_QPA_PLATFORM=offscreen "$prefix/bin/vramplan" --help 2>/dev/null) || true
if grep -q "GPU 显存规划工具" <<<"$out"; then
  ok "vramplan --help under LANG=zh_CN.UTF-8: $(sed -n 2p <<<"$out")"
else
  bad "vramplan --help under LANG=zh_CN.UTF-8 is not in Chinese: $(sed -n 2p <<<"$out")"
fi
if "$prefix/bin/vramplan-cli" params "$model_config" >"$scratch/params.json" &&
   grep -q '"total": [1-9]' "$scratch/params.json"; then
  total=$(grep -m1 '"total"' "$scratch/params.json" | tr -d ' ,')
  ok "vramplan-cli params $(basename "$model_config"): $total"
else
  bad "vramplan-cli params $model_config"
fi
png_magic=89504e470d0a1a0a
if QT_QPA_PLATFORM=offscreen "$prefix/bin/vramplan" --screenshot "$scratch/shot.png" \
     2>"$scratch/shot.err" &&
   [ "$(head -c 8 "$scratch/shot.png" | od -An -tx1 | tr -d ' \n')" = "$png_magic" ]; then
  ok "vramplan --screenshot: a PNG of $(stat -c %s "$scratch/shot.png") bytes"
else
  bad "vramplan --screenshot wrote no PNG"
  cat "$scratch/shot.err"
fi

# The validators.
if has desktop-file-validate desktop-file-utils; then
  # It exits 0 on some errors ("will be fatal in the future") and on hints: any output fails.
  if desktop-file-validate "$prefix/$desktop" >"$scratch/dfv.out" 2>&1 &&
     [ ! -s "$scratch/dfv.out" ]; then
    ok "desktop-file-validate $desktop"
  else
    bad "desktop-file-validate $desktop"; cat "$scratch/dfv.out"
  fi
fi
if has appstreamcli appstream; then
  if appstreamcli validate --no-net --pedantic "$prefix/$metainfo" >"$scratch/as.out" 2>&1; then
    ok "appstreamcli validate --no-net --pedantic $metainfo"
  else
    bad "appstreamcli validate --no-net $metainfo"; cat "$scratch/as.out"
  fi
  # The tree: the launchable desktop entry is there too.
  if appstreamcli validate-tree --no-net "$prefix" >"$scratch/as.out" 2>&1; then
    ok "appstreamcli validate-tree --no-net (metainfo with its desktop entry)"
  else
    bad "appstreamcli validate-tree --no-net $prefix"; cat "$scratch/as.out"
  fi
fi
if has man man-db; then
  for page in "${manpages[@]}"; do
    if MANWIDTH=80 man --warnings -l "$prefix/$page" >"$scratch/man.out" 2>"$scratch/man.err" &&
       [ ! -s "$scratch/man.err" ] && grep -q "vramplan $version" "$scratch/man.out"; then
      ok "man --warnings -l $page: no warnings, version $version"
    else
      bad "man --warnings -l $page"; cat "$scratch/man.err"
    fi
  done
fi
if has update-mime-database shared-mime-info; then
  mkdir -p "$scratch/mime/packages"
  cp "$prefix/$mime" "$scratch/mime/packages/"
  if update-mime-database "$scratch/mime" 2>"$scratch/mime.err" &&
     grep -qx 'application/x-vramplan-scenario:\*\.vramplan\.json' "$scratch/mime/globs" &&
     grep -qx 'application/x-vramplan-comparison:\*\.vramplan-comparison\.json' \
       "$scratch/mime/globs"; then
    ok "update-mime-database: *.vramplan.json and *.vramplan-comparison.json"
  else
    bad "update-mime-database $mime"; cat "$scratch/mime.err"
  fi
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all install checks passed"
