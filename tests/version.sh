# kseries --version: the project's version (CMakeLists.txt's project VERSION)
# and the git describe of the checkout it was built from, taken at build
# time: a commit of this repository (or "unknown" outside a git checkout).
source "$(dirname "$0")/lib.bash"
out=$("$KSERIES" --version) || fail "kseries --version exited $?"
version=$(sed -n 's/^project(kseries VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
[ -n "$version" ] || fail "no project VERSION in $SRC/CMakeLists.txt"
[[ $out =~ ^kseries\ ([0-9.]+)\ \((.+)\)$ ]] || fail "kseries --version printed '$out', not 'kseries VERSION (DESCRIBE)'"
[ "${BASH_REMATCH[1]}" = "$version" ] || fail "version ${BASH_REMATCH[1]}, CMakeLists.txt says $version"
describe=${BASH_REMATCH[2]}
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  # v0.1-3-gabcdef0[-dirty], v0.1 or abcdef0[-dirty]: it names a commit of SRC.
  hash=${describe%-dirty}
  [[ $hash =~ -g([0-9a-f]+)$ ]] && hash=${BASH_REMATCH[1]}
  git -C "$SRC" rev-parse -q --verify "$hash^{commit}" >/dev/null ||
    fail "git describe '$describe': $hash is not a commit of $SRC"
else
  [ "$describe" = unknown ] || fail "not a git checkout, yet describe is '$describe'"
fi
echo "ok: $out"
