# kseries boot with stand-in make and QEMU: KVM is tried and TCG used (and
# said), base and series boots are interleaved and compared with a verdict,
# a panic and a hung guest are classified, and no QEMU survives.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo fast >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: go faster"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" HEAD~1
(cd "$TMP/series/demo/v1" && ls *.patch >series)
# An earlier revision that did not go faster (for revision-vs-revision).
git -C "$repo" checkout -q -b v0 "$base"
echo slow >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: go slow"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v0" --base="$base" HEAD~1
(cd "$TMP/series/demo/v0" && ls *.patch >series)
git -C "$repo" checkout -q main
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'fragments: a\nfeatures: pmem\ncannot: map=dev: no memmap in pmem here\n' >"$TMP/configs/targets/nodev.target"
toy_demo_case
# The KVM device is one this test controls, so each accelerator path runs on
# every machine, with or without a /dev/kvm of its own.
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base")

expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --series "$TMP/series/demo/v1" --compare-base \
  --boots 4 --json "$TMP/r.json" --junit "$TMP/j.xml"
expect_grep "accelerator: TCG: KVM failed (exit 1: qemu-system-x86_64: error: failed to set MSR 0x10a" "$TMP/out"
expect_grep "note: TCG emulation, not KVM" "$TMP/out"
expect_grep "boots interleaved: 4 round(s) of base, demo/v1" "$TMP/out"
# TCG: the instruction clock by default, every time labelled by it.
expect_grep "^clock: icount (QEMU -icount shift=0,sleep=off" "$TMP/out"
expect_grep "faster.*memmap_init_vns.devdax-mem" "$TMP/out"
expect_grep "faster.*memmap_init_vms.devdax-mem" "$TMP/out"
grep -q "memmap_init_ns\|memmap_init_ms" "$TMP/out" && fail "an icount figure is labelled as wall-clock time"
expect_grep "%change" "$TMP/out"
# Interleaved and counterbalanced: A B, B A, A B, B A.
grep -o 'boot [1-4]/4 [a-z/0-9]*' "$TMP/err" | tr '\n' ' ' | grep -q "boot 1/4 base boot 1/4 demo/v1 boot 2/4 demo/v1 boot 2/4 base boot 3/4 base boot 3/4 demo/v1 boot 4/4 demo/v1 boot 4/4 base" \
  || fail "boots were not interleaved: $(grep -o 'boot [1-4]/4 [a-z/0-9]*' "$TMP/err" | tr '\n' ' ')"
grep -q '"verdict": "faster"' "$TMP/r.json" || fail "no faster verdict in the JSON"
expect_grep '^verdict=faster$' "$TMP/j.xml"
expect_grep 'name="accel" value="tcg"' "$TMP/j.xml"
expect_grep 'name="clock" value="icount"' "$TMP/j.xml"
grep -q '"clock": "icount"' "$TMP/r.json" || fail "no clock in the JSON"
grep -q '"shift=0,sleep=off"' "$TMP/r.json" || fail "the boots did not run QEMU with -icount"

# Revision against revision: v1 against v0, no base kernel booted.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --series "$TMP/series/demo/v1" \
  --compare-base --against "$TMP/series/demo/v0"
expect_grep "boots interleaved: 1 round(s) of demo/v0, demo/v1" "$TMP/out"
expect_grep "faster.*memmap_init_vns.devdax-mem" "$TMP/out"
grep -q "kernel base for" "$TMP/err" && fail "--against booted the base kernel"
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --target toy --against "$TMP/series/demo/v0"
expect_grep "against needs --series and --compare-base" "$TMP/err"

# The other two accelerator paths: no device at all, and a KVM that works.
KSERIES_KVM_DEVICE=$TMP/no-such-kvm expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --boots 1
expect_grep "accelerator: TCG: $TMP/no-such-kvm does not exist" "$TMP/out"
expect_grep 'name="accel" value="tcg"' "$TMP/wd/runs/latest/junit.xml"
: >"$TMP/kvm-works"
KSERIES_KVM_DEVICE=$TMP/kvm-works FAKE_QEMU_KVM=ok expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo \
  --target toy --boots 1 --junit "$TMP/kvm.xml"
expect_grep "accelerator: KVM (probe boot powered off cleanly)" "$TMP/out"
expect_grep 'name="accel" value="kvm"' "$TMP/kvm.xml"
expect_grep 'name="clock" value="wall"' "$TMP/kvm.xml"
expect_exit 2 env KSERIES_KVM_DEVICE=$TMP/kvm-works FAKE_QEMU_KVM=ok "$KSERIES" boot "${common[@]}" --case demo \
  --target toy --clock icount
