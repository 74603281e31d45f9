#!/bin/sh
# Renders icon.svg to the PNG sizes the packages need (electron-builder.yml): icons/NxN.png for
# Linux (hicolor sizes), 256 for the Windows .ico, 1024 for the macOS .icns, and icon.png (512)
# for the window. Needs rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin).
set -eu
cd "$(dirname "$0")"
mkdir -p icons
for size in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert --width "$size" --height "$size" --output "icons/${size}x${size}.png" icon.svg
done
cp icons/512x512.png icon.png
