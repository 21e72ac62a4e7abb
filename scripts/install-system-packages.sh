#!/usr/bin/env bash
# Installs the Debian packages bots and tests need (Chromium, ffmpeg, espeak-ng, sox; flite and PocketSphinx
# with its US English model for speech and transcription) when any is missing.
# Runs before `npm start` and `npm test`, so a fresh machine needs no manual step.
set -euo pipefail
packages=(chromium ffmpeg espeak-ng sox flite pocketsphinx pocketsphinx-en-us)
missing=()
for cmd in chromium ffmpeg espeak-ng sox flite pocketsphinx_continuous; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
done
# the model is data, not a command
[ -d /usr/share/pocketsphinx/model/en-us/en-us ] || missing+=("pocketsphinx-en-us")
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing system packages for: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "not root: run 'sudo apt-get install -y ${packages[*]}' once, then retry" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${packages[@]}" >/dev/null
