# A guest that floods the protocol port (17 MiB of lines, past the 16 MiB
# kseries reads) and then powers off (issue 50): the poweroff came after the
# part read, so the boot was blamed on QEMU ("QEMU ended without the guest
# powering off"). Now the log's last lines are read too: the guest did power
# off, and the boot fails for the flood, with its reason.
source "$(dirname "$0")/lib.bash"
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

expect_exit 0 timeout -s KILL 120 "$KSERIES" boot "${common[@]}" --json "$TMP/clean.json"
FAKE_QEMU_FLOOD_MB=17 expect_exit 1 timeout -s KILL 120 "$KSERIES" boot "${common[@]}" \
  --json "$TMP/flood.json"
grep -q "without the guest powering off\|did not power off" "$TMP/out" "$TMP/flood.json" &&
  fail "a guest that powered off after a flood was blamed for not powering off: $(grep -h "power" "$TMP/out")"
expect_grep "more than 16 MiB of protocol lines" "$TMP/out"
echo "ok: a flooding guest that powers off is judged for the flood"
