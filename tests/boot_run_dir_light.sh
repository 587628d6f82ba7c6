# A run directory stays light: no boot leaves its 256 MiB sparse bulk disk
# behind once its blobs are read (CI artifact uploads expand sparse files),
# nor does the KVM probe, an interrupted boot, or a gate's cells;
# --keep-bulk keeps them for debugging a dump.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo fast >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: go faster"
git -C "$repo" format-patch -q -o "$TMP/series/demo/v1" --base="$base" HEAD~1
(cd "$TMP/series/demo/v1" && ls *.patch >series)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=devdax-mem\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
# A KVM device that exists and fails: the probe boots too.
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base")
bulk_disks() { find "$TMP/wd" -name '*.bulk.img' | sort; }

expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --series "$TMP/series/demo/v1" \
  --compare-base
expect_grep "accelerator: TCG: KVM failed" "$TMP/out"
run=$(sed -n 's/^run directory //p' "$TMP/out")
[ -f "$run/base-1.console.log" ] || fail "no console log in $run"
[ -z "$(bulk_disks)" ] || fail "bulk disks left behind: $(bulk_disks)"

expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --target toy --keep-bulk
run=$(sed -n 's/^run directory //p' "$TMP/out")
[ "$(stat -c %s "$run/base-1.bulk.img")" = $((256 << 20)) ] || fail "--keep-bulk did not keep $run/base-1.bulk.img"
rm "$run/base-1.bulk.img"

# Interrupted while the guest runs: its disk goes too.
set +e
FAKE_QEMU_MODE=hang "$KSERIES" boot "${common[@]}" --case demo --target toy >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do grep -q "boot 1/1" "$TMP/err" && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
got=$?
set -e
[ "$got" = 130 ] || { cat "$TMP/err"; fail "an interrupted boot exited $got, not 130"; }
[ -z "$(bulk_disks)" ] || fail "an interrupted boot left $(bulk_disks)"

expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix toy --series "$TMP/series/demo/v1"
[ -n "$(find "$TMP/wd" -path '*/cells/*' -name '*.console.log')" ] || fail "the gate booted nothing"
[ -z "$(bulk_disks)" ] || fail "the gate left $(bulk_disks)"
echo "PASS"
