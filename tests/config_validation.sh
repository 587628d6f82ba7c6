# Configuration mistakes are usage errors found at load (exit 2, file:line),
# before any series is applied, never a failed check blamed on the series
# (exit 1) or silently accepted: an unknown case in a matrix, a duplicate
# cell (it ran twice), a case that needs a feature no target has ("needs:
# pmme" skipped it everywhere and the gate passed), "timeout: 0", a UTF-8
# byte order mark, an expect file that expects nothing.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/kernel
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo "int b;" >"$repo/b.c" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: add b"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" "$base..HEAD"
(cd "$TMP/series/demo/v1" && ls *.patch >series)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
mkdir -p "$TMP/cases/typo" "$TMP/cases/never"
cp "$TMP/cases/demo/guest.sh" "$TMP/cases/typo/" && cp "$TMP/cases/demo/guest.sh" "$TMP/cases/never/"
printf 'description: typo\nneeds: pmme\n' >"$TMP/cases/typo/case.conf"
printf 'description: never\ntimeout: 0\n' >"$TMP/cases/never/case.conf"
export KSERIES_KVM_DEVICE=$TMP/no-kvm
gate() {
  "$KSERIES" gate --workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" \
    --tree "$repo" --base "$base" --series "$TMP/series/demo/v1" "$@"
}
matrix() { printf "$2" >"$TMP/configs/matrices/$1.matrix"; }
matrix unknown 'cell: toy demo\ncell: toy nosuch\n'
expect_exit 2 gate --matrix unknown
expect_grep "unknown.matrix:2: unknown case 'nosuch'" "$TMP/err"
matrix dup 'cell: toy demo setups=fsdax-dev\ncell: toy demo\n'
expect_exit 2 gate --matrix dup
expect_grep "dup.matrix:2: cell 'toy demo' is already at line 1" "$TMP/err"
matrix needs 'cell: toy typo\n'
expect_exit 2 gate --matrix needs
expect_grep "needs.matrix:1: case typo needs 'pmme', a feature no target" "$TMP/err"
matrix zero 'cell: toy never\n'
expect_exit 2 gate --matrix zero
expect_grep "never/case.conf:2: timeout must be a number of seconds from 1" "$TMP/err"
printf '\357\273\277cell: toy demo\n' >"$TMP/configs/matrices/bom.matrix"
expect_exit 2 gate --matrix bom
expect_grep "bom.matrix:1: starts with a UTF-8 byte order mark" "$TMP/err"
matrix ok 'cell: toy demo setups=fsdax-dev\n'
: >"$TMP/series/demo/v1/expect"
expect_exit 2 gate --matrix ok
expect_grep "v1/expect: expects nothing" "$TMP/err"
[ ! -d "$TMP/wd/kernels" ] || [ -z "$(ls "$TMP/wd/kernels")" ] || fail "a kernel was built before the configuration was checked"
echo "PASS"
