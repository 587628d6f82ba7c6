# kseries bisect with stand-in make and QEMU, on 8-patch toy series: a
# build break that stays (the fake make fails on a BROKEN marker), a build
# break a later patch fixes (found below a tip that builds), a guest result
# that fails from patch 6 (the case check, also on a flaky machine where
# every third boot panics), a timing regression from patch 5 (the toy kernel
# gets "slow"), and a tip that passes (nothing to bisect, exit 1). Each names
# its culprit on the greppable line, with fewer builds than a linear scan.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
echo "base" >"$repo/speed"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
# make_series NAME [K:FILE:CONTENT]...: 8 patches, patch i adds p<i>.c;
# patch K also writes CONTENT to FILE.
make_series() {
  local name=$1; shift
  git -C "$repo" checkout -q -b "$name" "$base"
  for i in $(seq 1 8); do
    echo "int p$i;" >"$repo/p$i.c"
    for change in "$@"; do
      IFS=: read -r k file content <<<"$change"
      [ "$k" = "$i" ] && printf '%s\n' "$content" >"$repo/$file"
    done
    git -C "$repo" add -A
    GIT_AUTHOR_NAME="Author $i" git -C "$repo" commit -q -m "demo: patch $i of $name"
  done
  git -C "$repo" format-patch -q -o "$TMP/series/demo/$name" --base="$base" "$base..$name"
  (cd "$TMP/series/demo/$name" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
make_series breaks "4:b.c:BROKEN"
make_series fixed "3:b.c:BROKEN" "4:b.c:int b;"
make_series guest "6:speed:guestfail"
make_series slow "1:speed:fast" "5:speed:slow"
# A refactor that costs 20 % (patch 2), then a real regression (patch 5,
# 25 % over the refactor); the good revision shares patches 1-4 and makes
# patch 5 fast.
make_series refactor "2:speed:refactor" "5:speed:slow"
make_series goodrev "2:speed:refactor" "5:speed:fast"
make_series good
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo" --base "$base"
        --target toy)
cost() {  # cost FIELD: the number before FIELD on the cost line
  sed -n "s/^cost: \([0-9]*\) build(s), \([0-9]*\) from the cache, \([0-9]*\) boot(s).*/\1 \2 \3/p" \
    "$TMP/out" | awk -v f="$1" '{print (f == "builds" ? $1 : f == "cached" ? $2 : $3)}'
}

# A build break that stays: prefixes 8, 4, 2, 3, then 4 again and 3 again
# (cached): 5 makes, where a linear scan makes 8.
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd1" --check build \
  --series "$TMP/series/demo/breaks" --junit "$TMP/b.xml" --json "$TMP/b.json"
expect_grep "^culprit: 4/8 demo: patch 4 of breaks (Author 4 <toy@example.com>)$" "$TMP/out"
expect_grep "^step 1 tip prefix 8/8 bad" "$TMP/out"
expect_grep "run 1 fail: does not build: b.c:1: 'b' is broken" "$TMP/out"
expect_grep "^step 5 confirm prefix 4/8 bad" "$TMP/out"
expect_grep "^step 6 confirm prefix 3/8 good" "$TMP/out"
expect_grep "a linear scan of every prefix: 8 build(s)" "$TMP/out"
[ "$(cost builds)" = 5 ] || fail "the build bisection made $(cost builds) kernels, not 5"
[ "$(cost cached)" = 1 ] || fail "the build bisection took $(cost cached) kernels from the cache, not 1"
expect_grep 'classname="bisect.breaks" name="result"' "$TMP/b.xml"
expect_grep '"status": "culprit"' "$TMP/b.json"
run_dir=$(sed -n 's/^run directory //p' "$TMP/out")
for f in bisect.txt bisect.json junit.xml; do [ -f "$run_dir/$f" ] || fail "no $f in $run_dir"; done
expect_grep "bisect breaks: prefix 4/8 is bad" "$TMP/err"

# A build break a later patch fixes: the tip builds, the hunt finds it.
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd1" --check build \
  --series "$TMP/series/demo/fixed"
expect_grep "^culprit: 3/8 demo: patch 3 of fixed (Author 3 <toy@example.com>)$" "$TMP/out"
expect_grep "^step 1 tip prefix 8/8 good" "$TMP/out"
expect_grep "^step 2 hunt prefix 1/8 good" "$TMP/out"

# The guest's result fails from patch 6: 8, 4, 6, 5 built (4 makes, not 8),
# two boots a step (a clean step ends after two passes, a failing one after
# two failures), 12 boots in all.
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/guest"
expect_grep "^culprit: 6/8 demo: patch 6 of guest (Author 6 <toy@example.com>)$" "$TMP/out"
expect_grep "fail: case.toy.demo.prefix-8-of-8 fsdax-mem #1: the-guest-saw-the-bug" "$TMP/out"
expect_grep "^confidence: 1.00 (threshold 0.66)" "$TMP/out"
[ "$(cost builds)" = 4 ] || fail "the case bisection made $(cost builds) kernels, not 4"
[ "$(cost boots)" = 12 ] || fail "the case bisection booted $(cost boots) times, not 12"
expect_grep "a linear scan of every prefix: 8 build(s), 16 boot(s)" "$TMP/out"

# The same on a flaky machine (every third boot panics): same culprit, the
# panics on record as failed runs of good steps.
FAKE_QEMU_FLAKE_EVERY=3 FAKE_QEMU_COUNTER=$TMP/boots expect_exit 0 "$KSERIES" bisect \
  "${common[@]}" --workdir "$TMP/wd2" --case demo --series "$TMP/series/demo/guest"
expect_grep "^culprit: 6/8 demo: patch 6 of guest" "$TMP/out"
expect_grep "fail: boot prefix-.*: panic: Kernel panic" "$TMP/out"

# A timing regression from patch 5 (prefixes 1-4 are faster than the base):
# each prefix boots beside the last good one (the base at first) under the
# instruction clock: 8 and 4 against the base, then 6 and 5 against 4.
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/slow" --metric memmap_init_ns --threshold 10 --json "$TMP/t.json" \
  --setups fsdax-dev,devdax-mem
expect_grep "^culprit: 5/8 demo: patch 5 of slow (Author 5 <toy@example.com>)$" "$TMP/out"
expect_grep "check timing (memmap_init_ns slower than the last good prefix by at least 10.0 %)" "$TMP/out"
expect_grep "^step 1 tip prefix 8/8 against the base bad" "$TMP/out"
expect_grep "run 1 fail: memmap_init_ns: devdax-mem slower +50.0%" "$TMP/out"
expect_grep "^step 2 search prefix 4/8 against the base good" "$TMP/out"
expect_grep "run 1 pass: memmap_init_ns: devdax-mem faster -40.0%" "$TMP/out"
expect_grep "^step 3 search prefix 6/8 against 4/8 bad" "$TMP/out"
expect_grep "run 1 fail: memmap_init_ns: devdax-mem slower +150.0%" "$TMP/out"
expect_grep "^step 5 confirm prefix 5/8 against 4/8 bad" "$TMP/out"
expect_grep "^step 6 confirm prefix 4/8 against the base good" "$TMP/out"
[ "$(cost boots)" = 12 ] || fail "the timing bisection booted $(cost boots) times, not 12"
# The base and 8, 4, 6, 5: 5 makes, where a linear scan makes 9.
[ "$(cost builds)" = 5 ] || fail "the timing bisection made $(cost builds) kernels, not 5"
expect_grep "a linear scan of every prefix: 9 build(s), 16 boot(s)" "$TMP/out"
expect_grep '"index": 5' "$TMP/t.json"
# A slowdown below the threshold is not a regression: the tip passes.
expect_exit 1 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/slow" --metric memmap_init_vns --threshold 60 --setups devdax-mem
expect_grep "slower +50.0% (below the threshold +60.0%)" "$TMP/out"
expect_grep "^no culprit: the tip passes: nothing to bisect" "$TMP/out"

# A refactor (+20 %) before the real regression (patch 5): against the last
# good prefix, 2 is a real step and is named (3 and 4, slower than the base
# but not than their predecessor, are not); against the good revision, the
# patches both share are good without a boot and 5 is named.
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/refactor" --metric memmap_init_ns --threshold 10 --setups devdax-mem
expect_grep "^culprit: 2/8 demo: patch 2 of refactor" "$TMP/out"
expect_grep "^step 6 confirm prefix 2/8 against 1/8 bad" "$TMP/out"
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd3" --case demo \
  --series "$TMP/series/demo/refactor" --metric memmap_init_ns --threshold 10 --setups devdax-mem \
  --against "$TMP/series/demo/goodrev" --json "$TMP/a.json"
expect_grep "^culprit: 5/8 demo: patch 5 of refactor (Author 5 <toy@example.com>)$" "$TMP/out"
expect_grep "check timing (memmap_init_ns slower than the same prefix of goodrev by at least 10.0 %)" "$TMP/out"
expect_grep "^step 1 tip prefix 8/8 against goodrev 8/8 bad" "$TMP/out"
expect_grep "run 1 fail: memmap_init_ns: devdax-mem slower +150.0%" "$TMP/out"
expect_grep "^step 2 search prefix 4/8 against goodrev 4/8 good" "$TMP/out"
expect_grep "run 1 pass: the same tree as the reference: good without a boot (0 built, 0 cached, 0 boot(s)" "$TMP/out"
# 8, 6, 5 of each revision built (4 is shared: nothing built), 8 boots, no base.
[ "$(cost builds)" = 6 ] || fail "the --against bisection made $(cost builds) kernels, not 6"
[ "$(cost boots)" = 8 ] || fail "the --against bisection booted $(cost boots) times, not 8"
expect_grep '"timing_reference": "against"' "$TMP/a.json"
expect_exit 0 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/refactor" --metric memmap_init_ns --threshold 10 --setups devdax-mem \
  --against base
expect_grep "^culprit: 2/8 demo: patch 2 of refactor" "$TMP/out"
expect_grep "slower than the base by at least 10.0 %" "$TMP/out"

# Nothing to bisect: the tip passes (exit 1, no culprit line).
expect_exit 1 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/good" --junit "$TMP/g.xml"
expect_grep "^no culprit: the tip passes: nothing to bisect" "$TMP/out"
grep -q "^culprit:" "$TMP/out" && fail "a culprit line when the tip passes"
expect_grep '<failure message="no-culprit: the tip passes' "$TMP/g.xml"

# Usage errors: exit 2 with the reason.
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo
expect_grep "give the series to bisect" "$TMP/err"
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --series "$TMP/series/demo/slow"
expect_grep "the case check needs --case NAME" "$TMP/err"
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/slow" --check timing
expect_grep "the timing check needs --metric NAME" "$TMP/err"
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/slow" --metric bind_ns
expect_grep "the metric bind_ns was not measured: the case measured memmap_init_vms, memmap_init_vns" "$TMP/err"
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --check build \
  --series "$TMP/series/demo/slow" --against base
expect_grep "against is for the timing check" "$TMP/err"
expect_exit 2 "$KSERIES" bisect "${common[@]}" --workdir "$TMP/wd2" --case demo \
  --series "$TMP/series/demo/slow" --metric memmap_init_ns --against "$TMP/nowhere"
expect_grep "against: no series at" "$TMP/err"
expect_exit 0 "$KSERIES" bisect --help
expect_grep "Exit status (as git bisect run): 0 a culprit was named" "$TMP/out"
echo "PASS"
