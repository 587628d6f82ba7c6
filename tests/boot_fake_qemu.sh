# kseries boot with stand-in make and QEMU: KVM is tried and TCG used (and
# said), base and series boots are interleaved and compared with a verdict,
# a panic and a hung guest are classified, and no QEMU survives.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/demo" "$TMP/cases/lib"
git -C "$repo" init -q -b main
printf 'config DEMO_A\n\tbool "a"\n' >"$repo/Kconfig"
printf '#!/bin/sh\nshift 3; cfg=$1; shift; cat "$@" >>"$cfg"\n' >"$repo/scripts/kconfig/merge_config.sh"
chmod +x "$repo/scripts/kconfig/merge_config.sh"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo fast >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: go faster"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" HEAD~1
(cd "$TMP/series/demo/v1" && ls *.patch >series)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'fragments: a\nfeatures: pmem\ncannot: map=dev: no memmap in pmem here\n' >"$TMP/configs/targets/nodev.target"
printf '#!/bin/sh\n' >"$TMP/cases/lib/init"
printf '#!/bin/sh\n' >"$TMP/cases/demo/guest.sh"
chmod +x "$TMP/cases/demo/guest.sh"
printf 'description: demo\nneeds: pmem\ntimeout: 30\n' >"$TMP/cases/demo/case.conf"
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base")

expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --series "$TMP/series/demo/v1" --compare-base \
  --boots 4 --json "$TMP/r.json" --junit "$TMP/j.xml"
expect_grep "accelerator: TCG: KVM failed (exit 1: qemu-system-x86_64: error: failed to set MSR 0x10a" "$TMP/out"
expect_grep "note: TCG emulation, not KVM" "$TMP/out"
expect_grep "boots interleaved: 4 round(s) of base, demo/v1" "$TMP/out"
expect_grep "faster.*memmap_init_ms.devdax-mem" "$TMP/out"
expect_grep "%change" "$TMP/out"
# Interleaved and counterbalanced: A B, B A, A B, B A.
grep -o 'boot [1-4]/4 [a-z/0-9]*' "$TMP/err" | tr '\n' ' ' | grep -q "boot 1/4 base boot 1/4 demo/v1 boot 2/4 demo/v1 boot 2/4 base boot 3/4 base boot 3/4 demo/v1 boot 4/4 demo/v1 boot 4/4 base" \
  || fail "boots were not interleaved: $(grep -o 'boot [1-4]/4 [a-z/0-9]*' "$TMP/err" | tr '\n' ' ')"
grep -q '"verdict": "faster"' "$TMP/r.json" || fail "no faster verdict in the JSON"
expect_grep 'name="verdict" value="faster"' "$TMP/j.xml"
expect_grep 'name="accel" value="tcg"' "$TMP/j.xml"

# A/A control: base against base gives "same" and a power estimate.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --compare-base --boots 1
expect_grep "same.*memmap_init_ms.fsdax-dev" "$TMP/out"
expect_grep "^power fsdax-dev memmap_init_ms: " "$TMP/out"

# A panic is a classified failure even though QEMU exited 0.
FAKE_QEMU_MODE=panic expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --target toy
expect_grep "panic: Kernel panic - not syncing: VFS: Unable to mount root fs" "$TMP/out"

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
