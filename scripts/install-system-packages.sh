#!/usr/bin/env bash
# Installs the Debian packages bots and tests need when any is missing: Chromium, Xvfb and PulseAudio (the
# virtual display and the sound server each bot's Chromium has of its own), ffmpeg, espeak-ng, sox,
# flite and PocketSphinx with its US English model (speech and transcription), and Ceph (one mon, one OSD,
# radosgw) for the S3 tests; then makes the unprivileged user bots run as (see "Security" in README.md).
# Runs before `npm start` and `npm test`, so a fresh machine needs no manual step. Idempotent.
set -euo pipefail

# The database servers of the store tests (PostgreSQL 15, FerretDB): a script of their own.
bash "$(dirname "$0")/install-test-servers.sh"
# Schemathesis, the API fuzzer of the tests, in a virtual environment of its own.
bash "$(dirname "$0")/install-schemathesis.sh"

packages=(chromium xvfb ffmpeg espeak-ng sox flite pocketsphinx pocketsphinx-en-us)
missing=()
for cmd in chromium Xvfb ffmpeg espeak-ng sox flite pocketsphinx_continuous; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
done
# the model is data, not a command
[ -d /usr/share/pocketsphinx/model/en-us/en-us ] || missing+=("pocketsphinx-en-us")
# The S3-compatible server of the storage tests (test/support/radosgw.ts), and each bot's sound server:
# without recommends they stay small (PulseAudio's would bring a session bus and a real-time kit).
missing_lean=()
for cmd in ceph-mon ceph-osd radosgw pulseaudio; do
  command -v "$cmd" >/dev/null 2>&1 || missing_lean+=("$cmd")
done

# Bots (Node and Chromium) run as this user, never as the service's: no home, no shell, no groups.
bot_user="${BOT_USER:-meetbot}"
# Chromium's sandbox, as a non-root user, is its namespace sandbox: Debian's chromium ships no SUID helper,
# so unprivileged user namespaces must be allowed (Debian 12's default; some machines turn them off).
userns_sysctl=/proc/sys/kernel/unprivileged_userns_clone
userns_off() { [ -r "$userns_sysctl" ] && [ "$(cat "$userns_sysctl")" = "0" ]; }

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_lean[@]} -eq 0 ] && id -u "$bot_user" >/dev/null 2>&1 && ! userns_off; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  [ ${#missing[@]} -eq 0 ] && [ ${#missing_lean[@]} -eq 0 ] ||
    echo "not root: run 'sudo apt-get install -y ${packages[*]} && sudo apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw pulseaudio' once, then retry" >&2
  id -u "$bot_user" >/dev/null 2>&1 ||
    echo "not root: bots need their own user; run 'sudo bash scripts/install-system-packages.sh' once (or, for development only, BOT_SAME_USER=1)" >&2
  ! userns_off || echo "unprivileged user namespaces are off: Chromium's sandbox needs 'sudo sysctl -w kernel.unprivileged_userns_clone=1'" >&2
  [ ${#missing[@]} -eq 0 ] && [ ${#missing_lean[@]} -eq 0 ] || exit 1
  exit 0
fi
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_lean[@]} -gt 0 ]; then
  echo "installing system packages for: ${missing[*]} ${missing_lean[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || apt-get install -y -qq "${packages[@]}" >/dev/null
  [ ${#missing_lean[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends ceph-mon ceph-osd radosgw pulseaudio >/dev/null
fi
if ! id -u "$bot_user" >/dev/null 2>&1; then
  echo "creating the user bots run as: $bot_user" >&2
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$bot_user"
fi
if userns_off; then
  echo "allowing unprivileged user namespaces (Chromium's sandbox)" >&2
  sysctl -qw kernel.unprivileged_userns_clone=1
  echo 'kernel.unprivileged_userns_clone = 1' >/etc/sysctl.d/60-meeting-bot-chromium-sandbox.conf
fi
