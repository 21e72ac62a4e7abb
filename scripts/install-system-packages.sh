#!/usr/bin/env bash
# Installs the Debian packages bots and tests need when any is missing: Chromium, ffmpeg, espeak-ng, sox,
# flite and PocketSphinx with its US English model (speech and transcription), and Ceph (one mon, one OSD,
# radosgw) for the S3 tests.
# Runs before `npm start` and `npm test`, so a fresh machine needs no manual step.
set -euo pipefail

# The database servers of the store tests (PostgreSQL 15, FerretDB): a script of their own.
bash "$(dirname "$0")/install-test-servers.sh"

packages=(chromium ffmpeg espeak-ng sox flite pocketsphinx pocketsphinx-en-us)
missing=()
for cmd in chromium ffmpeg espeak-ng sox flite pocketsphinx_continuous; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
done
# the model is data, not a command
[ -d /usr/share/pocketsphinx/model/en-us/en-us ] || missing+=("pocketsphinx-en-us")
# The S3-compatible server of the storage tests (test/support/radosgw.ts); without recommends it stays small.
missing_ceph=()
for cmd in ceph-mon ceph-osd radosgw; do
  command -v "$cmd" >/dev/null 2>&1 || missing_ceph+=("$cmd")
done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_ceph[@]} -eq 0 ] && exit 0
echo "installing system packages for: ${missing[*]} ${missing_ceph[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "not root: run 'sudo apt-get install -y ${packages[*]} && sudo apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw' once, then retry" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
[ ${#missing[@]} -eq 0 ] || apt-get install -y -qq "${packages[@]}" >/dev/null
[ ${#missing_ceph[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends ceph-mon ceph-osd radosgw >/dev/null