expect_grep "clock icount needs TCG" "$TMP/err"
grep -q "note: TCG emulation" "$TMP/out" && fail "a KVM run says it is TCG"
# The probe's answer is cached per device: the failing device still fails.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --boots 1
expect_grep "accelerator: TCG: KVM failed (exit 1: qemu-system-x86_64: error: failed to set MSR 0x10a" "$TMP/out"

# Only the setups asked for are booted and reported.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --boots 1 --setups devdax-mem
expect_grep "devdax-mem" "$TMP/out"
grep -q "fsdax-dev" "$TMP/out" && fail "a setup that was not asked for was reported"

# A/A control under icount: one boot a side, "same" and a power estimate
# below 0.5 %; no second pair, since nothing is unknown.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base
expect_grep "same.*memmap_init_vns.fsdax-dev" "$TMP/out"
expect_grep "^power fsdax-dev memmap_init_vns: .*trials: 0\.[0-4][0-9]%" "$TMP/out"
grep -q "second pair" "$TMP/err" && fail "a second pair was booted for a decided A/A"
# Rebinds spread by +-0.8 % under icount leave the A/A unknown after one
# pair (the interval is wider than +-0.25 %): a second pair is booted. Noise
# of +-15 % is not near-deterministic: a second pair is booted only when one
# pair's change is separated yet within what single boots differ by
# (cases::k_between_boots, 14 %), which random noise gives now and then; the
# rule itself is MemmapTimingTest's. (Random noise may yet give a false
# verdict after two pairs: exit 0 or 1.)
noisy_run() {
  set +e
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  set -e
  [ "$got" -le 1 ] || { cat "$TMP/err"; fail "exit $got: $*"; }
}
FAKE_QEMU_NOISE_PERMILLE=16 noisy_run "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base
expect_grep "a second pair of boots: unknown after one pair: memmap_init_vns" "$TMP/err"
expect_grep "boot 2/2 base-again" "$TMP/err"
FAKE_QEMU_NOISE_PERMILLE=300 noisy_run "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base
# The wall clock on request: plain TCG, noisy rebinds, figures in ns and ms.
noisy_run "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base --clock wall
expect_grep "^clock: wall" "$TMP/out"
expect_grep "memmap_init_ns.fsdax-dev" "$TMP/out"
grep -q -- "-icount" "$TMP/wd/runs/latest/results.json" && fail "--clock wall ran QEMU with -icount"
# Both clocks in one run: a session under each, one report with both.
noisy_run "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base --clock both
expect_grep "^== clock icount" "$TMP/out"
expect_grep "^== clock wall" "$TMP/out"
expect_grep "same.*memmap_init_vns.fsdax-dev" "$TMP/out"
expect_grep "memmap_init_ns.fsdax-dev" "$TMP/out"
[ -f "$TMP/wd/runs/latest/icount/base-1.console.log" ] || fail "no icount session directory"
[ -f "$TMP/wd/runs/latest/wall/base-1.console.log" ] || fail "no wall session directory"

# A panic is a classified failure even though QEMU exited 0.
FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --target toy
expect_grep "panic: Kernel panic - not syncing: VFS: Unable to mount root fs" "$TMP/out"

# A guest whose case dies before it reports anything fails its boot, though
# QEMU exited 0 and the guest powered off cleanly.
FAKE_QEMU_MODE=die expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --target toy --boots 1 \
  --junit "$TMP/die.xml"
expect_grep "the case 'demo' exited with rc=3" "$TMP/out"
expect_grep "no result for setup fsdax-mem (the case emitted nothing for it)" "$TMP/out"
expect_grep "<failure" "$TMP/die.xml"

# A hung guest is killed at its deadline; no QEMU survives.
FAKE_QEMU_MODE=hang expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --target toy --timeout 2
expect_grep "boot-timeout: the guest did not finish before its deadline (timed out after 2 s)" "$TMP/out"
sleep 0.5
pgrep -f "qemu-system-x86_64.*$TMP" >/dev/null && fail "a QEMU survived"

# A target without pmem: skipped with the reason, not failed.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target nopmem
expect_grep "skipped demo on nopmem: target nopmem lacks 'pmem'" "$TMP/out"
# Every setup asked for is one the target cannot do: skipped with the reason,
# and no kernel is built for a run with nothing to boot.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target nodev --setups fsdax-dev,devdax-dev
expect_grep "skipped setup fsdax-dev on nodev: no memmap in pmem here" "$TMP/out"
expect_grep "skipped setup devdax-dev on nodev: no memmap in pmem here" "$TMP/out"
grep -q "kernel base for nodev" "$TMP/err" && fail "a kernel was built for a run that boots nothing"
expect_exit 2 "$KSERIES" boot "${common[@]}" --target toy --case nosuchcase
expect_grep "unknown case 'nosuchcase'.*known cases: demo" "$TMP/err"
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --pmem floppy
expect_grep "pmem must be legacy or nvdimm" "$TMP/err"
echo "PASS"
