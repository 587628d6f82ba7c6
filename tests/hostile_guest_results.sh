# A hostile guest (the kernel under test is code from the list): result
# statuses other than pass/skip, numbers out of range or not finite, negative
# times, a second case-end after rc=0 and an all-skip run, through `kseries
# boot` with stand-in make and QEMU. Each is a failure or a problem with its
# reason, never a pass; a run ends in bounded time and memory (a measurement
# of 1.7976931348623157e308 sent the SVG axis into an endless loop, 17 GB)
# and leaves its report.
source "$(dirname "$0")/lib.bash"
# Every run bounded to 2 GiB of address space, except under AddressSanitizer,
# which reserves terabytes of shadow address space (its runs are bounded by
# the timeout only; the plain build checks the memory bound).
limit=(prlimit --as=$((2 << 30)) --)
grep -qa __asan_init "$KSERIES" && limit=()
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-such-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$(git -C "$repo" rev-parse HEAD)" --case demo --target toy --boots 1)

# boot WANT NAME: one boot (at most 120 s, 2 GiB), its run directory kept as
# $TMP/NAME; the verdict must be WANT and the run's reports must be there.
boot() {
  local want=$1 name=$2
  expect_exit "$want" timeout -s KILL 120 "${limit[@]}" "$KSERIES" boot "${common[@]}" \
    --json "$TMP/$name.json"
  cp -r "$(readlink -f "$TMP/wd/runs/latest")" "$TMP/$name"
  [ -s "$TMP/$name.json" ] || fail "$name: no --json report"
  [ -s "$TMP/$name/junit.xml" ] || fail "$name: no junit.xml in the run directory"
}

boot 0 clean  # the control: the stand-in guest as it is passes
for status in FAIL error Pass ok; do
  FAKE_QEMU_STATUS=$status boot 1 "status-$status"
  grep -q '"verdict": "pass"' "$TMP/status-$status.json" && fail "status=$status counted as a pass"
done
measure() { echo "KSERIES measure setup=devdax-mem iter=9 metric=memmap_init_ns value=$1 unit=ns kind=rebind pages=524288"; }
for value in 1.7976931348623157e308 -1.7976931348623157e308 1e300 inf nan -5 1e16; do
  FAKE_QEMU_EXTRA=$(measure "$value") boot 1 "value-$value"
done
FAKE_QEMU_AFTER_END="KSERIES case-end name=demo rc=3" boot 1 second-case-end
FAKE_QEMU_STATUS=skip boot "0|1|77" all-skip
grep -q "testcase(s) pass" "$TMP/out" && fail "an all-skip run reads as passed testcases"
# The report of a hostile run reads back: `kseries report --run` on its
# run directory (the 1e308 run's results.json looped `report --run` too).
for name in value-1.7976931348623157e308 status-FAIL; do
  expect_exit "0|1" timeout -s KILL 120 "${limit[@]}" "$KSERIES" report \
    --run "$TMP/$name" --html "$TMP/$name.html"
  [ -s "$TMP/$name.html" ] || fail "report --run $name wrote no HTML"
done
echo "ok: hostile guest results are failures or problems, in bounded time"
