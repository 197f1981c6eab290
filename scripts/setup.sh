#!/usr/bin/env bash
# Installs what PointPaint needs on a Debian machine with Swift: the C libraries (GLFW, GL, libpng,
# libjpeg-turbo, libzip, OpenEXR, FFmpeg's libavformat/libavcodec/libavutil), Xvfb + Mesa for
# headless rendering, the ffmpeg and cjpeg tools (the Swift tests encode their videos and JPEGs
# with them; the Python cross-checks use ffmpeg too), Chromium (the export-web page's tests drive
# it headless, WebGL2 on SwiftShader), and (with --python) the Python packages the reference tests
# use. Safe to run again: it installs only what is missing.
set -euo pipefail

apt_packages=(libglfw3-dev libgl-dev libpng-dev libturbojpeg0-dev libzip-dev libopenexr-dev
              libavformat-dev libavcodec-dev libavutil-dev pkg-config xvfb xauth libgl1-mesa-dri
              ffmpeg libjpeg-turbo-progs chromium)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "${1:-}" == "--python" ]]; then
  python3 -m pip install -q --disable-pip-version-check -r "$(dirname "$0")/../Tests/python/requirements.txt" 2>&1 \
    | grep -v -E "Running pip as the 'root' user|^$" || true
fi
