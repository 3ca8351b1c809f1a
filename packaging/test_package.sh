#!/usr/bin/env bash
# Installs into a scratch root, validates the desktop files, builds the .deb with cpack, checks
# that it holds every file, unpacks it with dpkg -x and runs the binary from there.
set -euo pipefail
build=$1
id=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

DESTDIR="$scratch/install" cmake --install "$build" --prefix /usr >/dev/null
share="$scratch/install/usr/share"
desktop-file-validate "$share/applications/$id.desktop"
appstreamcli validate --no-net --pedantic "$share/metainfo/$id.metainfo.xml"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$share/metainfo/$id.metainfo.xml"

(cd "$build" && cpack -G DEB -B "$scratch/deb" >/dev/null)
deb=$(ls "$scratch"/deb/*.deb)
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/zero-planner ./usr/share/applications/$id.desktop ./usr/share/metainfo/$id.metainfo.xml \
         ./usr/share/mime/packages/$id.xml ./usr/share/icons/hicolor/scalable/apps/$id.svg \
         ./usr/share/icons/hicolor/48x48/apps/$id.png ./usr/share/icons/hicolor/256x256/apps/$id.png \
         ./usr/share/man/man1/zero-planner.1 ./usr/share/zero-planner/measured_runs.json \
         ./usr/share/zero-planner/paper_throughput.json ./usr/share/zero-planner/host_ram_runs.json \
         ./usr/share/zero-planner/measured_runs_facts.json ./usr/share/zero-planner/measured_runs_2.json ./usr/share/zero-planner/fitted_constants.json; do
  grep -qF " $f" <<<"$contents" || { echo "missing in the .deb: $f" >&2; exit 1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
grep -q "libqt6widgets6" <<<"$depends" || { echo "Depends lacks Qt: $depends" >&2; exit 1; }
echo "package: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version); Depends: $depends"

dpkg -x "$deb" "$scratch/root"
"$scratch/root/usr/bin/zero-planner" --version
"$scratch/root/usr/bin/zero-planner" estimate --model gpt2 --gpus 1 --json >/dev/null
