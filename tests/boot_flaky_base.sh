# A finding on the base kernel's console is not the series': the base boot
# is booted again. With stand-in make and QEMU (FAKE_QEMU_PANIC_AT picks the
# boots that panic): a base that panics once and then boots clean is named
# flaky (text, JSON, a skipped JUnit testcase), its rerun is what is judged,
# its first console is kept beside the rerun's, and the session passes; a
# base that panics in every rerun fails the session, saying the base itself
# fails the case; a series kernel that panics is never booted again.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo fast >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: go faster"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" HEAD~1
(cd "$TMP/series/demo/v1" && ls *.patch >series)
git -C "$repo" checkout -q "$base" 2>/dev/null
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/kvm FAKE_QEMU_COUNTER=$TMP/boots
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --case demo --target toy --series "$TMP/series/demo/v1" --compare-base)

# 1. Round 1 boots the base first: its first boot panics, its rerun is clean.
rm -f "$TMP/boots"
FAKE_QEMU_PANIC_AT=1 expect_exit 0 "$KSERIES" boot "${common[@]}" --json "$TMP/flaky.json" \
  --junit "$TMP/flaky.xml"
expect_grep "boot 1 base: panic: .*a finding on the base kernel, not the series': booting it again" "$TMP/err"
expect_grep "rerun 1 has no finding: flaky on the base; the rerun is judged" "$TMP/err"
expect_grep "^flaky base #1 (.*base-1.console.log): flaky on the base: panic: " "$TMP/out"
expect_grep "faster.*memmap_init_vns.devdax-mem" "$TMP/out"
[ "$(cat "$TMP/boots")" = 3 ] || fail "expected 3 boots (base, base again, series), got $(cat "$TMP/boots")"
python3 - "$TMP/flaky.json" <<'PY' || fail "the JSON does not name the flaky base boot"
import json, sys
r = json.load(open(sys.argv[1]))
flaky = r["flaky_baseline"]
assert len(flaky) == 1 and flaky[0]["role"] == "base" and flaky[0]["findings"][0]["kind"] == "panic", flaky
assert [b.get("rerun", 0) for b in r["boots"] if b["role"] == "base"] == [1], r["boots"]
assert r["failed"] is False
PY
grep -A1 'name="boot base #1 (flaky)"' "$TMP/flaky.xml" | grep -q '<skipped message="flaky on the base: panic' \
  || fail "the flaky base boot is not a skipped JUnit testcase"
run=$(sed -n 's/^run directory //p' "$TMP/out")
[ -f "$run/base-1.console.log" ] && [ -f "$run/base-1-rerun1.console.log" ] \
  || fail "the first base console and its rerun's are not both kept: $(ls "$run")"
grep -q "Kernel panic" "$run/base-1.console.log" || fail "the first base console was overwritten"

# 2. The base panics in its boot and both reruns: the base itself fails.
rm -f "$TMP/boots"
FAKE_QEMU_PANIC_AT=1,2,3 expect_exit 1 "$KSERIES" boot "${common[@]}"
expect_grep "the base kernel's finding came back in each of 2 rerun(s) (base-1-rerun1.console.log, base-1-rerun2.console.log): the base itself fails this case" "$TMP/out"
grep -q "^flaky " "$TMP/out" && fail "a base failing every time was called flaky"
[ "$(cat "$TMP/boots")" = 4 ] || fail "expected 4 boots, got $(cat "$TMP/boots")"

# 3. The series kernel panics (boot 2): a finding of the series, never rerun.
rm -f "$TMP/boots"
FAKE_QEMU_PANIC_AT=2 expect_exit 1 "$KSERIES" boot "${common[@]}"
grep -q "booting it again" "$TMP/err" && fail "a series kernel's panic was booted again"
[ "$(cat "$TMP/boots")" = 2 ] || fail "expected 2 boots, got $(cat "$TMP/boots")"
echo "PASS"
