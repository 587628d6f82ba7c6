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
expect_exit() {
  local want=$1; shift
  set +e
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  set -e
  if [ "$got" != "$want" ]; then
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
