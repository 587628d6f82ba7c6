# The toy gate the sharding scenarios share (sourced after lib.bash, with
# fake-bin on PATH): a toy kernel tree with a base commit, three series
# (good; slow, a timing regression; breaks, a build break mended two patches
# later), both known-bad with expectations, targets toy, other (both with
# pmem) and nopmem, the matrix toy (per-patch toy; demo on each target) and
# small (demo on other). Sets $base, series=(--series ...), tree=(--configs
# ... --tree ... --base ...).
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
skip_unless_installed jq
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
make_series good speed fast b.c "int b;"
make_series slow speed slow
make_series breaks b.c "BROKEN" b.c "int b;" speed fast
printf "fail: toy demo: slower\nfail: other demo: slower\n" >"$TMP/series/demo/slow/expect"
echo "fail: per-patch toy: patch 1/3" >"$TMP/series/demo/breaks/expect"
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/other.target"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\ncell: other demo\ncell: nopmem demo\n' \
  >"$TMP/configs/matrices/toy.matrix"
printf 'cell: other demo\n' >"$TMP/configs/matrices/small.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
series=(--series "$TMP/series/demo/good" --series "$TMP/series/demo/slow"
        --series "$TMP/series/demo/breaks")
tree=(--configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo" --base "$base")

# what_was_judged OUT JSON: the cells (series cell status, gate order) and
# the verdict lines, without times, paths or run directories.
what_was_judged() {
  jq -r '.cells[] | "\(.series) | \(.cell) | \(.status)"' "$2"
  grep -E '^  (verdict:|expected failure holds|FAILED|ERROR)|^gate: ' "$1"
}
