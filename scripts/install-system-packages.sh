#!/usr/bin/env bash
# Installs the Debian packages bots and tests need (Chromium, ffmpeg, espeak-ng, sox) when any is missing.
# Runs before `npm start` and `npm test`, so a fresh machine needs no manual step.
set -euo pipefail
missing=()
for cmd in chromium ffmpeg espeak-ng sox; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing system packages for: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "not root: run 'sudo apt-get install -y chromium ffmpeg espeak-ng sox' once, then retry" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium ffmpeg espeak-ng sox >/dev/null
