# Shared helpers for the black-box scenarios: sourced, not run.
# Each scenario is called as: bash tests/<name>.sh <kseries binary> <source dir>
set -euo pipefail
KSERIES=$1
SRC=$2
TMP=$(mktemp -d /tmp/kseries-blackbox-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export GIT_AUTHOR_NAME="Toy Author" GIT_AUTHOR_EMAIL=toy@example.com
export GIT_COMMITTER_NAME="Toy Committer" GIT_COMMITTER_EMAIL=committer@example.com
# The caller's home (the real tests keep their persistent work directory
# under it); every scenario itself runs with HOME in its temporary directory.
REAL_HOME=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
export GIT_CONFIG_NOSYSTEM=1 HOME=$TMP

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_exit CODE CMD...: runs CMD, keeps stdout/stderr in $TMP/out, $TMP/err.
# CODE may list alternatives: "0|1".
expect_exit() {
  local want=$1; shift
  set +e
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  set -e
  if ! [[ "$got" =~ ^($want)$ ]]; then
    echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"
    fail "expected exit $want, got $got: $*"
  fi
}

expect_grep() {  # expect_grep PATTERN FILE
  grep -q -- "$1" "$2" || { echo "--- $2"; cat "$2"; fail "no '$1' in $2"; }
}

# A toy repository with a base commit and a 2-patch series on top.
make_toy_repo() {
  local repo=$1
  mkdir -p "$repo"
  git -C "$repo" init -q -b main
  seq 1 40 | sed 's/^/line /' >"$repo/file.txt"
  echo "old" >"$repo/old.txt"
  git -C "$repo" add -A
  git -C "$repo" commit -q -m "toy base"
  sed -i 's/^line 20$/line twenty/' "$repo/file.txt"
  git -C "$repo" commit -q -am "toy: change line twenty

The first patch of the toy series.

Signed-off-by: Toy Author <toy@example.com>"
  git -C "$repo" mv old.txt new.txt
  echo "added" >"$repo/added.txt"
  git -C "$repo" add -A
  git -C "$repo" commit -q -m "toy: rename and add"
}

# skip_unless_installed TOOL...: exit 77 ("skipped: ...") unless each TOOL
# is on PATH (or in /usr/sbin, where Debian puts daemons).
skip_unless_installed() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] \
      || { echo "skipped: $tool is not installed"; exit 77; }
  done
}

# free_ports N: N distinct TCP ports free on 127.0.0.1 now, one a line.
free_ports() {
  /usr/bin/python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# wait_until SECONDS CMD...: polls CMD (quietly) every 0.1 s; 1 when it has
# not succeeded within SECONDS.
wait_until() {
  local tries=$(($1 * 10)); shift
  while [ $tries -gt 0 ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

# at_exit CMD: runs CMD (eval'd, failures ignored) when the scenario ends,
# the last registered first, before $TMP goes: also when it fails, or is
# ended by SIGINT/SIGTERM. For daemons a scenario starts. A scenario killed
# outright (SIGKILL: ctest's timeout) runs no trap: a watcher outside its
# process tree runs CMD (and removes $TMP) once the scenario's shell is gone.
AT_EXIT=()
at_exit() {
  AT_EXIT=("$1" "${AT_EXIT[@]}")
  trap run_at_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  (setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; eval "$2" || true; rm -rf "$3"' \
    - "$$" "$1" "$TMP" </dev/null >/dev/null 2>&1 &)
}
run_at_exit() {
  local cmd
  for cmd in "${AT_EXIT[@]}"; do
    eval "$cmd" || true
  done
  rm -rf "$TMP"
}

# toy_kernel DIR [KCONFIG]: an empty git repository (branch main) shaped like
# a kernel tree for the stand-in make (tests/fake-bin): a Kconfig (KCONFIG,
# printf-escaped; by default one bool DEMO_A) and a
# scripts/kconfig/merge_config.sh that appends the fragments to the config.
toy_kernel() {
  local dir=$1 kconfig=${2:-'config DEMO_A\n\tbool "a"\n'}
  mkdir -p "$dir/scripts/kconfig"
  git -C "$dir" init -q -b main
  printf "$kconfig" >"$dir/Kconfig"
  printf '#!/bin/sh\nshift 3; cfg=$1; shift; cat "$@" >>"$cfg"\n' >"$dir/scripts/kconfig/merge_config.sh"
  chmod +x "$dir/scripts/kconfig/merge_config.sh"
}

# make_series NAME FILE CONTENT [FILE CONTENT]...: in the toy tree $repo,
# a branch NAME off $base with one commit per FILE (it holds CONTENT;
# subject "demo: FILE for NAME", or "$SERIES_SUBJECT FILE" when that is
# set), formatted into $TMP/series/demo/NAME with its series file.
make_series() {
  local name=$1 subject; shift
  git -C "$repo" checkout -q -b "$name" "$base"
  while [ $# -gt 0 ]; do
    subject="demo: $1 for $name"
    [ -n "${SERIES_SUBJECT:-}" ] && subject="$SERIES_SUBJECT $1"
    printf '%s\n' "$2" >"$repo/$1" && git -C "$repo" add -A && git -C "$repo" commit -q -m "$subject"
    shift 2
  done
  git -C "$repo" format-patch -q -o "$TMP/series/demo/$name" --base="$base" "$base..$name"
  (cd "$TMP/series/demo/$name" && ls *.patch >series)
  git -C "$repo" checkout -q main
}

# toy_revision_tree: the toy tree $repo (toy_kernel) with an a.c of 30
# lines (int a1; ... int a30;) committed on main; sets $base. Its revisions:
# make_revision DIR VERSION SPEED: a branch off $base that renames a20 and
# sets the stand-in speed file to SPEED, formatted as vVERSION into DIR with
# its series file.
toy_revision_tree() {
  mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
  toy_kernel "$repo"
  seq 1 30 | sed 's/^/int a/; s/$/;/' >"$repo/a.c"
  git -C "$repo" add -A && git -C "$repo" commit -q -m base
  base=$(git -C "$repo" rev-parse HEAD)
}
make_revision() {
  git -C "$repo" checkout -q -B "work$2" "$base"
  sed -i s/a20/A20/ "$repo/a.c" && git -C "$repo" commit -q -am "demo: rename a20"
  echo "$3" >"$repo/speed" && git -C "$repo" add speed && git -C "$repo" commit -q -m "demo: set the speed"
  git -C "$repo" format-patch -q -v"$2" -o "$1" --base="$base" "$base..work$2"
  (cd "$1" && ls *.patch >series)
  git -C "$repo" checkout -q main
}

# toy_demo_case: the testcases directory $TMP/cases with an empty lib/init
# and the case demo (an empty guest.sh; needs pmem; 30 s).
toy_demo_case() {
  mkdir -p "$TMP/cases/demo" "$TMP/cases/lib"
  printf '#!/bin/sh\n' >"$TMP/cases/lib/init"
  printf '#!/bin/sh\n' >"$TMP/cases/demo/guest.sh"
  chmod +x "$TMP/cases/demo/guest.sh"
  printf 'description: demo\nneeds: pmem\ntimeout: 30\n' >"$TMP/cases/demo/case.conf"
}
